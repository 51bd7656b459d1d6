//! `WindowComposer` and the budget.

use devs_context_rules::base::text::cut_end;
use devs_context_rules::base::tokens::approx_tokens;
use devs_context_rules::seeds::budget::WindowBudget;
use devs_context_rules::seeds::ops::ComposerOp;
use devs_context_rules::seeds::window_composer::{
    Candidate, ComposerConfig, envelopes_to_render, select_recent,
};
use wasm_bindgen::prelude::*;

use crate::{Out, probe, report};

/// `createDefaultWindowBudget(total)`: `[total, goal, map, recentPast]`.
#[wasm_bindgen(js_name = budgetSplit)]
pub fn budget_split(total: Option<f64>) -> Out<Vec<f64>> {
    Ok(report(WindowBudget::default_split(total))?
        .shares()
        .to_vec())
}

/// A budget's shares `[total, goal, map, recentPast]`, checked under `field`.
#[wasm_bindgen(js_name = checkBudget)]
pub fn check_budget(field: &str, shares: &[f64]) -> Out<()> {
    report(WindowBudget::from_shares(field, shares)).map(drop)
}

/// Where to cut a text, from its probe (units `start..`), to fit `max` UTF-16 units; -1 if it fits.
#[wasm_bindgen(js_name = cutEnd)]
pub fn cut_end_of(window: &str, start: usize, max: usize, at_space: bool) -> f64 {
    cut_end(&probe(window, start), max, at_space).map_or(-1.0, |e| e as f64)
}

#[wasm_bindgen]
pub struct Composer(ComposerConfig);

/// A host counter's tokens, or (`approx`, the default counter) a text's length, counted
/// here so that it crosses with the call that reads it.
fn tokens(count: f64, approx: bool) -> f64 {
    if approx {
        approx_tokens(count as usize) as f64
    } else {
        count
    }
}

#[wasm_bindgen]
impl Composer {
    #[wasm_bindgen(constructor)]
    pub fn new(shares: &[f64], max_recent: Option<f64>) -> Out<Composer> {
        Ok(Composer(report(ComposerConfig::new(shares, max_recent))?))
    }

    #[wasm_bindgen(getter)]
    pub fn shares(&self) -> Vec<f64> {
        self.0.budget.shares().to_vec()
    }

    /// A call of `ComposerOp`'s, one crossing whatever it is. A count is a host counter's
    /// tokens, or (`approx` 1, the default counter) a text's length, counted here so that
    /// it crosses with the call that reads it ([`tokens`]).
    pub fn op(&self, op: u8, a: f64, b: f64, c: f64) -> Out<f64> {
        let k = &self.0;
        Ok(match crate::op("Composer", ComposerOp::from_code(op))? {
            ComposerOp::MaxRecent => k.max_recent as f64,
            ComposerOp::SlotCut => {
                let tokens = tokens(b, c == 1.0);
                k.slot_cut(a as usize, tokens)
                    .map_or(tokens, |n| -1.0 - n as f64)
            }
            ComposerOp::OutputRoom => k.output_room(a) as f64,
            ComposerOp::Totals => {
                let (total, exceeded) = k.totals(&[a, b, c]);
                if exceeded { -1.0 - total } else { total }
            }
        })
    }

    /// `[1, i…]`: the envelopes to render, newest first; `[0, i]`: envelope `i` is invalid.
    pub fn to_render(&self, turn_indexes: &[f64]) -> Vec<f64> {
        match envelopes_to_render(turn_indexes, self.0.max_recent) {
            Ok(order) => std::iter::once(1.0)
                .chain(order.iter().map(|&i| i as f64))
                .collect(),
            Err(bad) => vec![0.0, bad as f64],
        }
    }

    /// `[truncated, cutNewest or -1, taken…]` over the rendered candidates, of `counts`
    /// ([`tokens`]) each.
    pub fn select(&self, turn_indexes: &[f64], counts: &[f64], approx: bool) -> Vec<f64> {
        let candidates: Vec<Candidate> = turn_indexes
            .iter()
            .zip(counts)
            .map(|(&turn_index, &count)| Candidate {
                turn_index,
                tokens: tokens(count, approx),
            })
            .collect();
        let s = select_recent(&candidates, self.0.max_recent, self.0.budget.recent_past);
        let mut out = vec![
            f64::from(u8::from(s.truncated)),
            s.cut_newest.map_or(-1.0, |i| i as f64),
        ];
        out.extend(s.taken.iter().map(|&i| i as f64));
        out
    }
}
