//! Seed 003: token counting and the threshold monitor.

use devs_context_rules::base::args::non_negative;
use devs_context_rules::base::tokens::approx_tokens;
use devs_context_rules::seeds::monitor::{DEFAULT_THRESHOLD_TOKENS, ThresholdMonitor};
use wasm_bindgen::prelude::*;

use crate::{Out, report};

/// `Math.ceil(length / 4)`.
#[wasm_bindgen(js_name = approxTokens)]
pub fn approx(length: usize) -> usize {
    approx_tokens(length)
}

/// The approximate tokens of texts of these lengths, each.
#[wasm_bindgen(js_name = approxEach)]
pub fn approx_each(mut lengths: Vec<f64>) -> Vec<f64> {
    for n in lengths.iter_mut() {
        *n = approx_tokens(*n as usize) as f64;
    }
    lengths
}

/// A host counter's answer, checked: a finite number >= 0.
#[wasm_bindgen(js_name = checkedCount)]
pub fn checked_count(count: f64) -> Out<f64> {
    report(non_negative("countTokens()", count))
}

/// A host counter's answers, each checked, in total.
#[wasm_bindgen(js_name = checkedTotal)]
pub fn checked_total(counts: &[f64]) -> Out<f64> {
    counts.iter().map(|&n| checked_count(n)).sum()
}

#[wasm_bindgen]
pub struct Monitor(ThresholdMonitor);

#[wasm_bindgen]
impl Monitor {
    #[wasm_bindgen(constructor)]
    pub fn new(field: &str, threshold: Option<f64>) -> Out<Monitor> {
        let threshold = match threshold {
            None => DEFAULT_THRESHOLD_TOKENS,
            Some(n) => report(ThresholdMonitor::checked_threshold(field, n))?,
        };
        Ok(Monitor(ThresholdMonitor::new(threshold)))
    }

    #[wasm_bindgen(getter)]
    pub fn threshold(&self) -> f64 {
        self.0.threshold()
    }

    #[wasm_bindgen(getter)]
    pub fn accumulated(&self) -> f64 {
        self.0.accumulated()
    }

    /// The total that crossed the threshold (the monitor has reset), or -1.
    pub fn record(&mut self, tokens: f64) -> Out<f64> {
        Ok(report(self.0.record(tokens))?.map_or(-1.0, |c| c.total_tokens))
    }

    /// Puts back the tokens of a crossing whose callback failed.
    pub fn rollback(&mut self, total: f64) {
        self.0
            .rollback(devs_context_rules::seeds::monitor::Crossing {
                total_tokens: total,
            });
    }

    pub fn reset(&mut self) {
        self.0.reset();
    }
}

/// A provider's reported input tokens, checked: a finite number >= 0.
#[wasm_bindgen(js_name = checkInputTokens)]
pub fn check_input_tokens(count: f64) -> Out<f64> {
    report(non_negative("llm.complete().usage.inputTokens", count))
}
