//! `applyContextManagement`'s machine.

use devs_context_rules::args::non_negative;
use devs_context_rules::frame::Frame;
use devs_context_rules::management::{Need, Run, persist_warning};
use devs_context_rules::pruner::{AgentRole, Kept};
use wasm_bindgen::prelude::*;

use crate::{Out, frame, report};
use devs_context_rules::text::split_texts;

#[wasm_bindgen]
pub struct Management(Run);

/// `[code, a, b, c]`: see `pkg/src/management.ts` for the codes.
fn need(n: Need) -> Vec<f64> {
    match n {
        Need::Compose => vec![0.0],
        Need::ShouldPrune { tokens } => vec![1.0, tokens],
        Need::Prune => vec![2.0],
        Need::KeepSummary => vec![3.0],
        Need::Roles => vec![4.0],
        Need::Keep(Kept::Newest { start }) => vec![5.0, start as f64],
        Need::Keep(Kept::Cut { first, share }) => vec![6.0, first as f64, share as f64],
        Need::ShouldTruncate { output } => vec![7.0, output as f64],
        Need::Persist { output } => vec![8.0, output as f64],
        Need::WarnPersistFailed { output } => vec![9.0, output as f64],
        Need::Truncate { output } => vec![10.0, output as f64],
        Need::Recount { turns_changed } => vec![11.0, f64::from(u8::from(turns_changed))],
        Need::Done {
            used_tokens,
            pruned,
            truncated,
        } => {
            vec![
                12.0,
                used_tokens,
                f64::from(u8::from(pruned)),
                truncated as f64,
            ]
        }
    }
}

#[wasm_bindgen]
impl Management {
    /// `done_outputs[i]` is 1 when pending output `i` is already truncated.
    #[wasm_bindgen(constructor)]
    pub fn new(
        total_budget: f64,
        ratio: f64,
        turn_tokens: Vec<f64>,
        already_pruned: bool,
        done_outputs: &[u8],
    ) -> Out<Management> {
        let total = report(non_negative("context.budget.totalBudget", total_budget))?;
        let done = done_outputs.iter().map(|&d| d == 1).collect();
        Ok(Management(Run::new(
            total,
            ratio,
            turn_tokens,
            already_pruned,
            done,
        )))
    }

    pub fn start(&self) -> Vec<f64> {
        need(self.0.start())
    }

    pub fn composed(&mut self, total_tokens_used: f64) -> Vec<f64> {
        need(self.0.composed(total_tokens_used))
    }

    pub fn should_prune(&mut self, yes: bool) -> Vec<f64> {
        need(self.0.should_prune(yes))
    }

    pub fn pruned(&mut self, summary_tokens: f64) -> Vec<f64> {
        need(self.0.pruned(summary_tokens))
    }

    pub fn roles(&mut self, roles: &str, lens: &[u32]) -> Out<Vec<f64>> {
        let roles = report(AgentRole::all_checked(
            "context.turns",
            &split_texts(roles, lens),
        ))?;
        Ok(need(self.0.roles(&roles)))
    }

    pub fn kept(&mut self) -> Vec<f64> {
        need(self.0.kept())
    }

    pub fn should_truncate(&mut self, yes: bool) -> Vec<f64> {
        need(self.0.should_truncate(yes))
    }

    /// `due[i]` is 1 when output `i` is due.
    pub fn should_truncate_all(&mut self, due: &[u8]) -> Vec<f64> {
        let due: Vec<bool> = due.iter().map(|&d| d == 1).collect();
        need(self.0.should_truncate_all(&due))
    }

    pub fn persisted(&mut self, ok: bool) -> Vec<f64> {
        need(self.0.persisted(ok))
    }

    pub fn warned(&mut self) -> Vec<f64> {
        need(self.0.warned())
    }

    pub fn truncated(&mut self) -> Vec<f64> {
        need(self.0.truncated())
    }

    pub fn recounted(&mut self, turn_tokens: f64, output_tokens: f64) -> Vec<f64> {
        need(self.0.recounted(turn_tokens, output_tokens))
    }

    pub fn loop_guard_warning(&self) -> String {
        let mut f = Frame::new();
        f.text(|p| self.0.loop_guard_warning(p));
        f.into_string()
    }
}

/// The failed-persist warning over `[toolName?, errorText]`.
#[wasm_bindgen(js_name = persistWarning)]
pub fn persist_warning_text(has_tool_name: bool) -> String {
    frame(|f| {
        f.text(|p| persist_warning(p, has_tool_name));
    })
}
