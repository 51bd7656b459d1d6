//! The summarization handoff: a window of turns becomes one medium-term summary, which
//! the runner re-injects as a `[CONTEXT REFRESH]` turn ([4_USER_FEATURES-REQ-083]).

use crate::base::args::show_number;
use crate::base::frame::{Frame, Pieces};
use crate::base::text::{Probe, cut_end};
use devs_context_errors::FieldError;

/// Each turn's content is cut to this many UTF-16 units in the prompt.
pub const MAX_TURN_CHARS: usize = 1500;
pub const CONTEXT_REFRESH_PREFIX: &str = "[CONTEXT REFRESH]";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
    Tool,
}

impl Role {
    pub const NAMES: [&'static str; 3] = ["user", "assistant", "tool"];

    pub fn parse(name: &str) -> Option<Role> {
        match name {
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            "tool" => Some(Role::Tool),
            _ => None,
        }
    }

    /// `field`'s role, or a `TypeError` naming it.
    pub fn checked(field: &str, name: &str) -> Result<Role, FieldError> {
        Role::parse(name).ok_or_else(|| {
            FieldError::type_error(
                field,
                format!("must be 'user', 'assistant' or 'tool', got {name:?}"),
            )
        })
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Host text of the agent id in [`prompt`]; turn `i`'s content is text `1 + i`.
pub const AGENT_ID: usize = 0;

pub fn turn_text(turn: usize) -> usize {
    1 + turn
}

/// The summarizer prompt for `turns` (each with its `turnIndex`, role and a probe of at
/// least `MAX_TURN_CHARS + 1` units of its content), written to `frame` as: a flag, 1 when
/// the LLM is to be called; then, when it is, the first and last `turnIndex` covered and
/// the prompt. Nothing is to be summarized when no turn is left once `tool` turns are
/// left out: then the LLM is not called at all.
pub fn prompt(
    frame: &mut Frame,
    turn_indexes: &[f64],
    roles: &[&str],
    probes: &[Probe],
) -> Result<(), FieldError> {
    let roles: Vec<Role> = roles
        .iter()
        .enumerate()
        .map(|(i, r)| Role::checked(&format!("turns[{i}].role"), r))
        .collect::<Result<_, _>>()?;
    let kept: Vec<usize> = (0..roles.len())
        .filter(|&i| roles[i] != Role::Tool)
        .collect();
    frame.flag(!kept.is_empty());
    if kept.is_empty() {
        return Ok(());
    }
    let (start, end) = turn_range(turn_indexes).unwrap_or((0.0, 0.0));
    frame.num(start).num(end);
    frame.text(|p| {
        p.lit("Summarize the conversation of agent ")
            .host(AGENT_ID)
            .lit(
                " below into a medium-term memory it can continue from. Keep the decisions \
                 made, the files touched, the errors seen, the current plan and the open \
                 questions. Tool output is omitted.\n",
            );
        for &i in &kept {
            p.lit(&format!(
                "\n[turn {}] {}:\n",
                show_number(turn_indexes[i]),
                roles[i].name()
            ));
            p.host_range(turn_text(i), 0, cut_end(&probes[i], MAX_TURN_CHARS, false));
            p.lit("\n");
        }
    });
    Ok(())
}

/// First and last `turnIndex` the summary covers.
pub fn turn_range(turn_indexes: &[f64]) -> Option<(f64, f64)> {
    turn_indexes.iter().fold(None, |range, &i| match range {
        None => Some((i, i)),
        Some((lo, hi)) => Some((lo.min(i), hi.max(i))),
    })
}

/// The synthetic turn the runner appends after a handoff: `[CONTEXT REFRESH]\n` and the
/// summary (host text 0).
pub fn context_refresh(p: &mut Pieces<'_>) {
    p.lit(CONTEXT_REFRESH_PREFIX).lit("\n").host(0);
}

#[cfg(test)]
#[path = "tests/handoff.rs"]
mod tests;
