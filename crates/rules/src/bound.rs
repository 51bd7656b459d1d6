//! The bounded prompt (`AgentRunner`'s `bounded` option): every prompt the runner sends is
//! at most the budget, by the runner's counter, on every turn.
//!
//! The history is a list of items: a user message, an assistant message, or a tool call
//! with its output (one item, so a call and its output are never apart). Pinned content
//! (the goal, the plan, the specs, the host's pins) is never summarized or cut. When the
//! prompt would not fit, the cheapest step runs first, the LLM last:
//! 1. an output that has left Recent Past becomes a one-line placeholder naming the call
//!    and the store id of the raw output, which is persisted first;
//! 2. a part (a message, a call, an output) larger than its share is cut, head and tail;
//! 3. the oldest items are summarized, in chunks whose prompts stay under a cap;
//! 4. the oldest items are dropped (the deterministic cut), the newest item never.
//!
//! Token counts of each part are taken once, when the part is first shown, and kept here.
//! A prompt's count is the sum of its parts plus their framing, each join counted as one
//! more token so that the sum never falls below a count of the whole text.

use super::args::{FieldError, show_number};
use super::calibration::Calibration;
use super::cut::Utf16Text;
use super::frame::Pieces;
use super::text::{Probe, cut_end};

/// What a history item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    User,
    Assistant,
    Tool,
}

impl Kind {
    pub fn from_code(code: u8) -> Kind {
        match code {
            0 => Kind::User,
            1 => Kind::Assistant,
            _ => Kind::Tool,
        }
    }
}

/// How a part is shown in the prompt.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shown {
    Whole,
    /// Head and tail, in UTF-16 units, with a marker between them.
    Cut {
        head: usize,
        tail: usize,
    },
    /// A one-line placeholder naming the call and where the raw output is.
    Placeholder,
}

/// One part of an item: its text as the host holds it, and as it is shown.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Part {
    /// UTF-16 units and tokens of the whole text.
    pub units: usize,
    pub tokens: f64,
    pub shown: Shown,
    /// Tokens as shown (the cut or placeholder text, once the host has counted it).
    pub shown_tokens: f64,
}

