//! Seed 003: token counting and the threshold monitor.

use devs_context_rules::base::args::non_negative;
use devs_context_rules::base::tokens::approx_tokens;
use devs_context_rules::seeds::monitor::{Crossing, DEFAULT_THRESHOLD_TOKENS, ThresholdMonitor};
use devs_context_rules::seeds::ops::MonitorOp;
use wasm_bindgen::prelude::*;

use crate::{Out, report};

/// The approximate tokens of texts of these lengths, each.
#[wasm_bindgen(js_name = approxEach)]
pub fn approx_each(mut lengths: Vec<f64>) -> Vec<f64> {
    for n in lengths.iter_mut() {
        *n = approx_tokens(*n as usize) as f64;
    }
    lengths
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

    /// A call of `MonitorOp`'s, one crossing whatever it is.
    pub fn op(&mut self, op: u8, a: f64) -> Out<f64> {
        let m = &mut self.0;
        Ok(match crate::op("Monitor", MonitorOp::from_code(op))? {
            MonitorOp::Threshold => m.threshold(),
            MonitorOp::Accumulated => m.accumulated(),
            MonitorOp::Record => report(m.record(a))?.map_or(-1.0, |c| c.total_tokens),
            MonitorOp::Rollback => {
                m.rollback(Crossing { total_tokens: a });
                0.0
            }
            MonitorOp::Reset => {
                m.reset();
                0.0
            }
        })
    }
}

/// A host counter's answer, checked: a finite number >= 0.
pub(crate) fn checked_count(count: f64) -> Out<f64> {
    report(non_negative("countTokens()", count))
}
