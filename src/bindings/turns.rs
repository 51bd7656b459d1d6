//! Seed 004: `TurnTracker` and `AgentLogStore` ([3_MCP-TAS-088]).

use std::cell::RefCell;

use js_sys::{Array, Object};
use wasm_bindgen::prelude::*;

use super::js::{self, JsResult, js};
use crate::rules::args::{FieldError, whole_number};
use crate::rules::clock::MonotonicClock;
use crate::rules::ring::Ring;
use crate::rules::turns;

#[wasm_bindgen(raw_module = "../../src/runtime.js")]
extern "C" {
    /// The host's raw nanosecond clock: `process.hrtime.bigint()` in Node, otherwise
    /// `performance.timeOrigin + performance.now()`.
    #[wasm_bindgen(js_name = clockNs)]
    fn clock_ns() -> u64;
}

thread_local! {
    // One clock for the whole module instance, so stamps from different trackers are ordered too.
    static CLOCK: RefCell<MonotonicClock> = RefCell::new(MonotonicClock::new());
}

/// A strictly increasing nanosecond time: it never repeats and never goes backwards.
pub fn monotonic_now_ns() -> u64 {
    CLOCK.with(|clock| clock.borrow_mut().stamp(clock_ns()))
}

/// Stamps envelopes with a `turn_index` for one agent/phase pair. Not a singleton:
/// create one per agent and phase.
#[wasm_bindgen]
pub struct TurnTracker {
    inner: turns::TurnTracker,
}

#[wasm_bindgen]
impl TurnTracker {
    /// @throws {TypeError} when `agentId` or `phase` is not a non-empty string.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(js_name = agentId, unchecked_param_type = "string")] agent_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] phase: JsValue,
    ) -> Result<TurnTracker, JsValue> {
        let agent_id = js(js::non_empty_string("agentId", &agent_id))?;
        let phase = js(js::non_empty_string("phase", &phase))?;
        Ok(Self {
            inner: turns::TurnTracker::new(agent_id, phase),
        })
    }

    #[wasm_bindgen(getter, js_name = currentIndex)]
    pub fn current_index(&self) -> u32 {
        self.inner.current_index()
    }

    #[wasm_bindgen(getter, js_name = agentId)]
    pub fn agent_id(&self) -> String {
        self.inner.agent_id.clone()
    }

    #[wasm_bindgen(getter)]
    pub fn phase(&self) -> String {
        self.inner.phase.clone()
    }

    /// Advances `currentIndex` by one and returns the new value.
    #[wasm_bindgen(js_name = nextIndex)]
    pub fn next_index(&mut self) -> u32 {
        self.inner.next_index()
    }

    /// Sets `currentIndex` back to 0.
    pub fn reset(&mut self) {
        self.inner.reset();
    }

    /// A shallow clone of `envelope` with `turn_index` set to `currentIndex`. The input
    /// (frozen or not) is never mutated.
    #[wasm_bindgen(unchecked_return_type = "SaopEnvelope")]
    pub fn attach(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SaopEnvelope")] envelope: JsValue,
    ) -> JsResult<JsValue> {
        js(js::object("envelope", &envelope))?;
        let copy = js::shallow_copy(&envelope);
        js::set(&copy, "turn_index", &self.inner.current_index().into());
        Ok(copy.into())
    }

    /// `{ turn_index, agent_id, phase, timestamp_ns }`, stamped now.
    #[wasm_bindgen(js_name = toLogEntry, unchecked_return_type = "TurnLogEntry")]
    pub fn to_log_entry(&self) -> JsValue {
        let entry = Object::new();
        js::set(&entry, "turn_index", &self.inner.current_index().into());
        js::set(&entry, "agent_id", &self.inner.agent_id.as_str().into());
        js::set(&entry, "phase", &self.inner.phase.as_str().into());
        js::set(&entry, "timestamp_ns", &monotonic_now_ns().into());
        entry.into()
    }
}

/// An in-memory ring buffer of `TurnLogEntry` records. It never holds more than
/// `maxSize` entries (default 1000): appending to a full store drops the oldest (FIFO).
#[wasm_bindgen]
pub struct AgentLogStore {
    ring: Ring<Logged>,
}