impl Part {
    pub fn new(units: usize, tokens: f64) -> Part {
        Part {
            units,
            tokens,
            shown: Shown::Whole,
            shown_tokens: tokens,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Item {
    pub kind: Kind,
    pub turn: u32,
    /// The message, or the tool call.
    pub text: Part,
    /// The tool's output.
    pub output: Option<Part>,
    /// The raw output is in the store.
    pub persisted: bool,
    /// The raw output could not be stored: it can be cut, but not replaced by a placeholder.
    pub unstored: bool,
}

impl Item {
    fn shown_tokens(&self) -> f64 {
        self.text.shown_tokens + self.output.map_or(0.0, |o| o.shown_tokens)
    }
}

/// The options of the bound, as fractions of the budget where they scale with it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    pub budget: f64,
    /// Items whose outputs stay whole: Recent Past.
    pub recent_items: usize,
    /// A part may take at most this share of the budget.
    pub part_share: f64,
    /// No summarizer prompt exceeds this share of the budget.
    pub summarizer_share: f64,
    /// A summary may take at most this share of the budget.
    pub summary_share: f64,
}

pub const DEFAULT_RECENT_ITEMS: usize = 6;
pub const DEFAULT_PART_SHARE: f64 = 0.15;
pub const DEFAULT_SUMMARIZER_SHARE: f64 = 0.4;
pub const DEFAULT_SUMMARY_SHARE: f64 = 0.1;
/// Pinned content may take at most this share of the budget.
pub const PINNED_SHARE: f64 = 0.5;
/// Tokens of a section heading or an item's framing, with its joins.
pub const FRAMING_TOKENS: f64 = 12.0;
/// Tokens a summarizer's instructions take, beyond the texts they carry.
pub const SUMMARIZER_OVERHEAD: f64 = 120.0;

impl Config {
    /// `options` as a host gave them: `None` for each default.
    pub fn new(
        budget: f64,
        recent_items: Option<f64>,
        part_share: Option<f64>,
        summarizer_share: Option<f64>,
    ) -> Result<Config, FieldError> {
        super::args::whole_number("options.bounded.budget", budget, 1000)?;
        let share = |field: &str, v: Option<f64>, default: f64, max: f64| match v {
            None => Ok(default),
            Some(v) if v.is_finite() && v > 0.0 && v <= max => Ok(v),
            Some(v) => Err(FieldError::range_error(
                field,
                format!("must be in (0, {max}], got {}", show_number(v)),
            )),
        };
        let recent = match recent_items {
            None => DEFAULT_RECENT_ITEMS,
            Some(n) => super::args::whole_number("options.bounded.recentItems", n, 1)? as usize,
        };
        let part_share = share(
            "options.bounded.partShare",
            part_share,
            DEFAULT_PART_SHARE,
            0.25,
        )?;
        let summarizer_share = share(
            "options.bounded.summarizerShare",
            summarizer_share,
            DEFAULT_SUMMARIZER_SHARE,
            1.0,
        )?;
        // A chunk holds at least one item (two parts) and the summary so far.
        let least = 2.0 * part_share + DEFAULT_SUMMARY_SHARE;
        if summarizer_share < least {
            return Err(FieldError::range_error(
                "options.bounded.summarizerShare",
                format!(
                    "must be at least {} (two parts and a summary), got {}",
                    show_number(least),
                    show_number(summarizer_share)
                ),
            ));
        }
        Ok(Config {
            budget,
            recent_items: recent,
            part_share,
            summarizer_share,
            summary_share: DEFAULT_SUMMARY_SHARE,
        })
    }

    pub fn part_cap(&self) -> f64 {
        (self.budget * self.part_share).floor()
    }

    pub fn summarizer_cap(&self) -> f64 {
        (self.budget * self.summarizer_share).floor()
    }

    pub fn summary_cap(&self) -> f64 {
        (self.budget * self.summary_share).floor()
    }

    /// The pinned content, checked once: it must leave room for the conversation.
    pub fn check_pinned(&self, pinned_tokens: f64) -> Result<(), FieldError> {
        let room = (self.budget * PINNED_SHARE).floor();
        if pinned_tokens > room {
            return Err(FieldError::range_error(
                "options.bounded.budget",
                format!(
                    "of {} tokens cannot hold the pinned content: {} tokens pinned, at most {} allowed (half the budget)",
                    show_number(self.budget),
                    show_number(pinned_tokens),
                    show_number(room)
                ),
            ));
        }
        Ok(())
    }
}

/// Which part of an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    Text,
    Output,
}

/// What the host must do next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Need {
    /// Store the raw output of `item`; answer [`Bound::persisted`].
    Persist { item: usize },
    /// Show `item`'s output as a placeholder (see [`placeholder`]); answer
    /// [`Bound::measured`] with its tokens.
    Placeholder { item: usize },
    /// Show the part cut to `head` and `tail` units (see [`cut_text`]); answer
    /// [`Bound::measured`] with its tokens.
    Cut {
        item: usize,
        which: Which,
        head: usize,
        tail: usize,
    },
    /// Summarize items `from..to` with the summary so far (see [`summarizer_prompt`]);
    /// answer [`Bound::summarized`] with the new summary's tokens, or
    /// [`Bound::summary_failed`].
    Summarize { from: usize, to: usize },
    /// The prompt fits: render it with [`Bound::render`].
    Done,
}

/// The state a turn started from, and the items it changed.
#[derive(Debug, Clone)]
struct Journal {
    len: usize,
    first_live: usize,
    summary_tokens: f64,
    new_from: usize,
    calibration: Calibration,
    pinned_tokens: f64,
    changed: Vec<(usize, Item)>,
}

/// What a turn's planning did, for the ledger.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Steps {
    pub masked: Vec<usize>,
    pub cut: Vec<(usize, Which)>,
    /// Items summarized this turn, and the largest summarizer prompt.
    pub summarized: Option<(usize, usize)>,
    pub summarizer_chunks: usize,
    pub largest_summarizer_prompt: f64,
    /// Items dropped this turn.
    pub dropped: Option<(usize, usize)>,
    pub warnings: Vec<&'static str>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    Mask,
    Cut,
    Summarize,
    Drop,
    Squeeze,
    Done,
}

