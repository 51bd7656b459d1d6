//! The manager's options, checked, as shares of the budget where they scale with it.

use crate::base::args::{show_number, whole_number};
use devs_context_errors::FieldError;

/// The options, as shares of the budget where they scale with it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    pub budget: f64,
    /// A request past this share of the budget is compacted.
    pub high_water: f64,
    /// A compaction brings the request down to this share.
    pub low_water: f64,
    /// The newest results and texts kept whole by a compaction, as a share of the budget.
    pub recent_share: f64,
    /// A part may take at most this share of the budget.
    pub part_share: f64,
    /// No summarizer prompt exceeds this share of the budget.
    pub summarizer_share: f64,
    /// A summary may take at most this share of the budget.
    pub summary_share: f64,
    /// The opening user message (the task, in most agents) is never folded away.
    pub keep_first: bool,
    /// The newest images kept whole; older ones are stored and replaced by a line, this
    /// many at a time (so between this many and twice as many less one stay whole).
    pub keep_images: usize,
    /// The share of the budget protected tools' parts may take whole in a request, and the
    /// share those folded away may take, carried verbatim after the summary; 0 when the host
    /// protects no tool.
    pub protected_share: f64,
    /// The user's words the working state keeps verbatim, as a share of the budget
    /// (`userWordsShare`, [`super::working`]).
    pub user_words_share: f64,
    /// The provider's cache lifetime, in ms: a longer pause between two requests leaves the
    /// cache cold ([`super::clock`]).
    pub cache_ttl_ms: f64,
    /// At the first request after such a pause, a request above this share of the budget
    /// is masked (0: never).
    pub pause_compact_at: f64,
}

pub const DEFAULT_HIGH_WATER: f64 = 0.75;
pub const DEFAULT_LOW_WATER: f64 = 0.25;
pub const DEFAULT_RECENT_SHARE: f64 = 0.1;
pub const DEFAULT_PART_SHARE: f64 = 0.15;
pub const DEFAULT_SUMMARIZER_SHARE: f64 = 0.4;
pub const DEFAULT_SUMMARY_SHARE: f64 = 0.1;
/// The share of the budget the images kept whole may take at most, between two removals.
pub const IMAGE_SHARE: f64 = 0.4;
/// Cuts a build may make to fit the newest group, beyond four for each part it can cut.
pub const MAX_SQUEEZES: u32 = 256;
/// Tokens a squeezed part keeps: a head, a tail and the marker between.
pub const MIN_CUT_TOKENS: f64 = 24.0;
/// A call's input is masked only past this: below it, the keys and marks it keeps would
/// save little.
pub const CALL_MASK_TOKENS: f64 = 400.0;
/// Appended tokens per request, assumed until the manager has seen a few.
pub const DEFAULT_GROWTH_SHARE: f64 = 0.02;
/// Growth samples kept.
pub const GROWTH_SAMPLES: usize = 8;
/// Anthropic's computer-use reference loop keeps the newest 3 screenshots and removes the
/// older ones 3 at a time, so the cache breaks once every 3 steps.
pub const DEFAULT_KEEP_IMAGES: f64 = 3.0;
/// A memory file, a todo list or a plan is a few thousand tokens at most: a tenth of a
/// 50k budget holds several, and leaves the compaction most of the room it works in.
pub const DEFAULT_PROTECTED_SHARE: f64 = 0.1;
/// Past this, protected parts would leave a compaction too little to reach its mark.
pub const MAX_PROTECTED_SHARE: f64 = 0.5;
/// Past this, the user's words would leave a compaction too little to reach its mark.
pub const MAX_USER_WORDS_SHARE: f64 = 0.3;
/// More than this is no bound on what images cost.
pub const MAX_KEEP_IMAGES: f64 = 1000.0;
/// Tokens a summarizer's instructions take, beyond the texts they carry.
pub const SUMMARIZER_OVERHEAD: f64 = 120.0;
/// A cache read, and a cache write, in units of an uncached input token. They live here,
/// with the other tuning, so the plan's pricing (`policy.rs`), the ledger's bill and the
/// render all read them from below instead of from each other.
pub const READ: f64 = 0.1;
pub const WRITE: f64 = 1.25;
/// A placeholder's tokens, assumed before the host counts it.
pub const PLACEHOLDER_TOKENS: f64 = 30.0;
/// After a compaction that ended over the high water mark, the request grows by this share
/// of the budget before the next.
pub const REARM_GROWTH: f64 = 0.05;
/// The fixed texts (system prompt, pinned) may take at most this share of the budget.
pub const FIXED_SHARE: f64 = 0.5;
/// As the provider counts them (the calibration adds the host's own input), at most this.
pub const CALIBRATED_FIXED_SHARE: f64 = 0.75;
/// A usage report is learned from only while the fixed texts, as the provider then counts
/// them, leave this share of the budget at most taken: one that takes more cannot be about
/// the request it answers (a running total, another request's), and would leave the
/// conversation no room in any build after it.
pub const USAGE_ROOM_SHARE: f64 = CALIBRATED_FIXED_SHARE;

