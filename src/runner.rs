//! `AgentRunner`'s turn machine and its texts.

use devs_context_rules::base::frame::Frame;
use devs_context_rules::seeds::handoff::Role;
use devs_context_rules::seeds::ops::RunnerOp;
use devs_context_rules::seeds::prompt::{TurnMeta, render};
use devs_context_rules::seeds::runner::{self, Parts, Turn};
use wasm_bindgen::prelude::*;

use crate::{Out, probe, report};
use devs_context_rules::base::text::split_texts;

#[wasm_bindgen]
pub struct RunnerCore {
    runner: runner::Runner,
    turn: Option<Turn>,
}

#[wasm_bindgen]
impl RunnerCore {
    #[wasm_bindgen(constructor)]
    pub fn new(
        threshold: Option<f64>,
        management: bool,
        injector: bool,
        tracker: bool,
        log: bool,
        refresh_on_context: bool,
    ) -> Out<RunnerCore> {
        let parts = Parts {
            management,
            injector,
            tracker,
            log,
            refresh_on_context,
        };
        Ok(RunnerCore {
            runner: report(runner::Runner::new(threshold, parts))?,
            turn: None,
        })
    }

    /// The runner's state between turns: `[turnCount, fresh, carried]` (a snapshot's `runner`).
    pub fn state(&self) -> Vec<f64> {
        self.runner.state().to_vec()
    }

    /// Takes back a `state()`, checked, under `field`; all or nothing.
    pub fn resume(&mut self, field: &str, state: &[f64]) -> Out<()> {
        report(self.runner.resume(field, state))
    }

    /// A call of `RunnerOp`'s, one crossing whatever it is. A turn's steps cross as
    /// base-16 digits after a leading 1 (`runner::pack_steps`, the codes `Step`'s), all of
    /// them in one number; recording the response answers with the steps that planned.
    pub fn op(&mut self, op: u8, a: f64, b: f64, c: f64) -> Out<f64> {
        let runner = &mut self.runner;
        let turn = &mut self.turn;
        Ok(match crate::op("RunnerCore", RunnerOp::from_code(op))? {
            RunnerOp::TurnCount => f64::from(runner.turn_count()),
            RunnerOp::Accumulated => runner.accumulated(),
            RunnerOp::Begin => {
                let t = turn.insert(runner.begin(a == 1.0));
                f64::from(t.number)
            }
            RunnerOp::Steps => steps(turn),
            RunnerOp::Record => {
                if let Some(t) = turn.as_mut() {
                    report(runner.record(t, a, b, c == 1.0))?;
                }
                steps(turn)
            }
            RunnerOp::Commit => {
                if let Some(t) = turn.take() {
                    runner.commit(&t);
                }
                0.0
            }
            RunnerOp::Rollback => {
                if let Some(t) = turn.take() {
                    runner.rollback(&t);
                }
                0.0
            }
        })
    }
}

/// The steps planned and not yet handed out, packed.
fn steps(turn: &mut Option<Turn>) -> f64 {
    runner::pack_steps(
        turn.as_mut()
            .into_iter()
            .flat_map(|t| std::iter::from_fn(|| t.next_step())),
    )
}

#[wasm_bindgen(js_name = agedOutputs)]
pub fn aged_outputs(turn_ages: &[f64]) -> Vec<f64> {
    runner::aged(turn_ages)
}

/// `[pending, long, currentObservation, keptOutput?]` over `[status, output]`.
#[wasm_bindgen(js_name = observationText)]
pub fn observation_text(window: &str, start: usize, output_len: usize) -> String {
    let mut f = Frame::new();
    runner::observation(&mut f, &probe(window, start), output_len);
    f.into_string()
}

/// The prompt over `[goal, map, recentPast, content0…, toolName0, shown0, …]`; `turns` as
/// [`turn_metas`] reads them.
#[wasm_bindgen(js_name = promptText)]
pub fn prompt_text(slots: bool, turns: &[f64], roles: &str, tool_outputs: usize) -> Out<String> {
    let metas = turn_metas(turns, roles)?;
    let mut f = Frame::new();
    f.text(|p| render(p, slots, &metas, tool_outputs));
    Ok(f.into_string())
}

/// The window's turns as the prompt reads them, from `turns`, each turn's `turnIndex` and
/// its role's UTF-16 length, one after the other (one array crosses, not two), over the
/// roles joined: each role checked, named by its place.
pub(crate) fn turn_metas(turns: &[f64], roles: &str) -> Out<Vec<TurnMeta<'static>>> {
    let role_lens: Vec<u32> = turns.iter().skip(1).step_by(2).map(|&n| n as u32).collect();
    let turn_indexes = turns.iter().step_by(2);
    split_texts(roles, &role_lens)
        .iter()
        .zip(turn_indexes)
        .enumerate()
        .map(|(i, (r, &turn_index))| {
            // The field is named only for a bad role: a name made per turn per prompt is most of the work.
            let role = match Role::parse(r) {
                Some(role) => role,
                None => report(Role::checked(
                    &format!("composer.compose().turns[{i}].role"),
                    r,
                ))?,
            };
            Ok(TurnMeta {
                turn_index,
                role: role.name(),
            })
        })
        .collect()
}

/// After a pruning the history restarts from the context's turns: 1 where a turn becomes
/// an `assistant` turn (it was the model's), 0 for `user`.
#[wasm_bindgen(js_name = historyRoles)]
pub fn history_roles(roles: &str, lens: &[u32]) -> Vec<u8> {
    split_texts(roles, lens)
        .iter()
        .map(|r| u8::from(*r == "model"))
        .collect()
}
