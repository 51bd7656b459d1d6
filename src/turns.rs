//! Seed 004: turn numbering, the monotonic clock and the log's index.

use std::cell::RefCell;

use devs_context_rules::seeds::clock::MonotonicClock;
use devs_context_rules::seeds::log::LogIndex;
use devs_context_rules::seeds::ops::{LogOp, TrackerOp};
use devs_context_rules::seeds::tracker::TurnTracker;
use wasm_bindgen::prelude::*;

use crate::{Out, report};

#[wasm_bindgen]
pub struct Tracker(TurnTracker);

#[wasm_bindgen]
impl Tracker {
    #[wasm_bindgen(constructor)]
    pub fn new(agent_id_len: usize, phase_len: usize) -> Out<Tracker> {
        Ok(Tracker(report(TurnTracker::new(agent_id_len, phase_len))?))
    }

    /// A call of `TrackerOp`'s, one crossing whatever it is.
    pub fn op(&mut self, op: u8, a: f64) -> Out<f64> {
        let t = &mut self.0;
        Ok(f64::from(
            match crate::op("Tracker", TrackerOp::from_code(op))? {
                TrackerOp::Index => t.current_index(),
                TrackerOp::Next => t.next_index(),
                TrackerOp::Reset => {
                    t.reset();
                    0
                }
                TrackerOp::Restore => {
                    t.restore(a as u32);
                    0
                }
            },
        ))
    }
}

thread_local! {
    // One clock for the whole module instance, so stamps from different trackers are ordered too.
    static CLOCK: RefCell<MonotonicClock> = RefCell::new(MonotonicClock::new());
}

/// A strictly increasing stamp from the host's raw nanosecond reading.
#[wasm_bindgen(js_name = stampNs)]
pub fn stamp_ns(raw: u64) -> u64 {
    CLOCK.with(|clock| clock.borrow_mut().stamp(raw))
}

#[wasm_bindgen]
pub struct LogSlots(LogIndex);

#[wasm_bindgen]
impl LogSlots {
    #[wasm_bindgen(constructor)]
    pub fn new(max_size: Option<f64>) -> Out<LogSlots> {
        Ok(LogSlots(report(LogIndex::new(max_size))?))
    }

    /// A call of `LogOp`'s, one crossing whatever it is.
    pub fn op(&mut self, op: u8, a: f64, b: f64) -> Out<f64> {
        let log = &mut self.0;
        Ok(match crate::op("LogSlots", LogOp::from_code(op))? {
            LogOp::MaxSize => log.max_size() as f64,
            LogOp::Size => log.size() as f64,
            LogOp::Append => {
                let appended = report(log.append(a as u32, b))?;
                let released = appended.released_agent.map_or(0.0, |k| f64::from(k) + 1.0);
                appended.slot as f64 + released * 4_294_967_296.0
            }
            LogOp::ByTurnIndex => log.by_turn_index(a).map_or(-1.0, |s| s as f64),
            LogOp::Clear => {
                log.clear();
                0.0
            }
        })
    }

    /// The slots of `agent`'s entries, or of all of them, oldest first.
    pub fn slots(&self, agent: Option<u32>) -> Vec<u32> {
        agent.map_or_else(|| self.0.all(), |a| self.0.by_agent(a))
    }
}