/// An option as the host gave it: `None` for the default.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Options {
    pub high_water: Option<f64>,
    pub low_water: Option<f64>,
    pub recent_share: Option<f64>,
    pub part_share: Option<f64>,
    pub summarizer_share: Option<f64>,
    pub keep_first: Option<bool>,
    pub keep_images: Option<f64>,
    /// Whether the host names any protected tool (`protectedTools`).
    pub protects: Option<bool>,
    pub protected_share: Option<f64>,
    pub user_words_share: Option<f64>,
    pub cache_ttl_ms: Option<f64>,
    pub pause_compact_at: Option<f64>,
}

/// The options the shell passes by name ([`Options::named`]), as the host writes them.
/// `protectedTools` is whether the host names any, 1 or 0: the names stay with the shell,
/// which marks the parts of those tools as it appends them.
pub const OPTION_NAMES: [&str; 12] = [
    "highWater",
    "lowWater",
    "recentShare",
    "partShare",
    "summarizerShare",
    "keepFirstMessage",
    "keepImages",
    "protectedTools",
    "protectedShare",
    "userWordsShare",
    "cacheTtlMs",
    "pauseCompactAt",
];

/// Every option of the shell's `ContextManager`, by name: [`OPTION_NAMES`], which the rules
/// read, and those the shell reads itself. The adapters hand their managers each one of
/// these they do not set themselves, and refuse any other name (`MANAGER_OPTIONS` in
/// `pkg/src/adapters/kit/options.ts`, a compile error when the type has one this lacks).
pub const MANAGER_OPTION_NAMES: &[&str] = &[
    "format",
    "budget",
    "countTokens",
    "store",
    "summarizer",
    "summarizerTimeoutMs",
    "summaryPrompt",
    "system",
    "pinned",
    "onLedger",
    "onCompaction",
    "onWarning",
    "beforeCompaction",
    "tracer",
    "conversationId",
    "cacheControl",
    "calibrate",
    "highWater",
    "lowWater",
    "recentShare",
    "partShare",
    "summarizerShare",
    "recall",
    "keepFirstMessage",
    "protectedTools",
    "protectedShare",
    "vscode",
    "imageTokens",
    "keepImages",
    "callbackTimeoutMs",
    "reminders",
    "userWordsShare",
    "workingState",
    "cacheTtlMs",
    "pauseCompactAt",
];

