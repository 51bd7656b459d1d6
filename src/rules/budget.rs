//! The token budget of a composed window ([3_MCP-TAS-047]): Goal, Map, Recent Past.

use super::args::{FieldError, whole_number};

pub const DEFAULT_TOTAL_BUDGET: u64 = 800_000;

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
mod tests {
    use super::*;

    #[test]
    fn splits_30_20_50_rounding_down() {
        let b = WindowBudget::split(800_000);
        assert_eq!(
            (b.total, b.goal, b.map, b.recent_past),
            (800_000.0, 240_000.0, 160_000.0, 400_000.0)
        );
        let odd = WindowBudget::split(7);
        assert_eq!((odd.goal, odd.map, odd.recent_past), (2.0, 1.0, 3.0));
    }

    #[test]
    fn totals_are_checked() {
        assert!(WindowBudget::checked_total("total", 0.0).is_err());
        assert!(WindowBudget::checked_total("total", 10.5).is_err());
        assert_eq!(WindowBudget::checked_total("total", 100.0), Ok(100));
    }
}
