//! Seed 000: the every-N-turns refresh of the TAS and PRD summaries ([3_MCP-TAS-089]).
//!
//! The counter decides and resets *before* the summary provider is awaited. The seed's
//! TypeScript resets after the await, so turns that arrive while a refresh is in flight
//! would each start another refresh; deciding up front keeps un-awaited concurrent turns
//! counting exactly (20 turns at threshold 5 give 4 refreshes).

use crate::base::args::whole_number;
use crate::base::frame::Pieces;
use devs_context_errors::FieldError;

pub const DEFAULT_THRESHOLD: u32 = 5;

/// What one turn did to the counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tick {
    /// Below the threshold: no refresh.
    Quiet,
    /// The threshold was reached and the counter reset; the refresh must now be fetched.
    /// Hand the ticket back to [`RefreshCounter::rollback`] if fetching fails.
    Refresh(Ticket),
}

/// Identifies one refresh in flight, so a failed one can be undone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ticket {
    pub node: u64,
}

/// The whole counter as it was, for a caller that undoes a step it began.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snapshot {
    pub turns_in_current_node: u32,
    pub node: u64,
}

#[derive(Debug, Clone)]
pub struct RefreshCounter {
    threshold: u32,
    turns_in_current_node: u32,
    /// Bumped by `reset_node`, so a rollback never leaks turns into a new node.
    node: u64,
}

impl RefreshCounter {
    pub fn new(threshold: u32) -> Self {
        Self {
            threshold,
            turns_in_current_node: 0,
            node: 0,
        }
    }

    /// Checks a host-supplied threshold: a whole number of at least 1.
    pub fn checked_threshold(field: &str, value: f64) -> Result<u32, FieldError> {
        let n = whole_number(field, value, 1)?;
        u32::try_from(n).map_err(|_| {
            FieldError::range_error(field, format!("must be at most {}, got {n}", u32::MAX))
        })
    }

    pub fn threshold(&self) -> u32 {
        self.threshold
    }

    pub fn turns_in_current_node(&self) -> u32 {
        self.turns_in_current_node
    }

    /// Counts turn `turn_index` (a whole number >= 0, otherwise unused).
    pub fn on_turn_checked(&mut self, turn_index: f64) -> Result<Tick, FieldError> {
        whole_number("turnIndex", turn_index, 0)?;
        Ok(self.on_turn())
    }

    pub fn on_turn(&mut self) -> Tick {
        self.turns_in_current_node += 1;
        if self.turns_in_current_node < self.threshold {
            return Tick::Quiet;
        }
        self.turns_in_current_node = 0;
        Tick::Refresh(Ticket { node: self.node })
    }

    /// Undoes the turn that produced `ticket`, after its summary could not be fetched:
    /// the counter goes back to one short of the threshold, plus any turns counted since,
    /// so the very next turn retries the refresh. Nothing happens if the node changed.
    pub fn rollback(&mut self, ticket: Ticket) {
        if ticket.node == self.node {
            self.turns_in_current_node += self.threshold - 1;
        }
    }

    pub fn reset_node(&mut self) {
        self.turns_in_current_node = 0;
        self.node += 1;
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            turns_in_current_node: self.turns_in_current_node,
            node: self.node,
        }
    }

    pub fn restore(&mut self, snapshot: Snapshot) {
        self.turns_in_current_node = snapshot.turns_in_current_node;
        self.node = snapshot.node;
    }
}

/// Host texts of [`injected_summary`].
pub const TAS_SUMMARY: usize = 0;
pub const PRD_SUMMARY: usize = 1;

/// The refresh text, with both sections labelled so agents can parse them:
/// `[CONTEXT REFRESH]\n## TAS Summary\n{tas}\n\n## PRD Summary\n{prd}`.
pub fn injected_summary(p: &mut Pieces<'_>) {
    p.lit("[CONTEXT REFRESH]\n## TAS Summary\n")
        .host(TAS_SUMMARY)
        .lit("\n\n## PRD Summary\n")
        .host(PRD_SUMMARY);
}

/// Host texts of [`prepended_reasoning`].
pub const INJECTED: usize = 0;
pub const REASONING: usize = 1;

/// `OrchestratorContextInjector`'s new `thought.reasoning`: `{injected}\n\n{reasoning}`.
pub fn prepended_reasoning(p: &mut Pieces<'_>) {
    p.host(INJECTED).lit("\n\n").host(REASONING);
}

#[cfg(test)]
#[path = "tests/refresher.rs"]
mod tests;
