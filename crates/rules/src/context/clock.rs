//! The request's time, as the host gives it (`build({ now })`, or the time a replay reads
//! from a transcript), and the compaction it times: at the first request after a pause
//! longer than the cache's lifetime (`cacheTtlMs`), the provider writes the whole prefix
//! again whatever the request holds, so a request above `pauseCompactAt` of the budget is
//! compacted there, before the high water mark, by masking only (no summary: a summarizer
//! call made after a pause pays a full write too). Everything after it is smaller. The
//! rules read no clock: the time is journaled ([`Event::Time`](super::journal::Event::Time)),
//! so a replay or a reopened session decides the same.
//!
//! The bound and the trigger still win: past the high water mark the usual compaction runs
//! (summary and all), and a request over the budget is squeezed as ever. A time earlier
//! than the last one given is refused: a host's clock that went back would make a pause of
//! a skew, and the rules cannot tell which of the two times is right (a replay of records
//! that interleave passes the latest time seen).

use super::Manager;
use crate::base::args::show_number;
use devs_context_errors::FieldError;

/// Anthropic's default cache lifetime, 5 minutes from the last read, and the default of
/// `cacheTtlMs`; OpenAI's in-memory cache keeps a prefix 5 to 10 minutes.
pub const DEFAULT_CACHE_TTL_MS: f64 = 300_000.0;

/// The host's times, in ms since the epoch, NaN where not given.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clock {
    /// The time given for the next build (cleared when it commits).
    pub now: f64,
    /// The time of the last request made: when the provider last read or wrote its prefix.
    pub last: f64,
    /// The build in flight compacts for a pause (set by its trigger; not kept).
    pub pausing: bool,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock {
            now: f64::NAN,
            last: f64::NAN,
            pausing: false,
        }
    }
}

impl Clock {
    /// The time is given for the next build: finite, >= 0, and not before the last given.
    pub fn set(&mut self, now: f64) -> Result<(), FieldError> {
        if !(now.is_finite() && now >= 0.0) {
            return Err(FieldError::range_error(
                "options.now",
                format!(
                    "must be a time in ms since the epoch (a finite number >= 0), got {}",
                    show_number(now)
                ),
            ));
        }
        let before = if self.now.is_nan() {
            self.last
        } else {
            self.now
        };
        if now < before {
            return Err(FieldError::range_error(
                "options.now",
                format!(
                    "is {}, before the time of the last request ({}): the time given to build must not go back",
                    show_number(now),
                    show_number(before)
                ),
            ));
        }
        self.now = now;
        Ok(())
    }

    /// A request was made: at the time given for it, or at an unknown one.
    pub fn sent(&mut self) {
        self.last = self.now;
        self.now = f64::NAN;
        self.pausing = false;
    }

    /// Whether the build in flight comes after a pause longer than `ttl` ms: both times
    /// known, and further apart.
    pub fn paused(&self, ttl: f64) -> bool {
        self.now - self.last > ttl
    }
}

impl Manager {
    /// Whether the build in flight compacts for a pause: the option is on, the cache has
    /// expired since the last request, and the request is above the option's level.
    pub(in crate::context) fn pause_due(&self) -> bool {
        let c = &self.config;
        c.pause_compact_at > 0.0
            && self.clock.paused(c.cache_ttl_ms)
            && self.over(c.pause_compact_at)
    }
}
