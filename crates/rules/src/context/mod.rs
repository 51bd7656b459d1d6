//! The context manager (`ContextManager`): provider-native messages in, a bounded request
//! out, with the provider's prompt cache kept.
//!
//! The request is laid out stable-first: the host's system prompt and pinned texts, the
//! summary of what was folded away, then the conversation in order. Between two
//! compactions nothing already sent changes, so each request is the previous one plus
//! what was appended, and the provider reads all of it from its cache.
//!
//! A compaction runs when a request would pass the high water mark (or the host asks).
//! It brings the request down to the low water mark in one batch, cheapest step first:
//! 1. old outputs and texts are stored whole, then replaced by a one-line placeholder
//!    naming their store id, newest first, so the rewritten tail is as short as it can
//!    be; older ones are masked too only when what they save over the coming requests
//!    beats the cache they re-write ([`policy`]);
//! 2. then the oldest groups are summarized, in chunks whose prompts stay under a cap;
//! 3. then the oldest groups are dropped (the deterministic cut).
//!
//! A part too large for its share of the budget is stored and cut to its head and tail
//! the first time it is sent, so it never changes afterwards. A signed thinking block
//! after the first edit is dropped (its signature covers everything before it), and the
//! ledger says so; a compaction that would have to drop the thinking of an open tool loop
//! waits while the request still fits the budget.

mod answer;
mod apply;
mod build;
pub mod calibration;
pub mod clock;
mod codec;
pub mod config;
pub mod config_key;
mod fold;
pub mod gapped;
pub mod history;
pub mod index;
pub mod journal;
pub mod ledger;
pub mod migrate;
pub mod names;
pub mod need;
pub mod policy;
pub mod protect;
pub mod recall;
pub mod render;
pub mod shorten;
pub mod state;
mod steps;
pub mod transcript;
pub mod working;

use std::collections::{BTreeMap, VecDeque};

use calibration::Calibration;
pub use codec::Codec;
use config::Config;
use devs_context_errors::FieldError;
pub use history::{
    ByName, Call, History, Kind, Message, NewMessage, Part, Refused, Rejection, Role, Shown, Stored,
};
use ledger::{Ledger, Warning};
pub use need::{NEEDS, Need, NeedKind};
use steps::Phase;

/// What a build changed, to put back if the build fails.
#[derive(Debug, Clone)]
struct Journal {
    first_live: usize,
    anchor: Option<usize>,
    summary_tokens: f64,
    summary_version: u32,
    sent: usize,
    changed: Vec<(usize, Message)>,
    /// What a turn appends is taken back too: the history's length, the calls it answered.
    messages: usize,
    calls: usize,
    answered: Vec<usize>,
    calibration: Calibration,
    forced: bool,
    tail: (f64, u32),
    index: index::Index,
    /// Ids whose index line this build noted.
    lines: Vec<String>,
    /// Store ids this build gave parts, with what each part had before: a build taken back
    /// takes them back, as the journal that drops its events never had them.
    store_ids: Vec<((usize, usize), Option<String>)>,
    rearm_above: f64,
    /// The request last rendered (raw tokens, media tokens): what a usage report is about.
    rendered: (f64, f64),
    /// What the next record was to say (`set_aside`, `migrated`): a plan takes them into
    /// its record, and a build rolled back gives them back for the build tried again.
    set_aside: Vec<Warning>,
    migrated: Option<(u32, migrate::Why)>,
}

/// What the previous request held, in order, to tell how much of the next one repeats it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sent {
    /// `(key, tokens)` for each thing sent: the fixed texts, the summary, each message.
    pub keys: Vec<(Key, f64)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Fixed(u32),
    Summary(u32),
    Message(usize, u32),
    /// The marked results of calls left unanswered after message `0`.
    Unanswered(usize, u32),
    Tail(u32),
    /// The note for dropped turns, with the first turn kept.
    LeftOut(usize),
}

