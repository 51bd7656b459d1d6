//! The runner's index of its pending tool outputs (`devs_context_rules::seeds::pending`),
//! and the prompt written over it.

use devs_context_rules::base::frame::Frame;
use devs_context_rules::base::tokens::approx_tokens;
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

    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// An age the shell shows is `clock - born`.
    #[wasm_bindgen(getter)]
    pub fn clock(&self) -> f64 {
        self.0.clock()
    }

    pub fn tick(&mut self) {
        self.0.tick();
    }

    pub fn untick(&mut self) {
        self.0.untick();
    }

    /// A whole output (`units` UTF-16 units shown; `tokens` NaN for the default counter);
    /// returns the tick it was born at, or NaN, pushing nothing, when its numbers are not a
    /// `ToolOutputEntry`'s (`capturedAt` as epoch milliseconds).
    pub fn push_whole(
        &mut self,
        byte_size: f64,
        units: usize,
        tokens: f64,
        age: f64,
        captured_at_ms: f64,
    ) -> f64 {
        if check_entry("entry", byte_size, age, captured_at_ms).is_err() {
            return f64::NAN;
        }
        self.0.push_whole(byte_size, tokens_of(units, tokens), age)
    }

    pub fn push_truncated(&mut self, units: usize, tokens: f64) {
        self.0.push_truncated(tokens_of(units, tokens));
    }

    pub fn truncated(&mut self, i: usize, units: usize, tokens: f64) {
        self.0.truncated(i, tokens_of(units, tokens));
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
