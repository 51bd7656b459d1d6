//! One record per request: what it holds, what a compaction did and why, and what it is
//! expected to cost with the provider's cache. Serialized once, as the host receives it
//! (`LedgerRecord` in the package's types; `crates/rules/tests/shapes.rs` checks the two
//! agree). The writer is this module's own ([`Json`]): serde would cost the wasm more
//! than the record it writes.

use super::config::{READ, WRITE};
use crate::base::args::show_number;

/// A value written as JSON, keys in camelCase as the host reads them.
pub trait Json {
    fn json(&self, out: &mut String);
}

impl Json for f64 {
    fn json(&self, out: &mut String) {
        if self.is_finite() {
            out.push_str(&show_number(*self))
        } else {
            out.push_str("null")
        }
    }
}

impl Json for usize {
    fn json(&self, out: &mut String) {
        out.push_str(&self.to_string());
    }
}

impl Json for u64 {
    fn json(&self, out: &mut String) {
        out.push_str(&self.to_string());
    }
}

impl Json for str {
    fn json(&self, out: &mut String) {
        out.push('"');
        for c in self.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
    }
}

impl Json for String {
    fn json(&self, out: &mut String) {
        self.as_str().json(out);
    }
}

impl Json for &'static str {
    fn json(&self, out: &mut String) {
        (*self).json(out);
    }
}

impl<T: Json> Json for Option<T> {
    fn json(&self, out: &mut String) {
        match self {
            Some(v) => v.json(out),
            None => out.push_str("null"),
        }
    }
}

impl<T: Json> Json for Vec<T> {
    fn json(&self, out: &mut String) {
        out.push('[');
        for (i, v) in self.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            v.json(out);
        }
        out.push(']');
    }
}

/// An object's fields, in order: `fields!(out, "name" => value, …)`.
macro_rules! fields {
    ($out:expr, $($key:literal => $value:expr),+ $(,)?) => {{
        $out.push('{');
        let mut first = true;
        $(
            if !first { $out.push(','); }
            first = false;
            $out.push_str(concat!("\"", $key, "\":"));
            Json::json(&$value, $out);
        )+
        let _ = first;
        $out.push('}');
    }};
}

crate::text_codes! {
    /// Something the manager could not do as asked, and fell back from: its code is the
    /// host's `ContextWarning.code`. Its place in `ALL` is its number in a manager's encoded
    /// state, so a new one goes last.
    pub enum Warning {
        StoreFailed = "store-failed",
        SummarizerFailed = "summarizer-failed",
        SummaryOverCap = "summary-over-cap",
        SummaryDropped = "summary-dropped",
        Squeezed = "squeezed",
        /// A compaction waited: it would have dropped the thinking of an open tool loop, and
        /// the request still fit the budget.
        Deferred = "deferred",
        /// A compaction that had to reach past the thinking of an open tool loop dropped it.
        OpenLoopThinkingDropped = "open-loop-thinking-dropped",
        /// Turns dropped without a summary held text the user wrote.
        UserTextDropped = "user-text-dropped",
        /// A usage report could not be about the request it answered: not learned from.
        UsageSetAside = "usage-set-aside",
        /// The host's message list no longer began with the messages the manager held (a
        /// framework removed or replaced one): the manager started over from the new list.
        HistoryRebuilt = "history-rebuilt",
        /// Data an earlier version wrote could not be replayed by today's rules: it was rebuilt.
        FormatMigrated = "format-migrated",
        /// Protected tools' parts past `protectedShare`: the oldest were treated as any other.
        ProtectedOverShare = "protected-over-share",
        /// Turns dropped without a summary held a protected tool's call or result.
        ProtectedDropped = "protected-dropped",
        /// The host's `beforeCompaction` deferred a compaction, and the request still fit.
        HostDeferred = "compaction-deferred",
    }
}

/// Warnings the shell raises itself, beside the rules' [`Warning`]s: a host reads every
/// code of both as `ContextWarning.code` (`WarningCode` in `pkg/src/core/protocol.ts`).
pub const SHELL_WARNINGS: &[&str] = &[
    // LangChain's middleware could not record the model's usage.
    "usage-not-recorded",
    // A session's queued append failed, and was left out.
    "append-refused",
    // A call into the host's tracing (a tracer, a span, its processor, the registered
    // provider or context manager) threw: the build went on without it.
    "telemetry-failed",
];

