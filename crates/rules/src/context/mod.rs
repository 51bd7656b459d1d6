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

pub mod calibration;
mod codec;
mod fold;
pub mod gapped;
pub mod history;
pub mod index;
pub mod journal;
pub mod ledger;
pub mod policy;
pub mod recall;
pub mod render;
pub mod state;

use std::collections::{BTreeMap, VecDeque};

use crate::base::args::{show_number, whole_number};
use calibration::Calibration;
use devs_context_errors::FieldError;
pub use history::{
    Call, History, Kind, Message, NewMessage, Part, Refused, Rejection, Role, Shown, Stored,
};
use ledger::{CalibrationFigures, Ledger, Sections, Span, Warning};

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
}

pub const DEFAULT_HIGH_WATER: f64 = 0.75;
pub const DEFAULT_LOW_WATER: f64 = 0.25;
pub const DEFAULT_RECENT_SHARE: f64 = 0.1;
pub const DEFAULT_PART_SHARE: f64 = 0.15;
pub const DEFAULT_SUMMARIZER_SHARE: f64 = 0.4;
pub const DEFAULT_SUMMARY_SHARE: f64 = 0.1;
/// Tokens a summarizer's instructions take, beyond the texts they carry.
pub const SUMMARIZER_OVERHEAD: f64 = 120.0;
/// The fixed texts (system prompt, pinned) may take at most this share of the budget.
pub const FIXED_SHARE: f64 = 0.5;
/// As the provider counts them (the calibration adds the host's own input), at most this.
pub const CALIBRATED_FIXED_SHARE: f64 = 0.75;

