//! Seed 000: the refresh counter.

use devs_context_rules::seeds::ops::RefresherOp;
use devs_context_rules::seeds::refresher::{RefreshCounter, Snapshot, Tick, Ticket};
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

    /// A call of `RefresherOp`'s, one crossing whatever it is.
    pub fn op(&mut self, op: u8, a: f64, b: f64) -> Out<f64> {
        let r = &mut self.0;
        Ok(match crate::op("Refresher", RefresherOp::from_code(op))? {
            RefresherOp::Threshold => f64::from(r.threshold()),
            RefresherOp::Turns => f64::from(r.turns_in_current_node()),
            RefresherOp::Node => r.snapshot().node as f64,
            RefresherOp::Tick => match report(r.on_turn_checked(a))? {
                Tick::Quiet => -1.0,
                Tick::Refresh(ticket) => ticket.node as f64,
            },
            RefresherOp::Rollback => {
                r.rollback(Ticket { node: a as u64 });
                0.0
            }
            RefresherOp::ResetNode => {
                r.reset_node();
                0.0
            }
            RefresherOp::Restore => {
                r.restore(Snapshot {
                    turns_in_current_node: a as u32,
                    node: b as u64,
                });
                0.0
            }
        })
    }
}
