//! The ring of the last prefixes the forward pass (dp.rs) keeps, and the period skip
//! (period.rs) rewinds: in a file of its own, below both, so neither imports the other
//! for it.

use super::automaton::State;

/// Prefixes kept: a pair test looks 256 back (two tokens), and the period skip a period
/// (128) and its window (128) before the last token's start, rounded up.
pub(super) const RING: usize = 512;
const MASK: usize = RING - 1;

/// For prefix `i` (at `i % RING`): the last token of its encoding, its token count, and
/// the automaton's state after it, which lists every token that ends there.
pub(super) struct Ring {
    last: [u32; RING],
    count: [u64; RING],
    state: [State; RING],
}

impl Ring {
    /// A ring whose every prefix has `last` as its last token and `start` as its state.
    pub(super) fn new(last: u32, start: State) -> Ring {
        Ring {
            last: [last; RING],
            count: [0; RING],
            state: [start; RING],
        }
    }

    #[inline]
    pub(super) fn last(&self, i: usize) -> u32 {
        self.last[i & MASK]
    }

    #[inline]
    pub(super) fn count(&self, i: usize) -> u64 {
        self.count[i & MASK]
    }

    #[inline]
    pub(super) fn state(&self, i: usize) -> State {
        self.state[i & MASK]
    }

    #[inline]
    pub(super) fn set(&mut self, i: usize, last: u32, count: u64) {
        self.last[i & MASK] = last;
        self.count[i & MASK] = count;
    }

    #[inline]
    pub(super) fn set_state(&mut self, i: usize, state: State) {
        self.state[i & MASK] = state;
    }
}
