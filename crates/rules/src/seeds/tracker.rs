//! Seed 004: `TurnTracker` numbering. One tracker per agent/phase pair; it is
//! deliberately not a singleton. The agent id and phase stay with the host.

use devs_context_errors::FieldError;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnTracker {
    current_index: u32,
}

impl TurnTracker {
    /// `agent_id_len` and `phase_len` are the UTF-16 lengths of the two names.
    pub fn new(agent_id_len: usize, phase_len: usize) -> Result<Self, FieldError> {
        for (field, len) in [("agentId", agent_id_len), ("phase", phase_len)] {
            if len == 0 {
                return Err(FieldError::type_error(
                    field,
                    "must be a non-empty string, got the string \"\"",
                ));
            }
        }
        Ok(Self { current_index: 0 })
    }

    pub fn current_index(&self) -> u32 {
        self.current_index
    }

    /// Advances the index by one and returns the new value.
    pub fn next_index(&mut self) -> u32 {
        self.current_index += 1;
        self.current_index
    }

    pub fn reset(&mut self) {
        self.current_index = 0;
    }

    /// Puts the index back to one read earlier, for a turn that failed.
    pub fn restore(&mut self, index: u32) {
        self.current_index = index;
    }
}

#[cfg(test)]
#[path = "tests/tracker.rs"]
mod tests;