impl Warning {
    pub fn words(self) -> &'static str {
        match self {
            Warning::StoreFailed => {
                "a text could not be stored: it is cut, not replaced by a placeholder"
            }
            Warning::SummarizerFailed => {
                "the summarizer failed: the oldest turns were dropped instead"
            }
            Warning::SummaryOverCap => {
                "the summary was over its cap: the oldest turns were dropped instead"
            }
            Warning::SummaryDropped => "the summary was dropped to fit the budget",
            Warning::Squeezed => "the newest message was cut further to fit the budget",
            Warning::Deferred => {
                "the compaction waits for the open tool loop to close: it would drop that loop's thinking, and the request still fits the budget"
            }
            Warning::OpenLoopThinkingDropped => {
                "the compaction had to edit before the thinking of the open tool loop, which was dropped: the provider may refuse a tool loop without it"
            }
            Warning::UserTextDropped => {
                "turns holding text the user wrote were dropped without a summary: the stored transcript named in the index still holds them"
            }
            Warning::HistoryRebuilt => {
                "the message list no longer began with the messages already taken in (one was removed or replaced): the conversation was taken in again from the new list, and the next compaction starts over"
            }
            Warning::ProtectedOverShare => {
                "protected tools' calls and results took more than protectedShare of the budget: the oldest of them were masked, cut or left out of the summary as any other part; raise protectedShare, or protect fewer tools"
            }
            Warning::HostDeferred => {
                "the compaction waits: beforeCompaction deferred it, and the request still fits the budget; it runs at the next build that does not defer it, or that would not fit"
            }
            Warning::ProtectedDropped => {
                "turns dropped without a summary (the summarizer failed, or its summary was too long) held a protected tool's call or result: it is stored, and named in the index"
            }
            Warning::FormatMigrated => {
                "the session was written by an earlier version whose rules decided otherwise: it was rebuilt once from its messages, stored texts and summary"
            }
            Warning::UsageSetAside => {
                "a usage report was set aside: zero, under half the request as counted, or the same count as before for a request of another size, it cannot be the provider's count of the request it answered; report the usage the provider returned for each request"
            }
        }
    }
}

/// A warning as the host reads it; the shell adds the host's error to `message` where a
/// callback failed.
#[derive(Debug, Clone, PartialEq)]
pub struct WarningRecord {
    pub code: &'static str,
    pub message: String,
}

/// A range of messages, `from..to`, by their index in the conversation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    pub from: usize,
    pub to: usize,
}

/// Why a compaction ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Trigger {
    /// The request passed the high water mark.
    #[default]
    HighWater,
    /// The host asked (`compact()`).
    Asked,
    /// More images than `keepImages` allows stayed whole: the oldest were stored and
    /// replaced by a line, a few at a time.
    Images,
    /// The provider compacted the conversation itself: what came before its compaction left
    /// the request.
    Provider,
    /// The first request after a pause longer than the cache's lifetime, above
    /// `pauseCompactAt`: masked only ([`super::clock`]).
    Pause,
}

/// What one compaction touched: the messages it kept, the span it summarized or dropped,
/// and the parts it stored and masked.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Compaction {
    pub trigger: Trigger,
    /// The request's tokens before and after, as the provider is expected to count them.
    pub before: f64,
    pub after: f64,
    /// The marks it works between.
    pub high_water: f64,
    pub low_water: f64,
    /// How far below the high water mark it brought the request.
    pub below_trigger: f64,
    /// The earliest message it edited: the provider writes everything after it again.
    pub edit_from: Option<usize>,
    /// Messages left in the request.
    pub kept: Option<Span>,
    pub summarized: Option<Span>,
    pub dropped: Option<Span>,
    /// Store ids of the texts it replaced by placeholders.
    pub masked: Vec<String>,
    /// Store ids the index names now that it did not before: texts of the turns folded away.
    pub indexed: Vec<String>,
    pub summarizer_chunks: usize,
    pub largest_summarizer_prompt: f64,
}

/// Tokens per section of the request, by our counter; they add up to `raw_tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sections {
    pub system: f64,
    pub pinned: f64,
    pub summary: f64,
    /// Messages sent before.
    pub history: f64,
    /// Messages new in this request.
    pub appended: f64,
    pub framing: f64,
}

/// The cache's share of a request, predicted from what the previous request held, and as
/// the provider reported it (`recordUsage`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CacheFigures {
    /// Tokens expected to be read from the cache: the prefix this request shares with
    /// the previous one.
    pub read: f64,
    /// Tokens expected to be written: the rest.
    pub write: f64,
    pub observed_read: Option<f64>,
    pub observed_write: Option<f64>,
    /// This request's input cost in uncached-token units, and the session's so far
    /// relative to sending every request uncached.
    pub cost: f64,
    pub session_relative_cost: f64,
}

/// The session's input, summed: the cost in uncached-token units, and the tokens sent.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Cost {
    pub units: f64,
    pub tokens: f64,
}

