//! Seed 003: the token threshold monitor ([4_USER_FEATURES-REQ-083]).
//!
//! `record` adds and, on reaching the threshold, resets *before* the host's callback is
//! awaited, all in one synchronous step. Un-awaited concurrent records therefore neither
//! fire twice for one crossing nor lose tokens: those recorded while the callback runs
//! belong to the next window.

use super::args::{FieldError, non_negative, whole_number};

pub const DEFAULT_THRESHOLD_TOKENS: f64 = 800_000.0;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Crossing {
    /// The accumulated total that reached the threshold.
    pub total_tokens: f64,
}

#[derive(Debug, Clone)]
pub struct ThresholdMonitor {
    threshold: f64,
    accumulated: f64,
}

impl ThresholdMonitor {
    pub fn new(threshold: f64) -> Self {
        Self {
            threshold,
            accumulated: 0.0,
        }
    }

    pub fn checked_threshold(field: &str, value: f64) -> Result<f64, FieldError> {
        whole_number(field, value, 1).map(|n| n as f64)
    }

    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    pub fn accumulated(&self) -> f64 {
        self.accumulated
    }

    /// Adds `tokens`; returns the crossing when the threshold is reached (and resets).
    pub fn record(&mut self, tokens: f64) -> Result<Option<Crossing>, FieldError> {
        let tokens = non_negative("tokens", tokens)?;
        self.accumulated += tokens;
        if self.accumulated < self.threshold {
            return Ok(None);
        }
        let crossing = Crossing {
            total_tokens: self.accumulated,
        };
        self.reset();
        Ok(Some(crossing))
    }

    /// Puts back the tokens of a crossing whose callback failed, so none are lost and the
    /// next record fires again.
    pub fn rollback(&mut self, crossing: Crossing) {
        self.accumulated += crossing.total_tokens;
    }

    pub fn reset(&mut self) {
        self.accumulated = 0.0;
    }

    /// Puts the total back to a value read earlier, for a caller that undoes a whole step
    /// and knows no other record happened in between.
    pub fn restore(&mut self, accumulated: f64) {
        self.accumulated = accumulated;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_once_per_crossing_and_restarts_from_zero() {
        let mut m = ThresholdMonitor::new(1000.0);
        let fired = (0..100)
            .filter(|_| m.record(100.0).unwrap().is_some())
            .count();
        assert_eq!(fired, 10);
        assert_eq!(m.accumulated(), 0.0);
    }

    #[test]
    fn reports_the_total_that_crossed() {
        let mut m = ThresholdMonitor::new(800_000.0);
        assert_eq!(m.record(799_999.0).unwrap(), None);
        assert_eq!(
            m.record(5.0).unwrap(),
            Some(Crossing {
                total_tokens: 800_004.0
            })
        );
        assert_eq!(m.record(10.0).unwrap(), None);
        assert_eq!(m.accumulated(), 10.0);
    }

    #[test]
    fn rollback_keeps_every_token() {
        let mut m = ThresholdMonitor::new(100.0);
        let crossing = m.record(120.0).unwrap().unwrap();
        m.record(30.0).unwrap();
        m.rollback(crossing);
        assert_eq!(m.accumulated(), 150.0);
    }

    #[test]
    fn rejects_negative_nan_and_infinite_tokens_without_changing_state() {
        let mut m = ThresholdMonitor::new(100.0);
        m.record(10.0).unwrap();
        for bad in [-1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(m.record(bad).unwrap_err().field, "tokens");
        }
        assert_eq!(m.accumulated(), 10.0);
    }
}