impl Options {
    /// The options from `(name, value)` pairs, as the shell sends them: every one of
    /// [`OPTION_NAMES`] once, NaN for the default, `keepFirstMessage` 1 or 0. A name
    /// unknown, repeated or missing means the shell and the rules disagree: an error
    /// naming it (`{prefix}.{name}`), never a value read into another option's place.
    pub fn named(prefix: &str, named: &[(&str, f64)]) -> Result<Options, FieldError> {
        let mut o = Options::default();
        let mut seen: Vec<&str> = Vec::with_capacity(named.len());
        let field = |name: &str| format!("{prefix}.{name}");
        for &(name, value) in named {
            if seen.contains(&name) {
                return Err(FieldError::type_error(
                    field(name),
                    "is given to the rules twice",
                ));
            }
            seen.push(name);
            let v = (!value.is_nan()).then_some(value);
            match name {
                "highWater" => o.high_water = v,
                "lowWater" => o.low_water = v,
                "recentShare" => o.recent_share = v,
                "partShare" => o.part_share = v,
                "summarizerShare" => o.summarizer_share = v,
                "keepFirstMessage" => o.keep_first = v.map(|v| v != 0.0),
                "keepImages" => o.keep_images = v,
                "protectedTools" => o.protects = v.map(|v| v != 0.0),
                "protectedShare" => o.protected_share = v,
                "userWordsShare" => o.user_words_share = v,
                "cacheTtlMs" => o.cache_ttl_ms = v,
                "pauseCompactAt" => o.pause_compact_at = v,
                _ => {
                    return Err(FieldError::type_error(
                        field(name),
                        "is not an option of the rules' manager",
                    ));
                }
            }
        }
        if let Some(missing) = OPTION_NAMES.iter().find(|n| !seen.contains(n)) {
            return Err(FieldError::type_error(
                field(missing),
                "was not given to the rules",
            ));
        }
        Ok(o)
    }
}

fn share(field: &str, v: Option<f64>, default: f64, max: f64) -> Result<f64, FieldError> {
    match v {
        None => Ok(default),
        Some(v) if v.is_finite() && v > 0.0 && v <= max => Ok(v),
        Some(v) => Err(FieldError::range_error(
            field,
            format!("must be in (0, {max}], got {}", show_number(v)),
        )),
    }
}

