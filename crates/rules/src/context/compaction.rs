//! The compaction's steps, in order, each asking the host for what it needs: parts never
//! sent that are over their share are cut; then, past the high water mark, old parts become
//! placeholders ([`policy`](super::policy) chooses which), the oldest groups are
//! summarized, then dropped, down to the low water mark; and a request still over the
//! budget has its largest parts cut.

use super::config::SUMMARIZER_OVERHEAD;
use super::history::{Kind, Part, Role, Shown, Stored};
use super::ledger::{self, Span, Warning};
use super::{Manager, Need, policy};

/// The share of the budget the images kept whole may take at most, between two removals.
pub const IMAGE_SHARE: f64 = 0.4;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Phase {
    /// Parts never sent that are too large for their share are cut.
    Fresh,
    /// Images past `keepImages` are stored and replaced by a line, oldest first.
    Images,
    /// Old parts become placeholders.
    Mask,
    Summarize,
    Drop,
    Squeeze,
    Done,
}

impl Manager {
    pub(super) fn advance(&mut self) -> Need {
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
                    self.plan_images();
                    self.phase = Phase::Images;
                }
                Phase::Images => {
                    if let Some(need) = self.next_mask() {
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
                    if !self.fits() {
                        // Nothing more can go without making the request invalid: refused,
                        // naming the largest part, and the build is taken back.
                        let (message, part) = self.largest_shown_part().unwrap_or((0, 0));
                        return Need::TooLarge { message, part };
                    }
                    return Need::Done;
                }
            }
        }
    }

    /// Step 0: a part never sent that is over its share is stored, then cut.
    fn next_fresh_cut(&mut self) -> Option<Need> {
        let cap = self.config.part_cap();
        let from = self.sent.max(self.first_live);
        let held = self.held();
        for i in from..self.history.messages.len() {
            for (k, p) in self.history.messages[i].parts.iter().enumerate() {
                if !p.kind.editable()
                    || p.shown != Shown::Whole
                    || p.tokens <= cap
                    || held.holds(i, k)
                {
                    continue;
                }
                if p.stored == Stored::No {
                    return Some(Need::Persist {
                        message: i,
                        part: k,
                    });
                }
                let p = *p;
                self.editing(&p);
                self.cut_target = cap;
                return Some(cut_to(i, k, &p, cap));
            }
        }
        None
    }

    /// The provider compacted the conversation (a live message holds a `Compaction` part
    /// newer than the anchor): what came before it leaves the request, as the provider
    /// reads it no more. It is stored as a transcript and named in the index, so nothing of
    /// it is lost; the compaction's group is pinned from now on, never edited or folded,
    /// and first in the request (Anthropic's on-demand compaction must be). Our summary
    /// goes with what it summarized. Returns whether it did.
    pub(super) fn anchor_provider_compaction(&mut self) -> bool {
        let from = self
            .anchor
            .map_or(self.first_live, |a| (a + 1).max(self.first_live));
        let Some(c) = (from..self.history.messages.len())
            .rev()
            .find(|&i| self.history.messages[i].has_kind(Kind::Compaction))
        else {
            return false;
        };
        // What leaves: the pinned messages too (the opening one, or the group of an earlier
        // compaction of the provider's), and the live messages before it.
        let opening = self.opening();
        let start = if opening.is_empty() {
            self.first_live
        } else {
            opening.start
        };
        let before = self.tokens();
        self.anchor = Some(c);
        let leaves = c > self.first_live || start < self.first_live;
        self.first_live = c;
        if self.summary_tokens > 0.0 {
            self.summary_tokens = 0.0;
            self.summary_version += 1;
        }
        self.anchored = Some((self.first_live, self.summary_version));
        let cm = self.record.compaction_mut();
        cm.trigger = ledger::Trigger::Provider;
        cm.before = before;
        cm.high_water = self.config.budget * self.config.high_water;
        cm.low_water = self.config.budget * self.config.low_water;
        if leaves {
            cm.dropped = Some(Span { from: start, to: c });
            self.folded(start, c);
        }
        true
    }

    /// The images a request holds whole, oldest first: the opening message's, then the
    /// live ones.
    pub(super) fn whole_images(&self) -> Vec<(usize, usize)> {
        self.opening()
            .chain(self.live())
            .flat_map(|i| {
                self.history.messages[i]
                    .parts
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.kind == Kind::Image && p.shown == Shown::Whole)
                    .map(move |(k, _)| (i, k))
            })
            .collect()
    }

    /// How many older images leave at a time, `keepImages` being kept whole. Replacing
    /// them rewrites the request from the oldest of them on: about `keep` images (and the
    /// steps between), billed as cache writes at 1.25 an input token, once every `chunk`
    /// images; meanwhile about `chunk / 2` more images stay whole than with a chunk of one,
    /// read from the cache at 0.1. The sum per image is least at `chunk² = 25 × keep`
    /// (1.25 / 0.1 × 2): 9 for the default 3, against Anthropic's reference loop, whose
    /// chunk is `keep`. No fewer than `keep`, and no more than leave the images whole at
    /// most [`IMAGE_SHARE`] of the budget, so that images never crowd out the conversation.
    fn image_chunk(&self, whole: &[(usize, usize)]) -> usize {
        let keep = self.config.keep_images;
        let best = (25.0 * keep as f64).sqrt().round() as usize;
        let tokens: f64 = whole.iter().map(|&(m, k)| self.part(m, k).tokens).sum();
        let mean = tokens / whole.len().max(1) as f64;
        let fit = if mean > 0.0 {
            (IMAGE_SHARE * self.config.budget / mean).floor() as usize
        } else {
            usize::MAX
        };
        best.min(fit.saturating_add(1).saturating_sub(keep))
            .max(keep)
    }

    /// Once `keepImages` and a chunk (`image_chunk`) are whole, all but the newest
    /// `keepImages` are queued to be stored and replaced: several at a time, so the prompt
    /// cache breaks once in so many images.
    fn plan_images(&mut self) {
        let keep = self.config.keep_images;
        let whole = self.whole_images();
        if whole.len() <= keep || whole.len() < keep + self.image_chunk(&whole) {
            return;
        }
        let older = &whole[..whole.len() - keep];
        let queue: Vec<(usize, usize)> = older
            .iter()
            .copied()
            .filter(|&(m, k)| self.part(m, k).stored != Stored::Failed)
            .collect();
        if queue.is_empty() {
            return;
        }
        let before = self.tokens();
        let c = self.record.compaction_mut();
        c.trigger = ledger::Trigger::Images;
        c.before = before;
        c.high_water = self.config.budget * self.config.high_water;
        c.low_water = self.config.budget * self.config.low_water;
        c.edit_from = queue.first().map(|q| q.0);
        // Taken from the end: the newest first.
        self.mask_queue = queue;
    }

    /// Whether a build planned now would compact, as far as can be told before its plan:
    /// asked to, or past the high water mark and not just left there by the last one. What
    /// the host's `beforeCompaction` is asked before.
    pub fn compaction_due(&self) -> Option<ledger::Trigger> {
        if self.forced {
            return Some(ledger::Trigger::Asked);
        }
        (self.over(self.config.high_water) && !(self.tokens() <= self.rearm_above && self.fits()))
            .then_some(ledger::Trigger::HighWater)
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
        // The host's `beforeCompaction` asking, or an open tool loop whose thinking an edit
        // would invalidate: wait while the request still fits the budget.
        if self.fits() && self.defer {
            self.record.warn(Warning::HostDeferred);
            return false;
        }
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
        // After an images step in the same build, the tokens before it.
        let before = self
            .record
            .compaction
            .as_ref()
            .map_or(self.tokens(), |c| c.before);
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
        let c = self.record.compaction_mut();
        c.edit_from = match (c.edit_from, plan.first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
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
            self.editing(&p);
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
                .predicted(self.index_growth(start, self.first_live))
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
        let pinned = self.pinned();
        let user_text = (start..self.first_live).any(|i| {
            let m = &self.history.messages[i];
            m.role == Role::User && m.has_kind(Kind::Text) && !pinned.contains(&i)
        });
        if user_text {
            self.record.warn(Warning::UserTextDropped);
        }
        let protected = (start..self.first_live)
            .any(|i| self.history.messages[i].parts.iter().any(|p| p.protected));
        if protected {
            self.record.warn(Warning::ProtectedDropped);
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
    /// left, or, for an image or a document but the newest image, stored and replaced by a
    /// line.
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
        if p.stored == Stored::No {
            self.squeezes -= 1;
            return Some(Need::Persist { message, part });
        }
        self.record.warn(Warning::Squeezed);
        self.editing(&p);
        if p.kind.media() {
            return Some(Need::Placeholder { message, part });
        }
        // Each cut keeps a head, a tail and a marker: a part at that size is done, and the
        // next largest goes next.
        let target = (p.shown_tokens - over - 1.0).max(MIN_CUT_TOKENS);
        self.cut_target = target;
        Some(cut_to(message, part, &p, target))
    }

    /// The largest part a squeeze can make smaller: a text or an output not cut to its
    /// least yet, or an image or a document not replaced yet (but the newest image, which
    /// stays whole while anything else can go).
    fn largest_live_part(&self) -> Option<(usize, usize)> {
        let newest_image = self.whole_images().last().copied();
        let held = self.held();
        let mut best: Option<(usize, usize, f64)> = None;
        for i in self.opening().chain(self.live()) {
            for (k, p) in self.history.messages[i].parts.iter().enumerate() {
                let reducible = if held.holds(i, k) {
                    false
                } else if p.kind.media() {
                    p.shown == Shown::Whole
                        && p.stored != Stored::Failed
                        && Some((i, k)) != newest_image
                        && p.shown_tokens > MIN_CUT_TOKENS * 1.5
                } else {
                    p.kind.editable()
                        && p.shown != Shown::Placeholder
                        && p.shown_tokens > MIN_CUT_TOKENS * 1.5
                        && p.units >= 4
                };
                if reducible && best.is_none_or(|b| p.shown_tokens > b.2) {
                    best = Some((i, k, p.shown_tokens));
                }
            }
        }
        best.map(|(i, k, _)| (i, k))
    }

    /// The largest part the request holds as it stands, any kind: what a request still over
    /// the budget is refused for.
    pub(super) fn largest_shown_part(&self) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize, f64)> = None;
        for i in self.opening().chain(self.live()) {
            for (k, p) in self.history.messages[i].parts.iter().enumerate() {
                if best.is_none_or(|b| p.visible_tokens() > b.2) {
                    best = Some((i, k, p.visible_tokens()));
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
}

/// Cuts a build may make to fit the newest group, part after part.
const MAX_SQUEEZES: u32 = 256;
/// Tokens a squeezed part keeps: a head, a tail and the marker between.
const MIN_CUT_TOKENS: f64 = 24.0;

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
