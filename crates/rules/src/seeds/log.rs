//! Seed 004's `AgentLogStore` ([3_MCP-TAS-088]): a FIFO log of at most `maxSize` entries.
//!
//! The rule keeps, per entry, only what lookups need: the agent (as a key the host
//! assigns to each distinct `agent_id`, so ids compare exactly as the host's strings do)
//! and the `turn_index`. The host keeps the entries themselves in the same slots.

use std::collections::HashMap;

use crate::base::args::whole_number;
use crate::base::ring::Ring;
use devs_context_errors::FieldError;

pub const DEFAULT_MAX_SIZE: f64 = 1000.0;

#[derive(Debug, Clone, Copy, PartialEq)]
struct Keys {
    agent: u32,
    turn_index: f64,
}

/// What an append did: where the entry goes, and an agent key no entry uses any more.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Appended {
    pub slot: usize,
    pub released_agent: Option<u32>,
}

#[derive(Debug, Clone)]
pub struct LogIndex {
    ring: Ring<Keys>,
    /// Entries per agent key, so a key is released when its last entry is evicted.
    agents: HashMap<u32, u32>,
}

impl LogIndex {
    /// `max_size` defaults to 1000.
    pub fn new(max_size: Option<f64>) -> Result<Self, FieldError> {
        let max = whole_number("maxSize", max_size.unwrap_or(DEFAULT_MAX_SIZE), 1)?;
        if max > u32::MAX as u64 {
            return Err(FieldError::range_error("maxSize", "is too large"));
        }
        Ok(Self {
            ring: Ring::new(max as usize),
            agents: HashMap::new(),
        })
    }

    pub fn max_size(&self) -> usize {
        self.ring.capacity()
    }

    pub fn size(&self) -> usize {
        self.ring.len()
    }

    /// Appends an entry of `agent` at `turn_index`, evicting the oldest when full.
    pub fn append(&mut self, agent: u32, turn_index: f64) -> Result<Appended, FieldError> {
        whole_number("entry.turn_index", turn_index, 0)
            .map_err(|e| FieldError::type_error(e.field, e.message))?;
        *self.agents.entry(agent).or_insert(0) += 1;
        let (slot, evicted) = self.ring.push_slot(Keys { agent, turn_index });
        let released_agent = evicted.and_then(|old| self.release(old.agent));
        Ok(Appended {
            slot,
            released_agent,
        })
    }

    fn release(&mut self, agent: u32) -> Option<u32> {
        let count = self.agents.get_mut(&agent)?;
        *count -= 1;
        if *count == 0 {
            self.agents.remove(&agent);
            return Some(agent);
        }
        None
    }

    /// Slots oldest first.
    pub fn all(&self) -> Vec<u32> {
        self.ring.slot_order().map(|s| s as u32).collect()
    }

    /// Slots of `agent`'s entries, oldest first.
    pub fn by_agent(&self, agent: u32) -> Vec<u32> {
        self.ring
            .slot_order()
            .filter(|&s| self.ring.at(s).agent == agent)
            .map(|s| s as u32)
            .collect()
    }

    /// The slot of the oldest entry at `turn_index`.
    pub fn by_turn_index(&self, turn_index: f64) -> Option<usize> {
        self.ring
            .slot_order()
            .find(|&s| self.ring.at(s).turn_index == turn_index)
    }

    pub fn clear(&mut self) {
        self.ring.clear();
        self.agents.clear();
    }
}

#[cfg(test)]
#[path = "tests/log.rs"]
mod tests;
