//! Seed 004: `TurnTracker` numbering. One tracker per agent/phase pair; it is
//! deliberately not a singleton.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnTracker {
    pub agent_id: String,
    pub phase: String,
    current_index: u32,
}

impl TurnTracker {
    pub fn new(agent_id: String, phase: String) -> Self {
        Self {
            agent_id,
            phase,
            current_index: 0,
        }
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_from_zero_and_resets() {
        let mut t = TurnTracker::new("agent-1".into(), "phase-3".into());
        assert_eq!(t.current_index(), 0);
        let seen: Vec<u32> = (0..5).map(|_| t.next_index()).collect();
        assert_eq!(seen, vec![1, 2, 3, 4, 5]);
        assert_eq!(t.current_index(), 5);
        t.reset();
        assert_eq!(t.current_index(), 0);
    }
}
