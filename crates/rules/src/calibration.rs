//! Calibration to the provider's count: when a response reports the input tokens the
//! provider counted, the runner learns how they relate to its own count of the same
//! prompt, `provider = overhead + ratio × ours`, and bounds and reports prompts by that.
//! One number triggers the steps and is shown to the host, and it is close to the
//! provider's (its tokenizer may not be public, and it adds its own framing).

use std::collections::VecDeque;

use super::args::{FieldError, non_negative};

/// Observations kept: the fit follows a provider that changes (a new model, a new system prompt).
pub const SAMPLES: usize = 64;
/// The fitted ratio stays in this range: a wild report cannot make the bound meaningless.
pub const MIN_RATIO: f64 = 0.5;
pub const MAX_RATIO: f64 = 2.0;

#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    samples: VecDeque<(f64, f64)>,
    pub overhead: f64,
    pub ratio: f64,
}

impl Default for Calibration {
    fn default() -> Self {
        Calibration {
            samples: VecDeque::new(),
            overhead: 0.0,
            ratio: 1.0,
        }
    }
}

impl Calibration {
    pub fn samples(&self) -> usize {
        self.samples.len()
    }

    /// The provider's count of a prompt we count as `ours`.
    pub fn predict(&self, ours: f64) -> f64 {
        self.overhead + self.ratio * ours
    }

    /// Our tokens that make `provider` of the provider's (for a difference of counts).
    pub fn ours_for(&self, provider: f64) -> f64 {
        provider / self.ratio
    }

    /// Learns from a prompt we counted as `ours` that the provider counted as `reported`
    /// (`usage.inputTokens`).
    pub fn observe(&mut self, ours: f64, reported: f64) -> Result<(), FieldError> {
        let reported = non_negative("usage.inputTokens", reported)?;
        if ours <= 0.0 {
            return Ok(());
        }
        if self.samples.len() == SAMPLES {
            self.samples.pop_front();
        }
        self.samples.push_back((ours, reported));
        self.fit();
        Ok(())
    }

    fn fit(&mut self) {
        let n = self.samples.len() as f64;
        let (sx, sy) = self
            .samples
            .iter()
            .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
        let (mx, my) = (sx / n, sy / n);
        let sxx: f64 = self.samples.iter().map(|&(x, _)| (x - mx) * (x - mx)).sum();
        let sxy: f64 = self.samples.iter().map(|&(x, y)| (x - mx) * (y - my)).sum();
        let (mut ratio, mut overhead) = if sxx > 0.0 {
            let slope = sxy / sxx;
            (slope, my - slope * mx)
        } else {
            (my / mx, 0.0)
        };
        if overhead < 0.0 || !(MIN_RATIO..=MAX_RATIO).contains(&ratio) {
            // Through the origin instead: the provider never counts less than nothing.
            let sxy0: f64 = self.samples.iter().map(|&(x, y)| x * y).sum();
            let sxx0: f64 = self.samples.iter().map(|&(x, _)| x * x).sum();
            ratio = sxy0 / sxx0;
            overhead = 0.0;
        }
        self.ratio = ratio.clamp(MIN_RATIO, MAX_RATIO);
        self.overhead = overhead.max(0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_a_fixed_overhead_and_a_ratio() {
        let mut c = Calibration::default();
        assert_eq!(c.predict(1000.0), 1000.0);
        for ours in [1000.0, 5000.0, 20000.0, 80000.0] {
            c.observe(ours, 350.0 + 1.2 * ours).unwrap();
        }
        assert!((c.ratio - 1.2).abs() < 1e-9, "{}", c.ratio);
        assert!((c.overhead - 350.0).abs() < 1e-6, "{}", c.overhead);
        assert_eq!(c.predict(10_000.0).round(), 12_350.0);
        assert_eq!(c.samples(), 4);
    }

    #[test]
    fn one_observation_gives_a_ratio() {
        let mut c = Calibration::default();
        c.observe(1000.0, 1300.0).unwrap();
        assert_eq!((c.ratio, c.overhead), (1.3, 0.0));
    }

    #[test]
    fn wild_reports_are_clamped_and_bad_ones_refused() {
        let mut c = Calibration::default();
        c.observe(1000.0, 100_000.0).unwrap();
        assert_eq!(c.ratio, MAX_RATIO);
        for bad in [-1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(c.observe(10.0, bad).unwrap_err().field, "usage.inputTokens");
        }
        assert_eq!(c.samples(), 1);
    }
}
