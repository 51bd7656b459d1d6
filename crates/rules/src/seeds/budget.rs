//! The token budget of a composed window ([3_MCP-TAS-047]): Goal, Map, Recent Past.

use crate::base::args::{non_negative, whole_number};
use devs_context_errors::FieldError;

pub const DEFAULT_TOTAL_BUDGET: u64 = 800_000;

/// A `WindowBudget`'s fields, in the order hosts send their shares.
pub const SHARE_KEYS: [&str; 4] = ["totalBudget", "goalBudget", "mapBudget", "recentPastBudget"];

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WindowBudget {
    pub total: f64,
    pub goal: f64,
    pub map: f64,
    pub recent_past: f64,
}

impl WindowBudget {
    /// 30% goal, 20% map, 50% recent past, each share rounded down. Integer arithmetic,
    /// so no share is ever one short through floating-point error.
    pub fn split(total: u64) -> Self {
        Self {
            total: total as f64,
            goal: (total * 3 / 10) as f64,
            map: (total * 2 / 10) as f64,
            recent_past: (total * 5 / 10) as f64,
        }
    }

    /// The shares a host gave, in the order total, goal, map, recent past; each a finite
    /// number >= 0, named under `field` (e.g. `budget.goalBudget`).
    pub fn from_shares(field: &str, shares: &[f64]) -> Result<Self, FieldError> {
        let mut values = [0.0; 4];
        for (i, key) in SHARE_KEYS.iter().enumerate() {
            let value = shares.get(i).copied().unwrap_or(f64::NAN);
            values[i] = non_negative(&format!("{field}.{key}"), value)?;
        }
        Ok(Self {
            total: values[0],
            goal: values[1],
            map: values[2],
            recent_past: values[3],
        })
    }

    /// `createDefaultWindowBudget(total)`: `None` gives 800,000.
    pub fn default_split(total: Option<f64>) -> Result<Self, FieldError> {
        Ok(Self::split(match total {
            None => DEFAULT_TOTAL_BUDGET,
            Some(n) => Self::checked_total("total", n)?,
        }))
    }

    pub fn shares(&self) -> [f64; 4] {
        [self.total, self.goal, self.map, self.recent_past]
    }

    /// A host's total, checked.
    pub fn checked_total(field: &str, value: f64) -> Result<u64, FieldError> {
        // Ten times the total must still be exact in a u64 and as a JS number.
        let total = whole_number(field, value, 1)?;
        if total > (1 << 49) {
            return Err(FieldError::range_error(
                field,
                format!("must be at most 2^49, got {total}"),
            ));
        }
        Ok(total)
    }
}

#[cfg(test)]
#[path = "tests/budget.rs"]
mod tests;