impl Cost {
    pub fn of(read: f64, write: f64) -> f64 {
        READ * read + WRITE * write
    }

    pub fn relative(&self) -> f64 {
        if self.tokens > 0.0 {
            self.units / self.tokens
        } else {
            1.0
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CalibrationFigures {
    pub overhead: f64,
    pub ratio: f64,
    pub media_ratio: f64,
    pub samples: usize,
}

/// One request's record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ledger {
    /// 1-based.
    pub request: u64,
    pub budget: f64,
    /// As the provider is expected to count them; at most `budget`.
    pub tokens: f64,
    /// By our counter: the sum of `sections`.
    pub raw_tokens: f64,
    pub sections: Sections,
    pub cache: CacheFigures,
    /// Set when a compaction ran for this request.
    pub compaction: Option<Compaction>,
    /// Parts too large for their share, stored and cut the first time they were sent.
    pub cut: usize,
    /// Thinking blocks left out because an edit came before them.
    pub thinking_dropped: usize,
    pub warnings: Vec<WarningRecord>,
    pub calibration: CalibrationFigures,
    /// The counter's name (`o200k_base`, …), as the host set it.
    pub counter: String,
    /// Milliseconds spent building the request.
    pub ms: f64,
    pub before: f64,
    pub stored: Vec<(usize, usize)>,
    pub masked: Vec<(usize, usize)>,
    pub cut_parts: Vec<(usize, usize)>,
    pub raised: Vec<Warning>,
}

impl Ledger {
    pub fn warn(&mut self, w: Warning) {
        if !self.raised.contains(&w) {
            self.raised.push(w);
            self.warnings.push(WarningRecord {
                code: w.code(),
                message: w.words().into(),
            });
        }
    }

    pub fn compaction_mut(&mut self) -> &mut Compaction {
        self.compaction.get_or_insert_with(Compaction::default)
    }

    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(1024);
        self.json(&mut out);
        out
    }
}

impl Json for WarningRecord {
    fn json(&self, out: &mut String) {
        fields!(out, "code" => self.code, "message" => self.message);
    }
}

impl Json for Span {
    fn json(&self, out: &mut String) {
        fields!(out, "from" => self.from, "to" => self.to);
    }
}

impl Trigger {
    /// Its name in a ledger record, and to the host's `beforeCompaction`.
    pub fn name(self) -> &'static str {
        match self {
            Trigger::HighWater => "highWater",
            Trigger::Asked => "asked",
            Trigger::Images => "images",
            Trigger::Provider => "provider",
            Trigger::Pause => "pause",
        }
    }
}

impl Json for Trigger {
    fn json(&self, out: &mut String) {
        self.name().json(out);
    }
}

impl Json for Compaction {
    fn json(&self, out: &mut String) {
        fields!(out,
            "trigger" => self.trigger, "before" => self.before, "after" => self.after,
            "highWater" => self.high_water, "lowWater" => self.low_water, "belowTrigger" => self.below_trigger,
            "editFrom" => self.edit_from, "kept" => self.kept, "summarized" => self.summarized, "dropped" => self.dropped,
            "masked" => self.masked, "indexed" => self.indexed, "summarizerChunks" => self.summarizer_chunks,
            "largestSummarizerPrompt" => self.largest_summarizer_prompt,
        );
    }
}

impl Json for Sections {
    fn json(&self, out: &mut String) {
        fields!(out,
            "system" => self.system, "pinned" => self.pinned, "summary" => self.summary,
            "history" => self.history, "appended" => self.appended, "framing" => self.framing,
        );
    }
}

impl Json for CacheFigures {
    fn json(&self, out: &mut String) {
        fields!(out,
            "read" => self.read, "write" => self.write, "observedRead" => self.observed_read,
            "observedWrite" => self.observed_write, "cost" => self.cost, "sessionRelativeCost" => self.session_relative_cost,
        );
    }
}

impl Json for CalibrationFigures {
    fn json(&self, out: &mut String) {
        fields!(out, "overhead" => self.overhead, "ratio" => self.ratio, "mediaRatio" => self.media_ratio, "samples" => self.samples);
    }
}

impl Json for Ledger {
    fn json(&self, out: &mut String) {
        fields!(out,
            "request" => self.request, "budget" => self.budget, "tokens" => self.tokens, "rawTokens" => self.raw_tokens,
            "sections" => self.sections, "cache" => self.cache, "compaction" => self.compaction, "cut" => self.cut,
            "thinkingDropped" => self.thinking_dropped, "warnings" => self.warnings, "calibration" => self.calibration,
            "counter" => self.counter, "ms" => self.ms,
        );
    }
}
