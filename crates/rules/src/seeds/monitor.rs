//! Seed 003: the token threshold monitor ([4_USER_FEATURES-REQ-083]).
//!
//! `record` adds and, on reaching the threshold, resets *before* the host's callback is
//! awaited, all in one synchronous step. Un-awaited concurrent records therefore neither
//! fire twice for one crossing nor lose tokens: those recorded while the callback runs
//! belong to the next window.

use crate::base::args::{non_negative, whole_number};
use devs_context_errors::FieldError;

pub const DEFAULT_THRESHOLD_TOKENS: f64 = 800_000.0;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Crossing {
    /// The accumulated total that reached the threshold.
    pub total_tokens: f64,
}

/// The running total is two counts: `fresh`, recorded since the last crossing, and
/// `carried`, the totals of crossings whose callback failed and were put back. Only fresh
/// tokens make a crossing, so a crossing fires once however its callback ends, and a
/// failed refresh is retried at the next crossing, its tokens carried into that one's
/// total. After any interleaving the total is what was recorded less what successful
/// refreshes took.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThresholdMonitor {
    threshold: f64,
    fresh: f64,
    carried: f64,
}

impl ThresholdMonitor {
    pub fn new(threshold: f64) -> Self {
        Self {
            threshold,
            fresh: 0.0,
            carried: 0.0,
        }
    }

    pub fn checked_threshold(field: &str, value: f64) -> Result<f64, FieldError> {
        whole_number(field, value, 1).map(|n| n as f64)
    }

    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    pub fn accumulated(&self) -> f64 {
        self.fresh + self.carried
    }

    /// Adds `tokens`; returns the crossing when the fresh tokens reach the threshold, with
    /// every token not yet refreshed (and resets).
    pub fn record(&mut self, tokens: f64) -> Result<Option<Crossing>, FieldError> {
        let tokens = non_negative("tokens", tokens)?;
        self.fresh += tokens;
        if self.fresh < self.threshold {
            return Ok(None);
        }
        let crossing = Crossing {
            total_tokens: self.accumulated(),
        };
        self.reset();
        Ok(Some(crossing))
    }

    /// Puts back the tokens of a crossing whose callback failed, so none are lost; they
    /// join the next crossing's total.
    pub fn rollback(&mut self, crossing: Crossing) {
        self.carried += crossing.total_tokens;
    }

    pub fn reset(&mut self) {
        self.fresh = 0.0;
        self.carried = 0.0;
    }

    /// The tokens not yet refreshed: `[fresh, carried]`, what `resumed` takes back.
    pub fn counts(&self) -> [f64; 2] {
        [self.fresh, self.carried]
    }

    /// This monitor with the counts a snapshot kept (`counts`), each checked: `field` names them.
    pub fn resumed(self, field: &str, fresh: f64, carried: f64) -> Result<Self, FieldError> {
        let fresh = non_negative(&format!("{field}[1]"), fresh)?;
        let carried = non_negative(&format!("{field}[2]"), carried)?;
        if fresh >= self.threshold {
            return Err(FieldError::range_error(
                format!("{field}[1]"),
                format!(
                    "must be under the threshold, {}, or the crossing would have fired",
                    self.threshold
                ),
            ));
        }
        Ok(Self {
            fresh,
            carried,
            ..self
        })
    }
}

#[cfg(test)]
#[path = "tests/monitor.rs"]
mod tests;
