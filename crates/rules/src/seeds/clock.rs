//! Monotonic nanosecond stamps. The host supplies raw clock readings; this rule makes
//! them strictly increasing, because two readings can tie (coarse browser clocks) and a
//! log ordered by `timestamp_ns` must never have two entries at the same instant.

#[derive(Debug, Default, Clone)]
pub struct MonotonicClock {
    last: u64,
}

impl MonotonicClock {
    pub fn new() -> Self {
        Self::default()
    }

    /// Returns `raw` unless it does not move past the last stamp, in which case the stamp
    /// is nudged one nanosecond past it.
    pub fn stamp(&mut self, raw_ns: u64) -> u64 {
        let next = if raw_ns > self.last {
            raw_ns
        } else {
            self.last + 1
        };
        self.last = next;
        next
    }
}

#[cfg(test)]
#[path = "tests/clock.rs"]
mod tests;