/// An entry as appended, with the keys the lookups use read once at append time.
struct Logged {
    agent_id: String,
    turn_index: f64,
    entry: JsValue,
}

pub const DEFAULT_MAX_SIZE: u64 = 1000;

#[wasm_bindgen]
impl AgentLogStore {
    /// @throws {RangeError} when `maxSize` is not a whole number >= 1.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(js_name = maxSize, unchecked_param_type = "number | undefined")]
        max_size: Option<JsValue>,
    ) -> Result<AgentLogStore, JsValue> {
        let max_size = match js(js::optional_number(
            "maxSize",
            &max_size.unwrap_or_default(),
        ))? {
            None => DEFAULT_MAX_SIZE,
            Some(n) => js(whole_number("maxSize", n, 1))?,
        };
        let capacity = usize::try_from(max_size)
            .map_err(|_| js::IntoJs::into_js(FieldError::range_error("maxSize", "is too large")))?;
        Ok(Self {
            ring: Ring::new(capacity),
        })
    }

    #[wasm_bindgen(getter, js_name = maxSize)]
    pub fn max_size(&self) -> usize {
        self.ring.capacity()
    }

    /// How many entries the store holds now.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> usize {
        self.ring.len()
    }

    /// Appends `entry` in O(1), evicting the oldest entry when the store is full.
    /// @throws {TypeError} naming the field when `entry` is not a `TurnLogEntry`.
    pub fn append(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "TurnLogEntry")] entry: JsValue,
    ) -> JsResult<()> {
        js(js::object("entry", &entry))?;
        let turn_index = js(js::number(
            "entry.turn_index",
            &js::get(&entry, "turn_index")?,
        ))?;
        js(whole_number("entry.turn_index", turn_index, 0)
            .map_err(|e| FieldError::type_error(e.field, e.message)))?;
        let agent_id = js(js::string("entry.agent_id", &js::get(&entry, "agent_id")?))?;
        js(js::string("entry.phase", &js::get(&entry, "phase")?))?;
        let stamp = js::get(&entry, "timestamp_ns")?;
        if !stamp.is_bigint() {
            let err = FieldError::type_error(
                "entry.timestamp_ns",
                format!("must be a bigint, got {}", js::describe(&stamp)),
            );
            return Err(js::IntoJs::into_js(err));
        }
        self.ring.push(Logged {
            agent_id,
            turn_index,
            entry,
        });
        Ok(())
    }

    /// Every entry, oldest first, in a new array.
    #[wasm_bindgen(js_name = getAll, unchecked_return_type = "TurnLogEntry[]")]
    pub fn get_all(&self) -> Array {
        self.ring.iter().map(|l| l.entry.clone()).collect()
    }

    /// The entries whose `agent_id` is `agentId`, oldest first.
    #[wasm_bindgen(js_name = getByAgent, unchecked_return_type = "TurnLogEntry[]")]
    pub fn get_by_agent(
        &self,
        #[wasm_bindgen(js_name = agentId, unchecked_param_type = "string")] agent_id: JsValue,
    ) -> JsResult<Array> {
        let agent_id = js(js::string("agentId", &agent_id))?;
        Ok(self
            .ring
            .iter()
            .filter(|l| l.agent_id == agent_id)
            .map(|l| l.entry.clone())
            .collect())
    }

    /// The oldest entry whose `turn_index` is `index`, or `undefined`.
    #[wasm_bindgen(js_name = getByTurnIndex, unchecked_return_type = "TurnLogEntry | undefined")]
    pub fn get_by_turn_index(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] index: JsValue,
    ) -> JsResult<JsValue> {
        let index = js(js::number("index", &index))?;
        Ok(self
            .ring
            .iter()
            .find(|l| l.turn_index == index)
            .map_or(JsValue::UNDEFINED, |l| l.entry.clone()))
    }

    /// Empties the store.
    pub fn clear(&mut self) {
        self.ring.clear();
    }
}
