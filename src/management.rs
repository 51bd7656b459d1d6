//! `applyContextManagement`'s machine.

use devs_context_rules::base::args::non_negative;
use devs_context_rules::base::frame::Frame;
use devs_context_rules::base::tokens::approx_tokens;
use devs_context_rules::seeds::management::{Need, Run};
use devs_context_rules::seeds::ops::ManagementOp;
use devs_context_rules::seeds::pruner::{AgentRole, Kept, should_prune_checked};
use wasm_bindgen::prelude::*;

use crate::pending::PendingIndex;
use crate::{Out, report};
use devs_context_rules::base::text::split_texts;

#[wasm_bindgen]
pub struct Management(Run, Need);

/// Step (1)'s counts: the host counter's tokens, or (`approx`, the default counter) the
/// turns' lengths, counted here so that they cross once.
fn turn_tokens(mut counts: Vec<f64>, approx: bool) -> Vec<f64> {
    if approx {
        for n in counts.iter_mut() {
            *n = approx_tokens(*n as usize) as f64;
        }
    }
    counts
}

#[wasm_bindgen]
impl Management {
    /// `done_outputs[i]` is 1 when pending output `i` is already truncated.
    #[wasm_bindgen(constructor)]
    pub fn new(
        total_budget: f64,
        ratio: f64,
        turn_counts: Vec<f64>,
        approx: bool,
        already_pruned: bool,
        done_outputs: &[u8],
    ) -> Out<Management> {
        let total = report(non_negative("context.budget.totalBudget", total_budget))?;
        let done = done_outputs.iter().map(|&d| d == 1).collect();
        let turns = turn_tokens(turn_counts, approx);
        Ok(Management(
            Run::new(total, ratio, turns, already_pruned, done),
            Need::Compose,
        ))
    }

    /// A run over the runner's pending outputs as its index describes them: which are
    /// truncated already and, with this package's `ToolOutputPruner`, which are due, so the
    /// shell reads no output to answer (the answers are the pruner's, as it would give them).
    pub fn indexed(
        total_budget: f64,
        ratio: f64,
        turn_counts: Vec<f64>,
        approx: bool,
        already_pruned: bool,
        index: &PendingIndex,
        own_pruner: bool,
    ) -> Out<Management> {
        let total = report(non_negative("context.budget.totalBudget", total_budget))?;
        // With this package's pruner the index knows which outputs are due, and the run
        // goes through those alone; another pruner is asked of each output that is whole.
        let done = if own_pruner {
            Vec::new()
        } else {
            index.0.done()
        };
        let mut run = Run::new(
            total,
            ratio,
            turn_tokens(turn_counts, approx),
            already_pruned,
            done,
        );
        if own_pruner {
            run.due_known(index.0.due_outputs());
        }
        Ok(Management(run, Need::Compose))
    }

    /// [`Management::recounted`] with the outputs' tokens from the runner's index.
    pub fn recounted_indexed(&mut self, turn_tokens: f64, index: &PendingIndex) -> f64 {
        let outputs = index.0.tokens();
        self.answer(|run| run.recounted(turn_tokens, outputs))
    }

    /// A call of `ManagementOp`'s, one crossing whatever it is: an answer, returning the
    /// next need as one number, `code + 16 * argument` (`Need::encode`, whose codes are
    /// `ManagementNeed`'s), or a read of what does not fit in it (`Tokens`, `Share`).
    /// With this package's `ContextPruner` (`Composed`'s `b`, its saturation ratio, and
    /// `c`, the budget's total), `shouldPrune` is answered here, as the pruner answers it,
    /// in the same crossing; with a host's (`b` NaN) the need goes to the host.
    pub fn op(&mut self, op: u8, a: f64, b: f64, c: f64) -> Out<f64> {
        let yes = a == 1.0;
        let run = &mut self.0;
        self.1 = match crate::op("Management", ManagementOp::from_code(op))? {
            ManagementOp::Tokens => {
                return Ok(match self.1 {
                    Need::ShouldPrune { tokens } => tokens,
                    Need::Done { used_tokens, .. } => used_tokens,
                    _ => 0.0,
                });
            }
            ManagementOp::Share => {
                return Ok(match self.1 {
                    Need::Keep(Kept::Cut { share, .. }) => share as f64,
                    _ => 0.0,
                });
            }
            ManagementOp::Start => run.start(),
            ManagementOp::Composed => match run.composed(a) {
                Need::ShouldPrune { tokens } if !b.is_nan() => {
                    let yes = report(should_prune_checked(tokens, c, b))?;
                    run.should_prune(yes)
                }
                need => need,
            },
            ManagementOp::ShouldPrune => run.should_prune(yes),
            ManagementOp::Pruned => run.pruned(a),
            ManagementOp::Kept => run.kept(),
            ManagementOp::ShouldTruncate => run.should_truncate(yes),
            ManagementOp::Persisted => run.persisted(yes),
            ManagementOp::Warned => run.warned(),
            ManagementOp::Truncated => run.truncated(),
            ManagementOp::Recounted => run.recounted(a, b),
        };
        Ok(self.1.encode())
    }

    pub fn roles(&mut self, roles: &str, lens: &[u32]) -> Out<f64> {
        let roles = report(AgentRole::all_checked(
            "context.turns",
            &split_texts(roles, lens),
        ))?;
        Ok(self.answer(|run| run.roles(&roles)))
    }

    /// `due[i]` is 1 when output `i` is due.
    pub fn should_truncate_all(&mut self, due: &[u8]) -> f64 {
        let due: Vec<bool> = due.iter().map(|&d| d == 1).collect();
        self.answer(|run| run.should_truncate_all(&due))
    }

    /// The next need, as [`Management::op`] returns it.
    fn answer(&mut self, step: impl FnOnce(&mut Run) -> Need) -> f64 {
        self.1 = step(&mut self.0);
        self.1.encode()
    }

    pub fn loop_guard_warning(&self) -> String {
        let mut f = Frame::new();
        f.text(|p| self.0.loop_guard_warning(p));
        f.into_string()
    }
}
