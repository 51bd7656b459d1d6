//! Seed 000: the refresh counter and its texts.

use devs_context_rules::seeds::refresher::{RefreshCounter, Snapshot, Tick};
use wasm_bindgen::prelude::*;

use crate::{Out, report};

#[wasm_bindgen]
pub struct Refresher(RefreshCounter);

#[wasm_bindgen]
impl Refresher {
    /// `threshold`: `undefined` for the default of 5.
    #[wasm_bindgen(constructor)]
    pub fn new(threshold: Option<f64>) -> Out<Refresher> {
        let threshold = match threshold {
            None => devs_context_rules::seeds::refresher::DEFAULT_THRESHOLD,
            Some(n) => report(RefreshCounter::checked_threshold("options.threshold", n))?,
        };
        Ok(Refresher(RefreshCounter::new(threshold)))
    }

    #[wasm_bindgen(getter)]
    pub fn threshold(&self) -> u32 {
        self.0.threshold()
    }

    #[wasm_bindgen(getter)]
    pub fn turns(&self) -> u32 {
        self.0.turns_in_current_node()
    }

    /// -1 when no refresh is due; else the ticket to roll back with.
    pub fn tick(&mut self, turn_index: f64) -> Out<f64> {
        Ok(match report(self.0.on_turn_checked(turn_index))? {
            Tick::Quiet => -1.0,
            Tick::Refresh(ticket) => ticket.node as f64,
        })
    }

    pub fn rollback(&mut self, ticket: f64) {
        self.0
            .rollback(devs_context_rules::seeds::refresher::Ticket {
                node: ticket as u64,
            });
    }

    pub fn reset_node(&mut self) {
        self.0.reset_node();
    }

    /// The node the counter is in; with `turns`, what `restore` takes back (two numbers
    /// read on every turn, so no array is made for them).
    #[wasm_bindgen(getter)]
    pub fn node(&self) -> f64 {
        self.0.snapshot().node as f64
    }

    pub fn restore(&mut self, turns: u32, node: f64) {
        self.0.restore(Snapshot {
            turns_in_current_node: turns,
            node: node as u64,
        });
    }
}