impl Config {
    /// `prefix` names the options in errors: `options`, or `options.bounded`.
    pub fn new(prefix: &str, budget: f64, o: Options) -> Result<Config, FieldError> {
        whole_number(&format!("{prefix}.budget"), budget, 1000)?;
        let high_water = share(
            &format!("{prefix}.highWater"),
            o.high_water,
            DEFAULT_HIGH_WATER,
            1.0,
        )?;
        let low_water = share(
            &format!("{prefix}.lowWater"),
            o.low_water,
            DEFAULT_LOW_WATER,
            1.0,
        )?;
        if low_water >= high_water {
            return Err(FieldError::range_error(
                format!("{prefix}.lowWater"),
                format!(
                    "must be below {prefix}.highWater ({}), got {}",
                    show_number(high_water),
                    show_number(low_water)
                ),
            ));
        }
        let recent_share = share(
            &format!("{prefix}.recentShare"),
            o.recent_share,
            DEFAULT_RECENT_SHARE,
            0.5,
        )?;
        let part_share = share(
            &format!("{prefix}.partShare"),
            o.part_share,
            DEFAULT_PART_SHARE,
            0.25,
        )?;
        let summarizer_share = share(
            &format!("{prefix}.summarizerShare"),
            o.summarizer_share,
            DEFAULT_SUMMARIZER_SHARE,
            1.0,
        )?;
        let least = 2.0 * part_share + DEFAULT_SUMMARY_SHARE;
        if summarizer_share < least {
            return Err(FieldError::range_error(
                format!("{prefix}.summarizerShare"),
                format!(
                    "must be at least {} (two parts and a summary), got {}",
                    show_number(least),
                    show_number(summarizer_share)
                ),
            ));
        }
        let keep_images = o.keep_images.unwrap_or(DEFAULT_KEEP_IMAGES);
        whole_number(&format!("{prefix}.keepImages"), keep_images, 1)?;
        if keep_images > MAX_KEEP_IMAGES {
            return Err(FieldError::range_error(
                format!("{prefix}.keepImages"),
                format!(
                    "must be at most {}, got {}",
                    show_number(MAX_KEEP_IMAGES),
                    show_number(keep_images)
                ),
            ));
        }
        let protected_share = match (o.protects.unwrap_or(false), o.protected_share) {
            (true, v) => share(
                &format!("{prefix}.protectedShare"),
                v,
                DEFAULT_PROTECTED_SHARE,
                MAX_PROTECTED_SHARE,
            )?,
            (false, None) => 0.0,
            (false, Some(_)) => {
                return Err(FieldError::type_error(
                    format!("{prefix}.protectedShare"),
                    format!(
                        "is a share of what {prefix}.protectedTools protects, and names no tool: give protectedTools too, or leave protectedShare out"
                    ),
                ));
            }
        };
        let user_words_share = share(
            &format!("{prefix}.userWordsShare"),
            o.user_words_share,
            super::working::DEFAULT_USER_WORDS_SHARE,
            MAX_USER_WORDS_SHARE,
        )?;
        let cache_ttl_ms = match o.cache_ttl_ms {
            None => super::clock::DEFAULT_CACHE_TTL_MS,
            Some(v) if v.is_finite() && v > 0.0 => v,
            Some(v) => {
                return Err(FieldError::range_error(
                    format!("{prefix}.cacheTtlMs"),
                    format!("must be a number of ms > 0, got {}", show_number(v)),
                ));
            }
        };
        let pause_compact_at = match o.pause_compact_at {
            None => 0.0,
            Some(v) if v.is_finite() && v > 0.0 && v < high_water => v,
            Some(v) => {
                return Err(FieldError::range_error(
                    format!("{prefix}.pauseCompactAt"),
                    format!(
                        "must be in (0, {prefix}.highWater ({})), got {}",
                        show_number(high_water),
                        show_number(v)
                    ),
                ));
            }
        };
        Ok(Config {
            budget,
            high_water,
            low_water,
            recent_share,
            part_share,
            summarizer_share,
            summary_share: DEFAULT_SUMMARY_SHARE,
            keep_first: o.keep_first.unwrap_or(true),
            keep_images: keep_images as usize,
            protected_share,
            user_words_share,
            cache_ttl_ms,
            pause_compact_at,
        })
    }

    fn of(&self, share: f64) -> f64 {
        (self.budget * share).floor()
    }

    pub fn part_cap(&self) -> f64 {
        self.of(self.part_share)
    }

    pub fn summary_cap(&self) -> f64 {
        self.of(self.summary_share)
    }

    /// What protected parts may take whole in a request, and folded away, after the summary.
    pub fn protected_cap(&self) -> f64 {
        self.of(self.protected_share)
    }

    /// What the working state may take after the summary: the user's words, the file
    /// trail, and its own words and open calls ([`super::working`]).
    pub fn working_cap(&self) -> f64 {
        self.of(self.user_words_share + super::working::section::FILES_SHARE)
            + super::working::section::OWN_TOKENS
    }

    pub fn summarizer_cap(&self) -> f64 {
        self.of(self.summarizer_share)
    }

    /// The fixed texts must leave room for a summary and a conversation.
    pub fn check_fixed(&self, prefix: &str, system: f64, pinned: f64) -> Result<(), FieldError> {
        let room = self.of(FIXED_SHARE) - self.summary_cap();
        if system + pinned > room {
            return Err(FieldError::range_error(
                format!("{prefix}.budget"),
                format!(
                    "of {} tokens cannot hold the system prompt ({} tokens) and the pinned texts ({} tokens) with the summary's reserve ({} tokens): together they may take at most half the budget",
                    show_number(self.budget),
                    show_number(system),
                    show_number(pinned),
                    show_number(self.summary_cap())
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "tests/config.rs"]
mod tests;
