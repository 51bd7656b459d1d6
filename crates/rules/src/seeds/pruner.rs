//! `ContextPruner` ([3_MCP-TAS-024]): at 90% of the budget the turns are summarized, with
//! the Plan, the TAS and the failing Observation kept verbatim.

use crate::base::args::{non_negative, show_number};
use crate::base::frame::Pieces;
use devs_context_errors::FieldError;

pub const DEFAULT_SATURATION_RATIO: f64 = 0.90;

/// A `saturationRatio` as a host gave it (`None`: the default).
pub fn checked_ratio(field: &str, value: Option<f64>) -> Result<f64, FieldError> {
    match value {
        None => Ok(DEFAULT_SATURATION_RATIO),
        Some(r) if r.is_finite() && r > 0.0 && r <= 1.0 => Ok(r),
        Some(r) => Err(FieldError::range_error(
            field,
            format!("must be in (0, 1], got {}", show_number(r)),
        )),
    }
}

/// The token count at which pruning starts.
pub fn saturation_point(total_budget: f64, ratio: f64) -> f64 {
    total_budget * ratio
}

pub fn should_prune(tokens: f64, total_budget: f64, ratio: f64) -> bool {
    tokens >= saturation_point(total_budget, ratio)
}

/// `shouldPrune(tokens, budget)` on a host's numbers.
pub fn should_prune_checked(
    tokens: f64,
    total_budget: f64,
    ratio: f64,
) -> Result<bool, FieldError> {
    let tokens = non_negative("tokens", tokens)?;
    let total = non_negative("budget.totalBudget", total_budget)?;
    Ok(should_prune(tokens, total, ratio))
}

/// The role of an `AgentTurn`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentRole {
    User,
    Model,
}

impl AgentRole {
    pub const NAMES: [&'static str; 2] = ["user", "model"];

    pub fn checked(field: &str, name: &str) -> Result<AgentRole, FieldError> {
        match name {
            "user" => Ok(AgentRole::User),
            "model" => Ok(AgentRole::Model),
            other => Err(FieldError::type_error(
                field,
                format!("must be 'user' or 'model', got {other:?}"),
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            AgentRole::User => "user",
            AgentRole::Model => "model",
        }
    }

    pub fn all_checked(field: &str, names: &[&str]) -> Result<Vec<AgentRole>, FieldError> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| AgentRole::checked(&format!("{field}[{i}].role"), n))
            .collect()
    }
}

/// Host texts of [`prune_prompt`]; turn `i`'s content is text `FIRST_TURN + i`.
pub const PLAN: usize = 0;
pub const TAS: usize = 1;
pub const OBSERVATION: usize = 2;
pub const FIRST_TURN: usize = 3;

/// The summarizer prompt. The three sections to keep are given in full and named twice:
/// in the instruction and in their headings.
pub fn prune_prompt(p: &mut Pieces<'_>, roles: &[AgentRole]) {
    p.lit(
        "You are compressing the context of a coding agent that is running out of room.\n\
         Summarize the conversation turns below into a short account of what was tried, what \
         was learned and what remains to do.\n\
         Keep these three sections VERBATIM, character for character, at the top of your \
         summary: the Plan, the TAS, and the current failing Observation. Do not shorten, \
         paraphrase or reorder them.\n\n",
    );
    for (heading, text) in [
        ("Plan", PLAN),
        ("TAS", TAS),
        ("Current failing Observation", OBSERVATION),
    ] {
        p.lit(&format!("## {heading} (keep verbatim)\n"))
            .host(text)
            .lit("\n\n");
    }
    p.lit("## Turns to summarize\n");
    for (i, role) in roles.iter().enumerate() {
        p.lit(&format!("\n[{}]\n", role.name()))
            .host(FIRST_TURN + i)
            .lit("\n");
    }
}

/// The loop guard's deterministic cut: the first turn to keep so that the newest turns
/// stay under `limit` tokens. A `user` turn right after a `model` turn is a tool result
/// answering that call, so the cut never falls between them.
/// Returns `turns.len()` when not even the newest turn (or pair) fits whole.
pub fn fallback_start(turns: &[(AgentRole, f64)], limit: f64) -> usize {
    let n = turns.len();
    let mut used = 0.0;
    let mut start = n;
    while start > 0 && used + turns[start - 1].1 < limit {
        used += turns[start - 1].1;
        start -= 1;
    }
    if start > 0 && start < n && splits_pair(turns, start) {
        start += 1;
    }
    start
}

/// True when keeping `turns[start..]` would keep a tool result without its call.
pub fn splits_pair(turns: &[(AgentRole, f64)], start: usize) -> bool {
    start > 0 && turns[start].0 == AgentRole::User && turns[start - 1].0 == AgentRole::Model
}

/// What the loop guard keeps when the summary is too large to end the pruning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// `turns[start..]`, whole.
    Newest { start: usize },
    /// Not even the newest turn fits whole: `turns[first..]`, each cut to `share` UTF-16
    /// units at a space (the newest turn, or the newest call/result pair).
    Cut { first: usize, share: usize },
}

pub fn loop_guard_cut(turns: &[(AgentRole, f64)], limit: f64) -> Kept {
    let n = turns.len();
    let start = fallback_start(turns, limit);
    if start < n {
        return Kept::Newest { start };
    }
    let first = if n >= 2 && splits_pair(turns, n - 1) {
        n - 2
    } else {
        n.saturating_sub(1)
    };
    let share = (((limit - 1.0).max(0.0) * 4.0) as usize) / (n - first).max(1);
    Kept::Cut { first, share }
}

#[cfg(test)]
#[path = "tests/pruner.rs"]
mod tests;