/// The manager: the conversation, what has been folded away, and the books.
#[derive(Debug, Clone)]
pub struct Manager {
    pub config: Config,
    /// What names the options in errors: `options`, or `options.bounded`.
    prefix: String,
    pub history: History,
    /// Messages before this one are summarized or dropped; a group boundary.
    pub first_live: usize,
    /// The message of the provider's newest compaction (`Kind::Compaction`), once what came
    /// before it is folded away: its group is pinned, sent before the summary.
    pub anchor: Option<usize>,
    /// Tokens of the summary of the messages before `first_live` (0: none).
    pub summary_tokens: f64,
    pub summary_version: u32,
    /// The system prompt and the pinned texts, with their framing.
    pub system_tokens: f64,
    pub pinned_tokens: f64,
    pub(crate) fixed_version: u32,
    /// The host's text after the conversation, and its version.
    pub tail_tokens: f64,
    pub(crate) tail_version: u32,
    pub calibration: Calibration,
    /// Messages before this one have been sent in a request.
    pub sent: usize,
    /// The previous request, for the prefix it shares with the next.
    pub last: Sent,
    /// Tokens appended between requests, lately: how fast the request grows.
    growth: VecDeque<f64>,
    /// Our count of the request as the previous build left it.
    last_raw: f64,
    /// Our count of the request last rendered: what the provider's report is about.
    rendered_raw: f64,
    /// Its images' and documents' tokens among them.
    pub(crate) rendered_media: f64,
    /// Store ids of stored parts, by `(message, part)`.
    pub store_ids: BTreeMap<(usize, usize), String>,
    /// The tokens of the index line of each text this manager stored, by store id.
    pub lines: BTreeMap<String, f64>,
    /// What the request names of the texts folded out of it.
    pub index: index::Index,
    /// Messages folded away whose transcript is not stored yet.
    unindexed: Option<(usize, usize)>,
    /// The store failed to take the index's listing in this build: not asked again.
    group_failed: bool,
    /// The host could not merge transcripts in this build: they are listed instead.
    merge_failed: bool,
    /// The recalls answered with a stored text, oldest first.
    pub recalls: Vec<recall::Answered>,
    /// Warnings about what happened between builds (a usage set aside), for the next record.
    set_aside: Vec<Warning>,
    /// A compaction that could not bring the request under the high water mark leaves the
    /// next one waiting until the request grows past this (0: armed at the mark).
    rearm_above: f64,
    /// The parts a compaction masks, next last.
    mask_queue: Vec<(usize, usize)>,
    /// The plan of the request being built, kept by [`Manager::commit`].
    pending_plan: Option<render::Plan>,
    /// The next build compacts whatever its size (the host asked).
    pub forced: bool,
    /// This build's compaction waits while the request fits (the host's `beforeCompaction`
    /// said so): set between a build's begin and its plan, cleared as it ends.
    defer: bool,
    /// This build folded away what came before the provider's compaction: the first live
    /// message and the summary's version it left, which void no thinking after it.
    anchored: Option<(usize, u32)>,
    /// The provider's compaction of this build let messages `from..to` go: the protected
    /// texts among them (and those the summary carried) are still to be restated after it
    /// ([`Need::Restate`]).
    restate: Option<(usize, usize)>,
    /// A fold's need held back while the user's words it takes away are stored first
    /// (`working::store`).
    folding: Option<Need>,
    /// The user texts this build stored for the working state, which names them.
    words_named: Vec<(usize, usize)>,
    /// The turns a failed summarizer was asked again (`Manager::summary_failed`).
    retried: Option<(usize, usize)>,
    /// This build asked whether a compaction that only masked rewrites the working state.
    rewritten: bool,
    /// Rebuilt from old data (`migrate`): its decisions and why, said by the next build.
    pub(crate) migrated: Option<(u32, migrate::Why)>,
    /// While data of earlier rules is replayed: what each of its builds came to as
    /// recorded, by request (`migrate::Recorded`). `None` otherwise; never in the state.
    pub(crate) expected: Option<BTreeMap<u64, migrate::Recorded>>,
    phase: Phase,
    pending: Option<Need>,
    summarizing: Option<(usize, usize)>,
    summary_target: usize,
    cut_target: f64,
    /// What the part being cut showed before the last cut: one that shows no fewer is the last.
    cut_last: f64,
    /// Parts no cut made smaller in this build: the squeeze passes them by.
    uncuttable: Vec<(usize, usize)>,
    squeezes: u32,
    /// The share the squeeze in flight cuts each part over it to, fixed when it starts (and
    /// again when a round of cuts left the request over): every part comes down to it.
    squeeze_level: Option<f64>,
    journal: Option<Journal>,
    /// What the rules replied to what the shell said on the way to an answer.
    pub(crate) told: need::Told,
    /// What this build did, for the ledger.
    pub record: Ledger,
    /// The last build committed compacted: the commits until the next build take no
    /// growth sample. In the state, so a manager restored there goes on as this one.
    pub last_compacted: bool,
    /// Requests built so far.
    pub requests: u64,
    /// The session's input cost so far, in uncached-token units, and its size.
    pub cost: ledger::Cost,
    /// The host's time of the next request and of the last one ([`clock`]).
    pub clock: clock::Clock,
}