/// An option as the host gave it: `None` for the default.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Options {
    pub high_water: Option<f64>,
    pub low_water: Option<f64>,
    pub recent_share: Option<f64>,
    pub part_share: Option<f64>,
    pub summarizer_share: Option<f64>,
    pub keep_first: Option<bool>,
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
        Ok(Config {
            budget,
            high_water,
            low_water,
            recent_share,
            part_share,
            summarizer_share,
            summary_share: DEFAULT_SUMMARY_SHARE,
            keep_first: o.keep_first.unwrap_or(true),
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

/// What the host must do next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Need {
    /// Store the whole text of part `part` of message `message`; answer
    /// [`Manager::persisted`].
    Persist { message: usize, part: usize },
    /// Show the part as a placeholder; answer [`Manager::measured`] with its tokens.
    Placeholder { message: usize, part: usize },
    /// Show the part cut to `head` and `tail` UTF-16 units; answer [`Manager::measured`].
    Cut {
        message: usize,
        part: usize,
        head: usize,
        tail: usize,
    },
    /// Summarize messages `from..to` with the summary so far; answer
    /// [`Manager::summarized`] or [`Manager::summary_failed`].
    Summarize { from: usize, to: usize },
    /// Messages `from..to` left the request: store their transcript (as shown) and write
    /// its index line; answer [`Manager::span_persisted`].
    PersistSpan { from: usize, to: usize },
    /// The index passed its share: store the listing of its oldest `count` entries (after
    /// the listing before them, if any) and write its line; answer
    /// [`Manager::group_persisted`].
    PersistGroup { count: usize },
    /// The index is past its share with its outputs listed away: store the oldest `count`
    /// transcripts not merged yet (`index.merged`), read back and joined, as one, and write
    /// its line; answer [`Manager::spans_merged`].
    MergeSpans { count: usize },
    /// The request fits: render it ([`render`]).
    Done,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    /// Parts never sent that are too large for their share are cut.
    Fresh,
    /// Old parts become placeholders.
    Mask,
    Summarize,
    Drop,
    Squeeze,
    Done,
}

/// What a build changed, to put back if the build fails.
#[derive(Debug, Clone)]
struct Journal {
    first_live: usize,
    summary_tokens: f64,
    summary_version: u32,
    sent: usize,
    changed: Vec<(usize, Message)>,
    /// What a turn appends is taken back too: the history's length, and the calls its
    /// results answered.
    messages: usize,
    calls: usize,
    answered: Vec<usize>,
    calibration: Calibration,
    forced: bool,
    tail: (f64, u32),
    index: index::Index,
    /// Ids whose index line this build noted.
    lines: Vec<String>,
    rearm_above: f64,
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
    pub history: History,
    /// Messages before this one are summarized or dropped; a group boundary.
    pub first_live: usize,
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
    phase: Phase,
    pending: Option<Need>,
    summarizing: Option<(usize, usize)>,
    summary_target: usize,
    cut_target: f64,
    squeezes: u32,
    journal: Option<Journal>,
    /// What this build did, for the ledger.
    pub record: Ledger,
    /// Requests built so far.
    pub requests: u64,
    /// The session's input cost so far, in uncached-token units, and its size.
    pub cost: ledger::Cost,
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
            history: History::default(),
            first_live: 0,
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
            phase: Phase::Done,
            pending: None,
            summarizing: None,
            summary_target: 0,
            cut_target: 0.0,
            squeezes: 0,
            journal: None,
            record: Ledger::default(),
            requests: 0,
            cost: ledger::Cost::default(),
        })
    }

    /// Appends messages, all or none.
    pub fn append(&mut self, batch: Vec<NewMessage>) -> Result<(), Refused> {
        let from = self.history.messages.len();
        self.history.append(batch)?;
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
    /// agents put the task there, and without it a request stops saying what to do.
    pub fn pins_first(&self) -> bool {
        self.config.keep_first
            && self.history.messages.first().is_some_and(|m| {
                m.role == Role::User && m.has_kind(Kind::Text) && !m.has_kind(Kind::Result)
            })
    }

    /// The opening message, once the turns after it are folded away: sent before the
    /// summary, as it was first sent, so its place in the cache stays.
    pub fn opening(&self) -> Option<usize> {
        (self.first_live > 0 && self.pins_first()).then_some(0)
    }

    /// Tokens that folding messages `from..to` takes out of the request: the opening
    /// message stays.
    pub fn fold_tokens(&self, from: usize, to: usize) -> f64 {
        let from = if from == 0 && self.pins_first() {
            1
        } else {
            from
        };
        (from..to).map(|i| self.history.messages[i].tokens()).sum()
    }

    fn fixed_tokens(&self) -> f64 {
        self.system_tokens + self.pinned_tokens
    }

    /// Tokens of the request as it stands, by our counter.
    pub fn raw_tokens(&self) -> f64 {
        let messages: f64 = self.live().map(|i| self.history.messages[i].tokens()).sum();
        let opening = self
            .opening()
            .map_or(0.0, |i| self.history.messages[i].tokens());
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

    /// Whether any message left the request: the kept opening message is still in it.
    pub fn folded_any(&self) -> bool {
        self.first_live > usize::from(self.pins_first())
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
        self.history.unanswered(self.first_live).count() as f64 * render::UNANSWERED_TOKENS
    }

    /// The request's tokens as the provider will count them, by the calibration.
    pub fn tokens(&self) -> f64 {
        self.calibration.predict(self.raw_tokens()).ceil()
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

    /// Starts a build: what it changes can be put back by [`Manager::rollback`].
    pub fn begin(&mut self) {
        self.journal = Some(Journal {
            first_live: self.first_live,
            summary_tokens: self.summary_tokens,
            summary_version: self.summary_version,
            sent: self.sent,
            changed: Vec::new(),
            messages: self.history.messages.len(),
            calls: self.history.calls.len(),
            answered: Vec::new(),
            calibration: self.calibration.clone(),
            forced: self.forced,
            tail: (self.tail_tokens, self.tail_version),
            index: self.index.clone(),
            lines: Vec::new(),
            rearm_above: self.rearm_above,
        });
    }

    /// The build went through: the request is the one sent, and the books are kept.
    pub fn commit(&mut self) {
        if let Some(plan) = self.pending_plan.take() {
            self.last = plan.sent;
            self.requests += 1;
            self.cost.units += self.record.cache.cost;
            self.cost.tokens += self.record.tokens;
        }
        let raw = self.raw_tokens();
        if self.record.compaction.is_none() && self.requests > 1 {
            if self.growth.len() == GROWTH_SAMPLES {
                self.growth.pop_front();
            }
            self.growth.push_back((raw - self.last_raw).max(0.0));
        }
        self.last_raw = raw;
        self.journal = None;
        // What the build folded away is never read again: only now, since a rollback
        // would have brought it back.
        self.history.forget(self.first_live, self.pins_first());
    }

    /// Tokens each request adds, lately (0 until a few are known).
    pub fn growth(&self) -> f64 {
        if self.growth.is_empty() {
            0.0
        } else {
            self.growth.iter().sum::<f64>() / self.growth.len() as f64
        }
    }

    /// The build failed: everything is as it was before [`Manager::begin`].
    pub fn rollback(&mut self) {
        let Some(j) = self.journal.take() else { return };
        for (i, m) in j.changed.into_iter().rev() {
            if i < j.messages {
                self.history.messages[i] = m;
            }
        }
        self.history.messages.truncate(j.messages);
        self.store_ids.retain(|&(m, _), _| m < j.messages);
        self.history.calls.truncate(j.calls);
        for n in j.answered {
            if n < j.calls {
                self.history.calls[n].answer = None;
            }
        }
        self.calibration = j.calibration;
        self.forced = j.forced;
        (self.tail_tokens, self.tail_version) = j.tail;
        self.first_live = j.first_live;
        self.summary_tokens = j.summary_tokens;
        self.summary_version = j.summary_version;
        self.sent = j.sent;
        self.index = j.index;
        self.rearm_above = j.rearm_above;
        for id in j.lines {
            self.lines.remove(&id);
        }
        self.unindexed = None;
        self.pending = None;
        self.pending_plan = None;
        self.summarizing = None;
        self.mask_queue.clear();
        self.phase = Phase::Done;
    }

    /// Records message `i` as it is, before a change, when a build is in flight.
    fn touch(&mut self, i: usize) {
        if let Some(j) = self.journal.as_mut()
            && !j.changed.iter().any(|(k, _)| *k == i)
        {
            j.changed.push((i, self.history.messages[i].clone()));
        }
    }

    fn part_mut(&mut self, message: usize, part: usize) -> &mut Part {
        self.touch(message);
        let m = &mut self.history.messages[message];
        m.version += 1;
        &mut m.parts[part]
    }

    pub fn part(&self, message: usize, part: usize) -> &Part {
        &self.history.messages[message].parts[part]
    }

    /// Plans the request: returns what the host must do first. Refused when the fixed
    /// texts, as the provider counts them, leave no room for the conversation.
    pub fn plan(&mut self) -> Result<Need, FieldError> {
        let fixed = self.fixed_tokens();
        let predicted = self.calibration.predict(fixed);
        let room = self.config.budget * CALIBRATED_FIXED_SHARE;
        if predicted > room {
            let c = &self.calibration;
            return Err(FieldError::range_error(
                "calibration",
                format!(
                    "(overhead {}, ratio {}, from {} usage reports) puts the system prompt and pinned texts at {} tokens as the provider counts them ({} by ours), more than 3/4 of the budget of {}: the host's own input (tool definitions, its system prompt) outgrew the budget. Call resetCalibration() to fit again from new reports, or set calibrate: false",
                    show_number(c.overhead.round()),
                    show_number((c.ratio * 1000.0).round() / 1000.0),
                    c.samples(),
                    show_number(predicted.ceil()),
                    show_number(fixed),
                    show_number(self.config.budget)
                ),
            ));
        }
        self.record = Ledger::default();
        for w in self.set_aside.drain(..) {
            self.record.warn(w);
        }
        self.record.before = self.tokens();
        self.squeezes = 0;
        self.group_failed = false;
        self.merge_failed = false;
        self.phase = Phase::Fresh;
        Ok(self.advance())
    }

    /// The host stored the part's whole text as `id` (`None`: the store failed), and wrote
    /// its index line of `line_tokens` (NaN: not counted).
    pub fn persisted(&mut self, id: Option<String>, line_tokens: f64) -> Need {
        if let Some(Need::Persist { message, part }) = self.pending.take() {
            self.touch(message);
            if let Some(id) = &id {
                self.note_line(id, line_tokens);
            }
            // Storing changes nothing sent: the version stays.
            let stored = &mut self.history.messages[message].parts[part].stored;
            match id {
                Some(id) => {
                    *stored = Stored::Yes;
                    self.store_ids.insert((message, part), id);
                    self.record.stored.push((message, part));
                }
                None => {
                    *stored = Stored::Failed;
                    self.record.warn(Warning::StoreFailed);
                }
            }
        }
        self.advance()
    }

    pub fn store_id(&self, message: usize, part: usize) -> Option<&str> {
        self.store_ids.get(&(message, part)).map(String::as_str)
    }

    pub fn measured(&mut self, tokens: f64) -> Need {
        match self.pending.take() {
            Some(Need::Placeholder { message, part }) => {
                let p = self.part_mut(message, part);
                p.shown = Shown::Placeholder;
                p.shown_tokens = tokens;
                self.record.masked.push((message, part));
            }
            Some(Need::Cut {
                message,
                part,
                head,
                tail,
            }) => {
                let cap = self.cut_target;
                if tokens > cap && head + tail > 2 {
                    // Denser than the estimate: cut again, by the measured ratio.
                    let scale = (cap / tokens) * 0.95;
                    let need = Need::Cut {
                        message,
                        part,
                        head: (head as f64 * scale) as usize,
                        tail: (tail as f64 * scale) as usize,
                    };
                    self.pending = Some(need);
                    return need;
                }
                let p = self.part_mut(message, part);
                p.shown = Shown::Cut { head, tail };
                p.shown_tokens = tokens;
                self.record.cut_parts.push((message, part));
                if self.phase == Phase::Done && !self.fits() {
                    self.phase = Phase::Squeeze;
                }
            }
            _ => {}
        }
        self.advance()
    }

    /// `tokens`: the summary message as sent (the summary in its wrapper), with its framing.
    pub fn summarized(&mut self, tokens: f64) -> Need {
        let Some((from, to)) = self.summarizing.take() else {
            return self.advance();
        };
        self.pending = None;
        if tokens > self.config.summary_cap() {
            self.record.warn(Warning::SummaryOverCap);
            self.phase = Phase::Drop;
            return self.advance();
        }
        self.summary_tokens = tokens;
        self.summary_version += 1;
        self.first_live = to;
        self.folded(from, to);
        let span = self
            .record
            .compaction_mut()
            .summarized
            .get_or_insert(Span { from, to });
        span.to = to;
        self.advance()
    }

    pub fn summary_failed(&mut self) -> Need {
        self.summarizing = None;
        self.pending = None;
        self.record.warn(Warning::SummarizerFailed);
        self.phase = Phase::Drop;
        self.advance()
    }

    /// The host has no summarizer: the oldest groups are dropped instead.
    pub fn no_summarizer(&mut self) -> Need {
        if self.summarizing.take().is_some() {
            let c = self.record.compaction_mut();
            c.summarizer_chunks = c.summarizer_chunks.saturating_sub(1);
        }
        self.pending = None;
        self.phase = Phase::Drop;
        self.advance()
    }

    fn advance(&mut self) -> Need {
        let need = self.next_need();
        self.pending = Some(need);
        need
    }

    fn next_need(&mut self) -> Need {
        loop {
            if let Some(need) = self.next_index_need() {
                return need;
            }
            match self.phase {
                Phase::Fresh => {
                    if let Some(need) = self.next_fresh_cut() {
                        return need;
                    }
                    self.phase = if self.should_compact() {
                        self.start_compaction();
                        Phase::Mask
                    } else if self.fits() {
                        Phase::Done
                    } else {
                        Phase::Squeeze
                    };
                }
                Phase::Mask => {
                    if let Some(need) = self.next_mask() {
                        return need;
                    }
                    self.phase = if self.over(self.config.low_water) {
                        Phase::Summarize
                    } else {
                        Phase::Done
                    };
                }
                Phase::Summarize => {
                    if !self.over(self.config.low_water) {
                        self.phase = Phase::Done;
                        continue;
                    }
                    if let Some(need) = self.next_summary() {
                        return need;
                    }
                    self.phase = Phase::Drop;
                }
                Phase::Drop => {
                    self.drop_oldest();
                    self.phase = Phase::Squeeze;
                }
                Phase::Squeeze => {
                    self.phase = Phase::Done;
                    if let Some(need) = self.squeeze() {
                        return need;
                    }
                }
                Phase::Done => {
                    self.finish();
                    return Need::Done;
                }
            }
        }
    }

    /// Step 0: a part never sent that is over its share is stored, then cut.
    fn next_fresh_cut(&mut self) -> Option<Need> {
        let cap = self.config.part_cap();
        let from = self.sent.max(self.first_live);
        for i in from..self.history.messages.len() {
            for (k, p) in self.history.messages[i].parts.iter().enumerate() {
                if !p.kind.editable() || p.shown != Shown::Whole || p.tokens <= cap {
                    continue;
                }
                if p.stored == Stored::No {
                    return Some(Need::Persist {
                        message: i,
                        part: k,
                    });
                }
                self.cut_target = cap;
                return Some(cut_to(i, k, p, cap));
            }
        }
        None
    }

    fn should_compact(&mut self) -> bool {
        if self.forced {
            return true;
        }
        if !self.over(self.config.high_water) {
            return false;
        }
        // The last compaction left the request over the mark: it would only do the same
        // again, every request, until the request grows (the budget still holds: a request
        // past it is squeezed).
        if self.tokens() <= self.rearm_above && self.fits() {
            return false;
        }
        // An open tool loop whose thinking an edit would invalidate: wait while the
        // request still fits the budget.
        if self.fits() && self.open_loop_thinking().is_some() {
            self.record.warn(Warning::Deferred);
            return false;
        }
        true
    }

    /// The assistant message of an open tool loop, when it holds thinking: the request
    /// must carry that thinking unchanged.
    fn open_loop_thinking(&self) -> Option<usize> {
        let last = self.history.messages.last()?;
        let group = last.group;
        let h = &self.history;
        let open = last.role != Role::Assistant && h.group_has(group, Role::Assistant, Kind::Call);
        (open && h.group_has(group, Role::Assistant, Kind::Thinking)).then_some(group)
    }

    fn start_compaction(&mut self) {
        let before = self.tokens();
        let c = self.record.compaction_mut();
        c.trigger = if self.forced {
            ledger::Trigger::Asked
        } else {
            ledger::Trigger::HighWater
        };
        c.before = before;
        c.high_water = self.config.budget * self.config.high_water;
        c.low_water = self.config.budget * self.config.low_water;
        self.forced = false;
        let plan = policy::mask_plan(self, self.growth());
        self.record.compaction_mut().edit_from = plan.first;
        // Taken from the end: the newest first.
        self.mask_queue = plan.parts;
    }

    /// Step 1: the parts the policy chose become placeholders, each stored first.
    fn next_mask(&mut self) -> Option<Need> {
        while let Some(&(message, part)) = self.mask_queue.last() {
            let p = *self.part(message, part);
            if p.shown == Shown::Placeholder
                || p.stored == Stored::Failed
                || message < self.first_live
            {
                self.mask_queue.pop();
                continue;
            }
            if p.stored == Stored::No {
                return Some(Need::Persist { message, part });
            }
            self.mask_queue.pop();
            return Some(Need::Placeholder { message, part });
        }
        None
    }

    /// Step 2: the oldest live groups, in chunks, folded into the summary.
    fn next_summary(&mut self) -> Option<Need> {
        let newest = self.history.messages.last()?.group;
        if self.first_live >= newest {
            return None;
        }
        if self.summarizing.is_none()
            && self
                .record
                .compaction
                .as_ref()
                .is_none_or(|c| c.summarized.is_none())
        {
            self.summary_target = policy::summary_end(self, newest);
        }
        if self.first_live >= self.summary_target {
            // The summary came out larger than expected: fold the next groups too.
            self.summary_target = policy::summary_end(self, newest);
            if self.first_live >= self.summary_target {
                return None;
            }
        }
        let cap = self.config.summarizer_cap() - SUMMARIZER_OVERHEAD - self.summary_tokens;
        let mut to = self.first_live;
        let mut used = 0.0;
        while to < self.summary_target {
            let end = self.history.next_group(to);
            let t = self.fold_tokens(to, end);
            if to > self.first_live && used + t > cap {
                break;
            }
            used += t;
            to = end;
        }
        let prompt = SUMMARIZER_OVERHEAD + self.summary_tokens + used;
        let c = self.record.compaction_mut();
        c.summarizer_chunks += 1;
        c.largest_summarizer_prompt = c.largest_summarizer_prompt.max(prompt);
        self.summarizing = Some((self.first_live, to));
        Some(Need::Summarize {
            from: self.first_live,
            to,
        })
    }

    /// Step 3: the oldest groups go until the request is under the low water mark (or
    /// only the newest group is left); then the summary, if it must.
    fn drop_oldest(&mut self) {
        let start = self.first_live;
        let Some(newest) = self.history.messages.last().map(|m| m.group) else {
            return;
        };
        // What the index gains for the turns dropped counts against the low water mark.
        let low = self.config.budget * self.config.low_water;
        while self.first_live < newest
            && self
                .calibration
                .predict(self.raw_tokens() + self.index_growth(start, self.first_live))
                .ceil()
                > low
        {
            self.first_live = self.history.next_group(self.first_live);
        }
        if !self.fits() && self.summary_tokens > 0.0 {
            self.summary_tokens = 0.0;
            self.summary_version += 1;
            self.record.warn(Warning::SummaryDropped);
        }
        let pinned = self.pins_first();
        let user_text = (start..self.first_live).any(|i| {
            let m = &self.history.messages[i];
            m.role == Role::User && m.has_kind(Kind::Text) && !(i == 0 && pinned)
        });
        if user_text {
            self.record.warn(Warning::UserTextDropped);
        }
        if self.first_live > start {
            self.record.compaction_mut().dropped = Some(Span {
                from: start,
                to: self.first_live,
            });
            self.folded(start, self.first_live);
        }
    }

    /// When the newest group alone is still too much: its largest part is cut to the room
    /// left.
    fn squeeze(&mut self) -> Option<Need> {
        if self.fits() || self.squeezes >= MAX_SQUEEZES {
            return None;
        }
        self.squeezes += 1;
        let over = self
            .calibration
            .ours_for(self.tokens() - self.config.budget);
        let (message, part) = self.largest_live_part()?;
        let p = *self.part(message, part);
        // Each cut keeps a head, a tail and a marker: a part at that size is done, and the
        // next largest goes next.
        let target = (p.shown_tokens - over - 1.0).max(MIN_CUT_TOKENS);
        if p.stored == Stored::No {
            self.squeezes -= 1;
            return Some(Need::Persist { message, part });
        }
        self.record.warn(Warning::Squeezed);
        self.cut_target = target;
        Some(cut_to(message, part, &p, target))
    }

    fn largest_live_part(&self) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize, f64)> = None;
        for i in self.opening().into_iter().chain(self.live()) {
            for (k, p) in self.history.messages[i].parts.iter().enumerate() {
                if p.kind.editable()
                    && p.shown != Shown::Placeholder
                    && p.shown_tokens > MIN_CUT_TOKENS * 1.5
                    && p.units >= 4
                    && best.is_none_or(|b| p.shown_tokens > b.2)
                {
                    best = Some((i, k, p.shown_tokens));
                }
            }
        }
        best.map(|(i, k, _)| (i, k))
    }

    /// The request is final: thinking that an edit invalidated is dropped.
    fn finish(&mut self) {
        let open_loop = self.open_loop_thinking();
        let dropped = policy::drop_invalidated_thinking(self, self.edit_point());
        self.record.thinking_dropped = dropped;
        let dropped_in = |g: usize| {
            self.history.messages[g..]
                .iter()
                .take_while(|m| m.group == g)
                .any(|m| {
                    m.parts
                        .iter()
                        .any(|p| p.kind == Kind::Thinking && p.shown == Shown::Dropped)
                })
        };
        if dropped > 0 && open_loop.is_some_and(dropped_in) {
            self.record.warn(Warning::OpenLoopThinkingDropped);
        }
    }

    /// Where this build first changed what an earlier request held: `(message, part)`, the
    /// first position after the change; every thinking block from it on is invalid. A new summary, or messages folded away,
    /// change everything.
    fn edit_point(&self) -> Option<(usize, usize)> {
        let j = self.journal.as_ref()?;
        if j.summary_version != self.summary_version || j.first_live != self.first_live {
            return Some((self.first_live, 0));
        }
        j.changed
            .iter()
            .filter_map(|(i, old)| {
                let new = &self.history.messages[*i];
                old.parts
                    .iter()
                    .zip(&new.parts)
                    .position(|(a, b)| a.shown != b.shown || a.shown_tokens != b.shown_tokens)
                    .map(|k| (*i, k + 1))
            })
            .min()
    }

    /// The request to send, as a plan ([`render::Plan`]), and its ledger record.
    /// `has_fixed`: the host sends a system prompt or pinned texts.
    pub fn render(&mut self, has_fixed: bool) -> render::Plan {
        let plan = render::plan(self, has_fixed);
        let tokens = self.tokens();
        let raw = self.raw_tokens();
        self.rendered_raw = raw;
        let read = if plan.prefix > 0.0 {
            self.calibration.predict(plan.prefix).min(tokens)
        } else {
            0.0
        };
        let write = tokens - read;
        let cost = ledger::Cost::of(read, write);
        let so_far = ledger::Cost {
            units: self.cost.units + cost,
            tokens: self.cost.tokens + tokens,
        };
        let sections = self.sections();
        let r = &mut self.record;
        r.request = self.requests + 1;
        r.budget = self.config.budget;
        r.tokens = tokens;
        r.raw_tokens = raw;
        r.cache = ledger::CacheFigures {
            read,
            write,
            observed_read: None,
            observed_write: None,
            cost,
            session_relative_cost: so_far.relative(),
        };
        r.cut = r.cut_parts.len();
        r.calibration = CalibrationFigures {
            overhead: self.calibration.overhead,
            ratio: self.calibration.ratio,
            samples: self.calibration.samples(),
        };
        r.sections = sections;
        if let Some(c) = r.compaction.as_mut() {
            self.rearm_above = if tokens > c.high_water {
                tokens + self.config.budget * REARM_GROWTH
            } else {
                0.0
            };
            c.after = tokens;
            c.below_trigger = c.high_water - tokens;
            c.kept = Some(Span {
                from: self.first_live,
                to: self.history.messages.len(),
            });
            c.masked = r
                .masked
                .iter()
                .filter_map(|k| self.store_ids.get(k).cloned())
                .collect();
        }
        self.sent = self.history.messages.len();
        self.pending_plan = Some(plan.clone());
        plan
    }

    /// Tokens per section of the request as planned, adding up to [`Manager::raw_tokens`].
    pub fn sections(&self) -> Sections {
        let (mut history, mut appended, mut framing) = (0.0, 0.0, 0.0);
        let sent_before = self.journal.as_ref().map_or(self.sent, |j| j.sent);
        for i in self.opening().into_iter().chain(self.live()) {
            let m = &self.history.messages[i];
            let parts: f64 = m.parts.iter().map(Part::visible_tokens).sum();
            framing += m.framing;
            if i >= sent_before {
                appended += parts
            } else {
                history += parts
            }
        }
        framing += self.unanswered_tokens() + self.left_out_tokens();
        Sections {
            system: self.system_tokens,
            // The host's text after the conversation is pinned too: never cut.
            pinned: self.pinned_tokens + self.tail_tokens,
            summary: self.summary_tokens + self.index.tokens(),
            history,
            appended,
            framing,
        }
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
        if !self.calibration.observe(self.rendered_raw, reported)?
            && !self.set_aside.contains(&Warning::UsageSetAside)
        {
            self.set_aside.push(Warning::UsageSetAside);
        }
        Ok(())
    }
}

/// Cuts a build may make to fit the newest group, part after part.
const MAX_SQUEEZES: u32 = 256;
/// Tokens a squeezed part keeps: a head, a tail and the marker between.
const MIN_CUT_TOKENS: f64 = 24.0;

/// After a compaction that ended over the high water mark, the request grows by this share
/// of the budget before the next.
const REARM_GROWTH: f64 = 0.05;

/// Growth samples kept.
const GROWTH_SAMPLES: usize = 8;

/// A cut of `part` to about `target` tokens: units in proportion, two thirds head and one
/// third tail.
fn cut_to(message: usize, part: usize, p: &Part, target: f64) -> Need {
    let keep = ((p.units as f64) * (target / p.tokens.max(1.0)) * 0.9) as usize;
    let head = keep * 2 / 3;
    Need::Cut {
        message,
        part,
        head,
        tail: keep - head,
    }
}

#[cfg(test)]
mod tests;
