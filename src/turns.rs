//! Seed 004: turn numbering, the monotonic clock and the log's index.

use std::cell::RefCell;

use devs_context_rules::seeds::clock::MonotonicClock;
use devs_context_rules::seeds::log::LogIndex;
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

    #[wasm_bindgen(getter)]
    pub fn index(&self) -> u32 {
        self.0.current_index()
    }

    pub fn next(&mut self) -> u32 {
        self.0.next_index()
    }

    pub fn reset(&mut self) {
        self.0.reset();
    }

    pub fn restore(&mut self, index: u32) {
        self.0.restore(index);
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

    #[wasm_bindgen(getter)]
    pub fn max_size(&self) -> usize {
        self.0.max_size()
    }

    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.0.size()
    }

    /// The slot the entry goes into, plus `2^32 * (key + 1)` of an agent key released.
    pub fn append(&mut self, agent: u32, turn_index: f64) -> Out<f64> {
        let appended = report(self.0.append(agent, turn_index))?;
        let released = appended.released_agent.map_or(0.0, |k| f64::from(k) + 1.0);
        Ok(appended.slot as f64 + released * 4_294_967_296.0)
    }

    pub fn all(&self) -> Vec<u32> {
        self.0.all()
    }

    pub fn by_agent(&self, agent: u32) -> Vec<u32> {
        self.0.by_agent(agent)
    }

    /// The slot, or -1.
    pub fn by_turn_index(&self, turn_index: f64) -> f64 {
        self.0.by_turn_index(turn_index).map_or(-1.0, |s| s as f64)
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }
}