impl Manager {
    /// `prefix` names the options in errors: `options`, or `options.bounded`.
    pub fn new(
        prefix: &str,
        config: Config,
        system_tokens: f64,
        pinned_tokens: f64,
    ) -> Result<Manager, FieldError> {
        config.check_fixed(prefix, system_tokens, pinned_tokens)?;
        Ok(Manager {
            config,
            prefix: prefix.to_string(),
            history: History::default(),
            first_live: 0,
            anchor: None,
            summary_tokens: 0.0,
            summary_version: 0,
            system_tokens,
            pinned_tokens,
            fixed_version: 0,
            tail_tokens: 0.0,
            tail_version: 0,
            calibration: Calibration::default(),
            sent: 0,
            last: Sent::default(),
            growth: VecDeque::new(),
            last_raw: 0.0,
            rendered_raw: 0.0,
            rendered_media: 0.0,
            store_ids: BTreeMap::new(),
            lines: BTreeMap::new(),
            index: index::Index::default(),
            unindexed: None,
            group_failed: false,
            merge_failed: false,
            recalls: Vec::new(),
            set_aside: Vec::new(),
            rearm_above: 0.0,
            mask_queue: Vec::new(),
            pending_plan: None,
            forced: false,
            defer: false,
            anchored: None,
            restate: None,
            folding: None,
            words_named: Vec::new(),
            retried: None,
            rewritten: false,
            migrated: None,
            expected: None,
            phase: Phase::Done,
            pending: None,
            summarizing: None,
            summary_target: 0,
            cut_target: 0.0,
            cut_last: 0.0,
            uncuttable: Vec::new(),
            squeezes: 0,
            squeeze_level: None,
            journal: None,
            told: need::Told::default(),
            record: Ledger::default(),
            last_compacted: false,
            requests: 0,
            cost: ledger::Cost::default(),
            clock: clock::Clock::default(),
        })
    }

    /// Appends messages, all or none.
    pub fn append(&mut self, batch: Vec<NewMessage>) -> Result<(), Refused> {
        self.append_paired(batch, &[])
    }

    /// Appends messages, all or none, pairing `by_name`'s id-less results with their calls
    /// ([`history::ByName`]). Returns the batch as paired: what a journal replays, with no
    /// candidates.
    pub fn append_by_name(
        &mut self,
        batch: Vec<NewMessage>,
        by_name: &[history::ByName],
    ) -> Result<Vec<NewMessage>, Refused> {
        let from = self.history.messages.len();
        let mut paired = batch.clone();
        self.append_paired(batch, by_name)?;
        if !by_name.is_empty() {
            self.history.settle(from, &mut paired);
        }
        Ok(paired)
    }

    fn append_paired(
        &mut self,
        batch: Vec<NewMessage>,
        by_name: &[history::ByName],
    ) -> Result<(), Refused> {
        let from = self.history.messages.len();
        self.history.append(batch, by_name)?;
        // A recall's result is its stored text already.
        if !self.recalls.is_empty() {
            let answered: Vec<u32> = self.history.messages[from..]
                .iter()
                .flat_map(|m| &m.parts)
                .filter(|p| p.kind == Kind::Result)
                .filter_map(|p| p.call)
                .collect();
            for c in answered {
                self.mark_recalled(c);
            }
        }
        if let Some(j) = self.journal.as_mut() {
            for m in &self.history.messages[from..] {
                j.answered.extend(
                    m.parts
                        .iter()
                        .filter(|p| p.kind == Kind::Result)
                        .filter_map(|p| p.call)
                        .map(|c| c as usize),
                );
            }
        }
        Ok(())
    }

    /// Tokens of a text the host sends after the conversation (a plan that changes each
    /// turn): last, so the prefix before it stays cached.
    pub fn set_tail(&mut self, tokens: f64) {
        if tokens != self.tail_tokens {
            self.tail_tokens = tokens;
            self.tail_version += 1;
        }
    }

    fn live(&self) -> std::ops::Range<usize> {
        self.first_live..self.history.messages.len()
    }

    /// Whether message 0 is the task: a user message of text, kept by the config. Most
    /// agents put the task there, and without it a request stops saying what to do. Not
    /// once the provider compacted the conversation: its compaction holds the task.
    pub fn pins_first(&self) -> bool {
        self.anchor.is_none()
            && self.config.keep_first
            && self.history.messages.first().is_some_and(|m| {
                m.role == Role::User && m.has_kind(Kind::Text) && !m.has_kind(Kind::Result)
            })
    }

    /// The messages a request sends before the summary, never folded away: the opening
    /// message (`pins_first`), or the group of the provider's newest compaction (`anchor`).
    pub fn pinned(&self) -> std::ops::Range<usize> {
        match self.anchor {
            Some(c) => c..self.history.next_group(c),
            None if self.pins_first() => 0..1,
            None => 0..0,
        }
    }

    /// The pinned messages, once the turns after them are folded away: sent before the
    /// summary, as they were first sent, so their place in the cache stays.
    pub fn opening(&self) -> std::ops::Range<usize> {
        let p = self.pinned();
        if self.first_live > p.start && !p.is_empty() {
            p
        } else {
            0..0
        }
    }