/// The bounded history of one runner.
#[derive(Debug, Clone)]
pub struct Bound {
    pub config: Config,
    pub pinned_tokens: f64,
    pub items: Vec<Item>,
    /// Items before this one are summarized or dropped.
    pub first_live: usize,
    /// Tokens of the running summary of the items before `first_live` (0: none).
    pub summary_tokens: f64,
    pub calibration: Calibration,
    /// Items added since the last prompt: this turn's new input.
    pub new_from: usize,
    phase: Phase,
    pending: Option<Need>,
    /// The summary's span while a summary is being made: items `from..to` of the chunk.
    summarizing: Option<(usize, usize)>,
    summary_target: usize,
    /// The tokens a part being cut must come under.
    cut_target: f64,
    /// Squeezes this turn: a few at most, however the host's counts come out.
    squeezes: u8,
    /// What a turn in flight changed, to put back if the turn fails.
    journal: Option<Journal>,
    pub steps: Steps,
}

impl Bound {
    pub fn new(config: Config, pinned_tokens: f64) -> Result<Bound, FieldError> {
        config.check_pinned(pinned_tokens)?;
        Ok(Bound {
            config,
            pinned_tokens,
            items: Vec::new(),
            first_live: 0,
            summary_tokens: 0.0,
            calibration: Calibration::default(),
            new_from: 0,
            phase: Phase::Done,
            pending: None,
            summarizing: None,
            summary_target: 0,
            cut_target: 0.0,
            squeezes: 0,
            journal: None,
            steps: Steps::default(),
        })
    }

    /// Pinned content changed (a new plan): it must still leave room.
    pub fn repin(&mut self, pinned_tokens: f64) -> Result<(), FieldError> {
        self.config.check_pinned(pinned_tokens)?;
        self.pinned_tokens = pinned_tokens;
        Ok(())
    }

    /// Starts a turn: what it changes can be put back by [`Bound::rollback`].
    pub fn begin(&mut self) {
        self.journal = Some(Journal {
            len: self.items.len(),
            first_live: self.first_live,
            summary_tokens: self.summary_tokens,
            new_from: self.new_from,
            calibration: self.calibration.clone(),
            pinned_tokens: self.pinned_tokens,
            changed: Vec::new(),
        });
    }

    /// The turn went through: its changes stay.
    pub fn commit(&mut self) {
        self.journal = None;
    }

    /// The turn failed: the history is as it was before [`Bound::begin`].
    pub fn rollback(&mut self) {
        let Some(j) = self.journal.take() else { return };
        for (i, item) in j.changed.into_iter().rev() {
            if i < self.items.len() {
                self.items[i] = item;
            }
        }
        self.items.truncate(j.len);
        self.first_live = j.first_live;
        self.summary_tokens = j.summary_tokens;
        self.new_from = j.new_from;
        self.calibration = j.calibration;
        self.pinned_tokens = j.pinned_tokens;
    }

    /// Records `item` as it is, before a change, when a turn is in flight.
    fn touch(&mut self, item: usize) {
        if let Some(j) = self.journal.as_mut()
            && item < j.len
            && !j.changed.iter().any(|(i, _)| *i == item)
        {
            j.changed.push((item, self.items[item]));
        }
    }

    /// Adds an item, its parts counted once; returns its index.
    pub fn add(&mut self, kind: Kind, turn: u32, text: Part, output: Option<Part>) -> usize {
        self.items.push(Item {
            kind,
            turn,
            text,
            output,
            persisted: false,
            unstored: false,
        });
        self.items.len() - 1
    }

    /// Takes back the items added since `len` (a failed turn).
    pub fn truncate(&mut self, len: usize) {
        self.items.truncate(len.max(self.first_live));
        self.new_from = self.new_from.min(self.items.len());
    }

    fn live(&self) -> std::ops::Range<usize> {
        self.first_live..self.items.len()
    }

    /// Tokens of the prompt as it stands, by our counter: pinned, summary, live items and
    /// their framing.
    pub fn raw_tokens(&self) -> f64 {
        let items: f64 = self
            .live()
            .map(|i| self.items[i].shown_tokens() + FRAMING_TOKENS)
            .sum();
        let summary = if self.summary_tokens > 0.0 {
            self.summary_tokens + FRAMING_TOKENS
        } else {
            0.0
        };
        self.pinned_tokens + FRAMING_TOKENS * 2.0 + summary + items
    }

