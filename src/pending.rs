//! The runner's index of its pending tool outputs (`devs_context_rules::seeds::pending`),
//! and the prompt written over it.

use devs_context_rules::base::frame::Frame;
use devs_context_rules::base::tokens::approx_tokens;
use devs_context_rules::seeds::ops::PendingOp;
use devs_context_rules::seeds::pending::Pending;
use devs_context_rules::seeds::prompt::{render_kept, render_tool};
use devs_context_rules::seeds::tool_output::check_entry;
use wasm_bindgen::prelude::*;

use crate::Out;
use crate::runner::turn_metas;

#[wasm_bindgen]
pub struct PendingIndex(pub(crate) Pending);

/// `tokens`, or with the default counter (`tokens` NaN) those of a text of `units` UTF-16 units.
fn tokens_of(units: usize, tokens: f64) -> f64 {
    if tokens.is_nan() {
        approx_tokens(units) as f64
    } else {
        tokens
    }
}

#[wasm_bindgen]
impl PendingIndex {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> PendingIndex {
        PendingIndex(Pending::new())
    }

    /// A call of `PendingOp`'s, one crossing whatever it is. A whole output is `units`
    /// UTF-16 units shown and `tokens` (NaN for the default counter); it is pushed with the
    /// tick it was born at, or, when its numbers are not a `ToolOutputEntry`'s
    /// (`capturedAt` as epoch milliseconds), not at all, and NaN comes back.
    pub fn op(&mut self, op: u8, a: f64, b: f64, c: f64, d: f64, e: f64) -> Out<f64> {
        let p = &mut self.0;
        Ok(match crate::op("PendingIndex", PendingOp::from_code(op))? {
            PendingOp::Clear => {
                p.clear();
                0.0
            }
            PendingOp::Tick => {
                p.tick();
                0.0
            }
            PendingOp::Untick => {
                p.untick();
                0.0
            }
            PendingOp::PushWhole => {
                if check_entry("entry", a, d, e).is_err() {
                    return Ok(f64::NAN);
                }
                p.push_whole(a, tokens_of(b as usize, c), d)
            }
            PendingOp::PushTruncated => {
                p.push_truncated(tokens_of(a as usize, b));
                0.0
            }
            PendingOp::Truncated => {
                p.truncated(a as usize, tokens_of(b as usize, c));
                0.0
            }
        })
    }

    /// The prompt over the kept Tool outputs text (`turns` as `runner::turn_metas` reads
    /// them): `[from, count]`, then a text per output
    /// `from..count` over `[toolName, shown]` (the shell appends each to the text it keeps,
    /// started anew when `from` is 0), then the prompt over `[goal, map, recentPast, kept,
    /// content0…]`. Every output counts as shown from then on.
    pub fn prompt(&mut self, slots: bool, turns: &[f64], roles: &str) -> Out<String> {
        let metas = turn_metas(turns, roles)?;
        let (from, count) = (self.0.tools_from(), self.0.len());
        let mut f = Frame::new();
        f.num(from as f64).num(count as f64);
        for _ in from..count {
            f.text(|p| render_tool(p, 0, 1));
        }
        f.text(|p| render_kept(p, slots, &metas, count > 0));
        self.0.shown_all();
        Ok(f.into_string())
    }
}