    /// Tokens that folding messages `from..to` takes out of the request: the pinned
    /// messages stay.
    pub fn fold_tokens(&self, from: usize, to: usize) -> f64 {
        let pinned = self.pinned();
        (from..to)
            .filter(|i| !pinned.contains(i))
            .map(|i| self.history.messages[i].tokens())
            .sum()
    }

    pub(crate) fn fixed_tokens(&self) -> f64 {
        self.system_tokens + self.pinned_tokens
    }

    /// Tokens of the request as it stands, by our counter.
    pub fn raw_tokens(&self) -> f64 {
        let messages: f64 = self.live().map(|i| self.history.messages[i].tokens()).sum();
        let opening: f64 = self
            .opening()
            .map(|i| self.history.messages[i].tokens())
            .sum();
        self.fixed_tokens()
            + opening
            + self.summary_tokens
            + messages
            + self.unanswered_tokens()
            + self.left_out_tokens()
            + self.index.tokens()
            + self.tail_tokens
    }

    /// Turns dropped without a summary leave a note in their place.
    pub fn left_out(&self) -> bool {
        self.folded_any() && self.summary_tokens == 0.0
    }

    /// Whether any message left the request: the pinned ones are still in it, and what
    /// came before the provider's compaction the provider reads no more.
    pub fn folded_any(&self) -> bool {
        let p = self.pinned();
        if self.anchor.is_some() {
            self.first_live > p.end
        } else {
            self.first_live > p.end.max(usize::from(!p.is_empty()))
        }
    }

    fn left_out_tokens(&self) -> f64 {
        if self.left_out() {
            render::LEFT_OUT_TOKENS
        } else {
            0.0
        }
    }

    /// Each call left without a result gets a marked one: a few tokens each.
    fn unanswered_tokens(&self) -> f64 {
        let pinned: usize = self.opening().map(|i| self.unanswered_in(i).len()).sum();
        (self.history.unanswered(self.first_live).count() + pinned) as f64
            * render::UNANSWERED_TOKENS
    }

    /// Tokens of the request's images and documents, by their rules: calibrated apart from
    /// the text's.
    pub fn media_tokens(&self) -> f64 {
        self.opening()
            .chain(self.live())
            .flat_map(|i| &self.history.messages[i].parts)
            .filter(|p| p.kind.media())
            .map(Part::visible_tokens)
            .sum()
    }

    /// The provider's count of the request as it stands with `extra` tokens of text more.
    pub fn predicted(&self, extra: f64) -> f64 {
        let media = self.media_tokens();
        self.calibration
            .predict_split(self.raw_tokens() - media + extra, media)
    }

    /// The request's tokens as the provider will count them, by the calibration.
    pub fn tokens(&self) -> f64 {
        self.predicted(0.0).ceil()
    }

    fn over(&self, share: f64) -> bool {
        self.tokens() > self.config.budget * share
    }

    fn fits(&self) -> bool {
        self.tokens() <= self.config.budget
    }

    /// Whether a build is in flight (between [`Manager::begin`] and its end).
    pub fn in_build(&self) -> bool {
        self.journal.is_some()
    }

    /// The plan the build in flight rendered, until it commits.
    pub fn pending_plan(&self) -> Option<&render::Plan> {
        self.pending_plan.as_ref()
    }

    /// What the build in flight asked of the host last, until answered.
    pub fn pending_need(&self) -> Option<Need> {
        self.pending
    }

    pub fn part(&self, message: usize, part: usize) -> &Part {
        &self.history.messages[message].parts[part]
    }

    pub fn store_id(&self, message: usize, part: usize) -> Option<&str> {
        self.store_ids.get(&(message, part)).map(String::as_str)
    }

    /// The host's message list was taken in anew (`Warning::HistoryRebuilt`): the next
    /// request's ledger says so.
    pub fn history_rebuilt(&mut self) {
        if !self.set_aside.contains(&Warning::HistoryRebuilt) {
            self.set_aside.push(Warning::HistoryRebuilt);
        }
    }

    /// Learns from the provider's count of the request last rendered. A count that cannot
    /// be about it is set aside, and the next request's ledger says so.
    pub fn observe(&mut self, reported: f64) -> Result<(), FieldError> {
        let before = self.calibration.clone();
        let taken = self
            .calibration
            .observe(self.rendered_raw, self.rendered_media, reported)?;
        // A report that would leave no room for a conversation (a running total, a usage of
        // another request, a wild number) cannot be about this one: it would wedge every
        // build after it, so it is set aside and the calibration stays what it was.
        let wedges = taken
            && self.calibration.predict(self.fixed_tokens())
                > self.config.budget * config::USAGE_ROOM_SHARE;
        if wedges {
            self.calibration = before;
        }
        if (!taken || wedges) && !self.set_aside.contains(&Warning::UsageSetAside) {
            self.set_aside.push(Warning::UsageSetAside);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
