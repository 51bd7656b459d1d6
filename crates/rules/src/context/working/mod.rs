//! The working state: a section of the request the engine writes at each compaction,
//! outside the summary, so that what a summarizer drops or words loosely is still stated:
//! - the user's own words, verbatim, newest first, within a share of the budget
//!   (`userWordsShare`), older ones named by their first line (`markers` sets aside
//!   what a harness injected);
//! - the file trail: each path the agent created, edited, moved or deleted, with its last
//!   action and the store id of its last output (`trail`);
//! - the calls still open, so a compaction never loses a call in flight.
//!
//! It rides at the end of the summary message, after the index and the texts the summary
//! carries, and changes only when the summary does: at a compaction. Requests before the
//! first compaction hold none, so they are as they were. The summarizer is told the
//! section exists (`transcript::summarizer_prompt` reads [`PROMPT_NOTE`]) and never writes
//! it: the engine reads its previous one back and carries it on ([`section::split`]).

pub mod json;
pub mod markers;
pub mod section;
mod store;
pub mod trail;

#[cfg(test)]
mod tests;

pub use section::{CallIn, Input, Said, estimate, split, write};
pub use trail::{Action, Reading, Touch, touches};

/// Default share of the budget the user's words may take verbatim. A throwaway prototype
/// on real sessions needed about a tenth where a session's user texts are long; to be
/// re-chosen on the tune half (ADR 0009's rule).
pub const DEFAULT_USER_WORDS_SHARE: f64 = 0.1;

/// What the summarizer is told about the section, so it does not repeat it.
pub const PROMPT_NOTE: &str = "The engine keeps the user's own words, the files changed and the calls still open in a section of its own after the summary: do not repeat them.";