    /// The prompt's tokens as the provider will count them, by the calibration.
    pub fn prompt_tokens(&self) -> f64 {
        self.calibration.predict(self.raw_tokens()).ceil()
    }

    fn fits(&self) -> bool {
        self.prompt_tokens() <= self.config.budget
    }

    /// Starts planning the prompt of a turn. Refused when the pinned content alone, as
    /// the provider counts it, leaves no room for the conversation.
    pub fn plan(&mut self) -> Result<Need, FieldError> {
        let ours = self.pinned_tokens + FRAMING_TOKENS * 2.0;
        let pinned = self.calibration.predict(ours);
        let room = self.config.budget * 0.75;
        if pinned > room && ours <= room {
            // The option is right; what the provider reported outgrew it.
            let c = &self.calibration;
            return Err(FieldError::range_error(
                "calibration",
                format!(
                    "(overhead {}, ratio {}, from {} reports of usage.inputTokens) puts the pinned content at {} tokens as the provider counts them ({} by ours), more than 3/4 of the budget of {}: the host's own input (system prompt, tool definitions) outgrew the budget. Call resetCalibration() to fit again from new reports, or set calibrate: false",
                    show_number(c.overhead.round()),
                    show_number((c.ratio * 1000.0).round() / 1000.0),
                    c.samples(),
                    show_number(pinned.ceil()),
                    show_number(ours),
                    show_number(self.config.budget)
                ),
            ));
        }
        if pinned > room {
            return Err(FieldError::range_error(
                "options.bounded.budget",
                format!(
                    "of {} tokens cannot hold the pinned content: {} tokens as the provider counts them",
                    show_number(self.config.budget),
                    show_number(pinned.ceil())
                ),
            ));
        }
        self.steps = Steps::default();
        self.squeezes = 0;
        self.phase = Phase::Mask;
        Ok(self.advance())
    }

    pub fn persisted(&mut self, ok: bool) -> Need {
        if let Some(Need::Persist { item }) = self.pending.take() {
            self.touch(item);
            if ok {
                self.items[item].persisted = true;
            } else {
                self.items[item].unstored = true;
                self.steps
                    .warnings
                    .push("a raw output could not be stored: it is cut, not masked");
            }
        }
        self.advance()
    }

    pub fn measured(&mut self, tokens: f64) -> Need {
        match self.pending.take() {
            Some(Need::Placeholder { item }) => {
                self.touch(item);
                if let Some(o) = self.items[item].output.as_mut() {
                    o.shown = Shown::Placeholder;
                    o.shown_tokens = tokens;
                }
                self.steps.masked.push(item);
            }
            Some(Need::Cut {
                item,
                which,
                head,
                tail,
            }) => {
                let cap = self.cut_target;
                let part = self.part_mut(item, which);
                if tokens > cap && head + tail > 2 {
                    // The text is denser than the estimate: cut again, by the measured ratio.
                    let scale = (cap / tokens) * 0.95;
                    let (h, t) = (
                        (head as f64 * scale) as usize,
                        (tail as f64 * scale) as usize,
                    );
                    let need = Need::Cut {
                        item,
                        which,
                        head: h,
                        tail: t,
                    };
                    self.pending = Some(need);
                    return need;
                }
                part.shown = Shown::Cut { head, tail };
                part.shown_tokens = tokens;
                self.steps.cut.push((item, which));
                if self.phase == Phase::Done && !self.fits() {
                    // A squeeze that fell short: squeeze again, on what it left.
                    self.phase = Phase::Squeeze;
                }
            }
            _ => {}
        }
        self.advance()
    }

    pub fn summarized(&mut self, tokens: f64) -> Need {
        let Some((from, to)) = self.summarizing.take() else {
            return self.advance();
        };
        self.pending = None;
        if tokens > self.config.summary_cap() {
            self.steps
                .warnings
                .push("the summary was over its cap: the oldest items were dropped instead");
            self.phase = Phase::Drop;
            return self.advance();
        }
        self.summary_tokens = tokens;
        self.first_live = to;
        self.steps.summarized = Some(match self.steps.summarized {
            Some((start, _)) => (start, to),
            None => (from, to),
        });
        self.advance()
    }

    pub fn summary_failed(&mut self) -> Need {
        self.summarizing = None;
        self.pending = None;
        self.steps
            .warnings
            .push("the summarizer failed: the oldest items were dropped instead");
        self.phase = Phase::Drop;
        self.advance()
    }

    /// The host has no summarizer: instead of step 3, the oldest items are dropped.
    pub fn no_summarizer(&mut self) -> Need {
        if self.summarizing.take().is_some() {
            self.steps.summarizer_chunks -= 1;
            self.steps.largest_summarizer_prompt = 0.0;
        }
        self.pending = None;
        self.phase = Phase::Drop;
        self.advance()
    }

    fn part_mut(&mut self, item: usize, which: Which) -> &mut Part {
        let it = &mut self.items[item];
        match which {
            Which::Text => &mut it.text,
            Which::Output => it.output.as_mut().unwrap_or(&mut it.text),
        }
    }

    fn advance(&mut self) -> Need {
        let need = self.next_need();
        self.pending = Some(need);
        if need == Need::Done {
            self.new_from = self.items.len();
        }
        need
    }

    fn next_need(&mut self) -> Need {
        loop {
            match self.phase {
                Phase::Mask => {
                    if let Some(need) = self.next_mask() {
                        return need;
                    }
                    self.phase = Phase::Cut;
                }
                Phase::Cut => {
                    if let Some(need) = self.next_cut() {
                        return need;
                    }
                    self.phase = if self.fits() {
                        Phase::Done
                    } else {
                        Phase::Summarize
                    };
                }
                Phase::Summarize => {
                    if self.fits() {
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
                Phase::Done => return Need::Done,
            }
        }
    }

    /// Step 1: outputs older than Recent Past become placeholders, once stored.
    fn next_mask(&self) -> Option<Need> {
        let recent_from = self.items.len().saturating_sub(self.config.recent_items);
        (self.first_live..recent_from).find_map(|i| {
            let item = &self.items[i];
            let output = item.output?;
            if output.shown == Shown::Placeholder || item.unstored {
                return None;
            }
            Some(if item.persisted {
                Need::Placeholder { item: i }
            } else {
                Need::Persist { item: i }
            })
        })
    }

    /// Step 2: a part over its share is cut, head and tail; an output is stored first.
    fn next_cut(&mut self) -> Option<Need> {
        let cap = self.config.part_cap();
        for i in self.live() {
            let item = &self.items[i];
            for (which, part) in [(Which::Text, Some(item.text)), (Which::Output, item.output)] {
                let Some(part) = part else { continue };
                if part.shown != Shown::Whole || part.tokens <= cap {
                    continue;
                }
                if which == Which::Output && !item.persisted && !item.unstored {
                    return Some(Need::Persist { item: i });
                }
                self.cut_target = cap;
                return Some(self.cut_to(i, which, part, cap));
            }
        }
        None
    }

    /// A cut of `part` to about `target` tokens: units in proportion, two thirds head and
    /// one third tail.
    fn cut_to(&self, item: usize, which: Which, part: Part, target: f64) -> Need {
        let keep = ((part.units as f64) * (target / part.tokens.max(1.0)) * 0.9) as usize;
        let head = keep * 2 / 3;
        Need::Cut {
            item,
            which,
            head,
            tail: keep - head,
        }
    }

    /// After the drop, when the newest item alone is still too much (the provider counts
    /// more than we do): its largest part is cut to the room left.
    fn squeeze(&mut self) -> Option<Need> {
        if self.fits() || self.squeezes >= 8 {
            return None;
        }
        self.squeezes += 1;
        let newest = self.items.len().checked_sub(1)?;
        let item = self.items[newest];
        let (which, part) = match item.output {
            Some(o) if o.shown_tokens >= item.text.shown_tokens => (Which::Output, o),
            _ => (Which::Text, item.text),
        };
        let over = self
            .calibration
            .ours_for(self.prompt_tokens() - self.config.budget);
        let target = (part.shown_tokens - over - FRAMING_TOKENS).max(1.0);
        if part.units < 4 {
            return None;
        }
        self.steps
            .warnings
            .push("the newest item was cut further to fit the budget");
        self.cut_target = target;
        Some(self.cut_to(newest, which, part, target))
    }

    /// Step 3: the oldest live items, older than the newest, summarized in chunks.
    fn next_summary(&mut self) -> Option<Need> {
        let newest = self.items.len().checked_sub(1)?;
        if self.first_live >= newest {
            return None;
        }
        if self.summarizing.is_none() && self.steps.summarized.is_none() {
            self.summary_target = self.summary_end(newest);
        }
        if self.first_live >= self.summary_target {
            return None;
        }
        // A chunk: as many items from `first_live` as fit the cap with the summary so far.
        let cap = self.config.summarizer_cap() - SUMMARIZER_OVERHEAD - self.summary_tokens;
        let mut to = self.first_live;
        let mut used = 0.0;
        while to < self.summary_target {
            let t = self.items[to].shown_tokens() + FRAMING_TOKENS;
            if to > self.first_live && used + t > cap {
                break;
            }
            used += t;
            to += 1;
        }
        let prompt = SUMMARIZER_OVERHEAD + self.summary_tokens + used;
        self.steps.summarizer_chunks += 1;
        self.steps.largest_summarizer_prompt = self.steps.largest_summarizer_prompt.max(prompt);
        self.summarizing = Some((self.first_live, to));
        Some(Need::Summarize {
            from: self.first_live,
            to,
        })
    }

    /// Where the summarized span ends: the fewest oldest items whose replacement by a
    /// summary of at most its cap makes the prompt fit, never the newest item.
    fn summary_end(&self, newest: usize) -> usize {
        let over = self
            .calibration
            .ours_for(self.prompt_tokens() - self.config.budget);
        let room = self.config.summary_cap() - self.summary_tokens;
        let mut freed = -room;
        let mut end = self.first_live;
        while end < newest && freed < over {
            freed += self.items[end].shown_tokens() + FRAMING_TOKENS;
            end += 1;
        }
        end
    }

    /// Step 4: drop the oldest items (and then the summary) until the prompt fits.
    fn drop_oldest(&mut self) {
        let start = self.first_live;
        let newest = self.items.len().saturating_sub(1);
        while !self.fits() && self.first_live < newest {
            self.first_live += 1;
        }
        if !self.fits() && self.summary_tokens > 0.0 {
            self.summary_tokens = 0.0;
            self.steps
                .warnings
                .push("the summary was dropped to fit the budget");
        }
        if self.first_live > start {
            self.steps.dropped = Some((start, self.first_live));
        }
    }

    /// Tokens per section of the prompt as planned: `[pinned, summary, recent, outputs,
    /// new input, framing]`, adding up to [`Bound::raw_tokens`].
    pub fn sections(&self) -> [f64; 6] {
        let mut recent = 0.0;
        let mut outputs = 0.0;
        let mut new_input = 0.0;
        for i in self.live() {
            let item = &self.items[i];
            if i >= self.new_from {
                new_input += item.text.shown_tokens;
            } else {
                recent += item.text.shown_tokens;
            }
            outputs += item.output.map_or(0.0, |o| o.shown_tokens);
        }
        let framing = self.raw_tokens()
            - self.pinned_tokens
            - self.summary_tokens
            - recent
            - outputs
            - new_input;
        [
            self.pinned_tokens,
            self.summary_tokens,
            recent,
            outputs,
            new_input,
            framing,
        ]
    }
}

/// Host texts of a rendered prompt: the goal, the plan, the pins (joined), the summary,
/// then for each live item its text, its output as shown, and its tool's name.
pub const GOAL: usize = 0;
pub const PLAN: usize = 1;
pub const PINS: usize = 2;
pub const SUMMARY: usize = 3;
const FIRST_ITEM: usize = 4;

/// Host texts of live item `k` (counted from the first live item): text, output, tool name.
pub fn item_texts(k: usize) -> (usize, usize, usize) {
    let base = FIRST_ITEM + 3 * k;
    (base, base + 1, base + 2)
}

impl Bound {
    /// The prompt: `# Goal`, `# Plan`, `# Pinned` (when there are pins), `# Summary of
    /// earlier turns` (when there is one), then `# Conversation`, each item under its
    /// heading, a tool item as its call and its output (or placeholder).
    pub fn render(&self, p: &mut Pieces<'_>, has_pins: bool) {
        p.lit("# Goal\n")
            .host(GOAL)
            .lit("\n\n# Plan\n")
            .host(PLAN)
            .lit("\n");
        if has_pins {
            p.lit("\n# Pinned\n").host(PINS).lit("\n");
        }
        if self.summary_tokens > 0.0 {
            p.lit("\n# Summary of earlier turns\n")
                .host(SUMMARY)
                .lit("\n");
        }
        p.lit("\n# Conversation\n");
        for (k, i) in self.live().enumerate() {
            let item = &self.items[i];
            let (text, output, tool) = item_texts(k);
            let turn = show_number(f64::from(item.turn));
            match item.kind {
                Kind::User => p
                    .lit(&format!("\n## user (turn {turn})\n"))
                    .host(text)
                    .lit("\n"),
                Kind::Assistant => p
                    .lit(&format!("\n## assistant (turn {turn})\n"))
                    .host(text)
                    .lit("\n"),
                Kind::Tool => p
                    .lit("\n## tool ")
                    .host(tool)
                    .lit(&format!(" (turn {turn})\ncall: "))
                    .host(text)
                    .lit("\noutput:\n")
                    .host(output)
                    .lit("\n"),
            };
        }
    }
}

impl Bound {
    /// The turn's ledger record as JSON: tokens per section (adding up to `rawTokens`),
    /// the prompt's tokens as the provider counts them, what was masked, cut, summarized
    /// or dropped (items and their turns), the warnings, and the calibration.
    pub fn ledger_json(&self) -> String {
        let n = |v: f64| show_number(v);
        let turn = |i: usize| self.items.get(i).map_or(0, |it| it.turn);
        let [pinned, summary, recent, outputs, new_input, framing] = self.sections();
        let masked: Vec<String> = self
            .steps
            .masked
            .iter()
            .map(|&i| format!("{{\"item\":{i},\"turn\":{}}}", turn(i)))
            .collect();
        let cut: Vec<String> = self
            .steps
            .cut
            .iter()
            .map(|&(i, w)| {
                let part = if w == Which::Output { "output" } else { "text" };
                format!("{{\"item\":{i},\"turn\":{},\"part\":\"{part}\"}}", turn(i))
            })
            .collect();
        let span = |range: Option<(usize, usize)>, extra: String| match range {
            Some((from, to)) if to > from => format!(
                "{{\"fromItem\":{from},\"toItem\":{},\"fromTurn\":{},\"toTurn\":{}{extra}}}",
                to - 1,
                turn(from),
                turn(to - 1)
            ),
            _ => "null".into(),
        };
        let summarized = span(
            self.steps.summarized,
            format!(
                ",\"chunks\":{},\"largestPromptTokens\":{}",
                self.steps.summarizer_chunks,
                n(self.steps.largest_summarizer_prompt)
            ),
        );
        let warnings: Vec<String> = self
            .steps
            .warnings
            .iter()
            .map(|w| format!("\"{w}\""))
            .collect();
        format!(
            "{{\"budget\":{},\"promptTokens\":{},\"rawTokens\":{},\"sections\":{{\"pinned\":{},\"summary\":{},\"recent\":{},\"outputs\":{},\"newInput\":{},\"framing\":{}}},\"masked\":[{}],\"cut\":[{}],\"summarized\":{},\"dropped\":{},\"warnings\":[{}],\"calibration\":{{\"overhead\":{},\"ratio\":{},\"samples\":{}}}}}",
            n(self.config.budget),
            n(self.prompt_tokens()),
            n(self.raw_tokens()),
            n(pinned),
            n(summary),
            n(recent),
            n(outputs),
            n(new_input),
            n(framing),
            masked.join(","),
            cut.join(","),
            summarized,
            span(self.steps.dropped, String::new()),
            warnings.join(","),
            n(self.calibration.overhead),
            n(self.calibration.ratio),
            self.calibration.samples()
        )
    }
}

/// Where a head-and-tail cut ends its head and starts its tail, off surrogate pairs:
/// `head_probe` holds units `head - 1 ..= head`, `tail_probe` units `start - 1 ..= start`
/// where `start = units - tail` (see `text::Probe`).
pub fn cut_bounds(
    head: usize,
    head_probe: &Probe,
    tail: usize,
    tail_probe: &Probe,
    units: usize,
) -> (usize, usize) {
    let head = cut_end(head_probe, head, false).unwrap_or(head).min(units);
    let mut start = units.saturating_sub(tail).max(head);
    let low = |u: u16| (0xDC00..0xE000).contains(&u);
    if start > 0 && start < units && low(tail_probe.unit_at(start)) {
        start += 1;
    }
    (head, units - start.min(units))
}

/// Host texts of [`placeholder`]: the tool's name, its call (arguments as JSON), the store
/// id, the output's status.
pub const TOOL_NAME: usize = 0;
pub const CALL: usize = 1;
pub const STORE_ID: usize = 2;
pub const STATUS: usize = 3;
/// A placeholder names at most this much of the call's arguments.
pub const PLACEHOLDER_CALL_CHARS: usize = 160;

/// The one line an output becomes once it has left Recent Past. `call_end` is where the
/// call is cut to [`PLACEHOLDER_CALL_CHARS`] (see `text::cut_end`).
pub fn placeholder(p: &mut Pieces<'_>, output_tokens: f64, call_end: Option<usize>) {
    p.lit("[output of ")
        .host(TOOL_NAME)
        .lit(" ")
        .host_range(CALL, 0, call_end);
    if call_end.is_some() {
        p.lit("…");
    }
    p.lit(" (")
        .host(STATUS)
        .lit(&format!(
            ", {} tokens) stored as ",
            show_number(output_tokens)
        ))
        .host(STORE_ID)
        .lit("]");
}

/// Host texts of [`cut_text`]: the text, and the store id of the raw text ("" for none).
pub const CUT_TEXT: usize = 0;
pub const CUT_STORE_ID: usize = 1;

/// A part cut to its head and tail, with a marker naming what was left out and where the
/// whole text is. `head` and `tail` are already moved off surrogate pairs by the host's
/// probes (see `text::cut_end`).
pub fn cut_text(p: &mut Pieces<'_>, units: usize, head: usize, tail: usize, stored: bool) {
    p.host_range(CUT_TEXT, 0, Some(head)).lit(&format!(
        "\n[… {} characters cut",
        show_number((units - head - tail) as f64)
    ));
    if stored {
        p.lit("; the whole output is stored as ").host(CUT_STORE_ID);
    }
    p.lit(" …]\n").host_range(CUT_TEXT, units - tail, None);
}

/// Host texts of [`summarizer_prompt`]: the summary so far ("" for none), then items'
/// shown texts as in [`Bound::render`] from [`SUMMARIZER_FIRST_ITEM`].
pub const SUMMARY_SO_FAR: usize = 0;
pub const SUMMARIZER_FIRST_ITEM: usize = 1;

/// The summarizer's prompt for items `from..to`; pinned content is not in it.
pub fn summarizer_prompt(p: &mut Pieces<'_>, bound: &Bound, from: usize, to: usize) {
    p.lit(
        "Summarize the earlier part of a coding agent's conversation below, so that the agent \
         can continue from your summary alone. Keep the decisions made, the files and commands \
         touched, the errors seen and what is left to do; keep every store id you see. The \
         goal and the plan are kept elsewhere: do not repeat them.\n",
    );
    if bound.summary_tokens > 0.0 {
        p.lit("\n## Summary so far\n")
            .host(SUMMARY_SO_FAR)
            .lit("\n");
    }
    p.lit("\n## Turns to add to it\n");
    for (k, i) in (from..to).enumerate() {
        let item = &bound.items[i];
        let base = SUMMARIZER_FIRST_ITEM + 3 * k;
        let turn = show_number(f64::from(item.turn));
        match item.kind {
            Kind::User => p
                .lit(&format!("\n[user, turn {turn}]\n"))
                .host(base)
                .lit("\n"),
            Kind::Assistant => p
                .lit(&format!("\n[assistant, turn {turn}]\n"))
                .host(base)
                .lit("\n"),
            Kind::Tool => p
                .lit(&format!("\n[tool, turn {turn}] "))
                .host(base + 2)
                .lit(" ")
                .host(base)
                .lit("\n")
                .host(base + 1)
                .lit("\n"),
        };
    }
}

#[cfg(test)]
mod tests;
