//! One build, as the host drives it: [`Manager::begin`] opens the build's journal of what
//! it changes, [`Manager::plan`] says what the host must do first, each answer
//! ([`Manager::persisted`], [`Manager::measured`], [`Manager::summarized`], …) says what
//! next, and the build ends in [`Manager::commit`], or in [`Manager::rollback`], which puts
//! back everything the journal holds.

use super::config::{CALIBRATED_FIXED_SHARE, GROWTH_SAMPLES};
use super::history::{Part, Shown, Stored};
use super::ledger::{Ledger, Span, Warning};
use super::steps::Phase;
use super::{Journal, Manager, Need};
use crate::base::args::show_number;
use devs_context_errors::FieldError;

impl Manager {
    /// Starts a build: what it changes can be put back by [`Manager::rollback`].
    pub fn begin(&mut self) {
        self.journal = Some(Journal {
            first_live: self.first_live,
            anchor: self.anchor,
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
            store_ids: Vec::new(),
            rearm_above: self.rearm_above,
            rendered: (self.rendered_raw, self.rendered_media),
            set_aside: self.set_aside.clone(),
            migrated: self.migrated,
        });
    }

    /// The build went through: the request is the one sent, and the books are kept.
    pub fn commit(&mut self) {
        self.defer = false;
        if let Some(plan) = self.pending_plan.take() {
            self.last = plan.sent;
            self.requests += 1;
            self.cost.units += self.record.cache.cost;
            self.cost.tokens += self.record.tokens;
            // Kept apart from the record, which a build rolled back leaves half made.
            self.last_compacted = self.record.compaction.is_some();
            self.clock.sent();
        }
        let raw = self.raw_tokens();
        // A compaction's drop is no growth, nor are the commits after it until the next build.
        if !self.last_compacted && self.requests > 1 {
            if self.growth.len() == GROWTH_SAMPLES {
                self.growth.pop_front();
            }
            self.growth.push_back((raw - self.last_raw).max(0.0));
        }
        self.last_raw = raw;
        self.journal = None;
        // What the build folded away is never read again: only now, since a rollback
        // would have brought it back.
        self.history.forget(self.first_live, self.opening());
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
        self.defer = false;
        let Some(j) = self.journal.take() else { return };
        for (i, m) in j.changed.into_iter().rev() {
            if i < j.messages {
                self.history.messages[i] = m;
            }
        }
        self.history.messages.truncate(j.messages);
        for (at, before) in j.store_ids.into_iter().rev() {
            match before {
                Some(id) => self.store_ids.insert(at, id),
                None => self.store_ids.remove(&at),
            };
        }
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
        self.anchor = j.anchor;
        self.summary_tokens = j.summary_tokens;
        self.summary_version = j.summary_version;
        self.sent = j.sent;
        self.index = j.index;
        self.rearm_above = j.rearm_above;
        // A request rendered but never sent: a usage report is about the one before.
        (self.rendered_raw, self.rendered_media) = j.rendered;
        self.set_aside = j.set_aside;
        self.migrated = j.migrated;
        for id in j.lines {
            self.lines.remove(&id);
        }
        self.unindexed = None;
        self.pending = None;
        self.pending_plan = None;
        self.summarizing = None;
        self.mask_queue.clear();
        self.anchored = None;
        self.restate = None;
        self.folding = None;
        self.words_named.clear();
        self.retried = None;
        self.rewritten = false;
        self.phase = Phase::Done;
    }

    /// Records message `i` as it is, before a change, when a build is in flight.
    pub(super) fn touch(&mut self, i: usize) {
        if let Some(j) = self.journal.as_mut()
            && !j.changed.iter().any(|(k, _)| *k == i)
        {
            j.changed.push((i, self.history.messages[i].clone()));
        }
    }

    /// Part `part` of message `message` is stored as `id`, until a build taken back.
    pub(super) fn give_store_id(&mut self, message: usize, part: usize, id: String) {
        let before = self.store_ids.insert((message, part), id);
        if let Some(j) = self.journal.as_mut() {
            j.store_ids.push(((message, part), before));
        }
    }

    pub(super) fn part_mut(&mut self, message: usize, part: usize) -> &mut Part {
        self.touch(message);
        let m = &mut self.history.messages[message];
        m.version += 1;
        &mut m.parts[part]
    }

    /// Plans the request: returns what the host must do first. Refused when the fixed
    /// texts, as the provider counts them, leave no room for the conversation.
    pub fn plan(&mut self) -> Result<Need, FieldError> {
        let fixed = self.fixed_tokens();
        let predicted = self.calibration.predict(fixed);
        let room = self.config.budget * CALIBRATED_FIXED_SHARE;
        if predicted > room {
            let c = &self.calibration;
            // What the counts and the usage reports disagree on: the overhead (what every
            // request holds that the manager never counts), or the text ratio (a counter
            // that counts short of the provider's tokenizer).
            let extra = c.overhead;
            let by_ratio = (c.ratio - 1.0) * fixed;
            // Requests that held images or documents may owe the overhead to them: the
            // media ratio follows a misjudged rule only while their share moves.
            let media = c.observations().map(|s| s.media).fold(0.0, f64::max);
            let cause = if extra >= by_ratio && media > 0.0 {
                format!(
                    "every request the provider counted held about {} tokens the manager never counts: images or documents counted short (the requests held up to {} tokens of them by the manager's rule: set imageTokens to the provider's model, or a function of what it bills), or input of the host's own that it does not see (tool definitions, a system prompt the host adds)",
                    show_number(extra.round()),
                    show_number(media.round())
                )
            } else if extra >= by_ratio {
                format!(
                    "every request the provider counted held about {} tokens the manager never counts: input of the host's own that it does not see (tool definitions, a system prompt the host adds), which outgrew the budget",
                    show_number(extra.round())
                )
            } else {
                format!(
                    "the provider counts text {}× our count: the counter (countTokens) counts short of the provider's tokenizer",
                    show_number((c.ratio * 1000.0).round() / 1000.0)
                )
            };
            return Err(FieldError::range_error(
                "calibration",
                format!(
                    "(overhead {}, text ratio {}, media ratio {}, from {} usage reports) puts the system prompt and pinned texts at {} tokens as the provider counts them ({} by ours), more than 3/4 of the budget of {}: {cause}. Call resetCalibration() to fit again from new reports, or set calibrate: false",
                    show_number(c.overhead.round()),
                    show_number((c.ratio * 1000.0).round() / 1000.0),
                    show_number((c.media_ratio * 1000.0).round() / 1000.0),
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
        if let Some((from, why)) = self.migrated.take() {
            self.record.raised.push(Warning::FormatMigrated);
            self.record
                .warnings
                .push(Manager::migrated_warning(from, why));
        }
        self.record.before = self.tokens();
        self.anchored = None;
        self.restate = None;
        self.folding = None;
        self.words_named.clear();
        self.retried = None;
        self.rewritten = false;
        self.anchor_provider_compaction();
        self.squeezes = 0;
        self.squeeze_level = None;
        self.uncuttable.clear();
        self.group_failed = false;
        self.merge_failed = false;
        self.phase = Phase::Fresh;
        // What no step can take out is over the budget alone: refused before any store
        // or summary is asked for (and paid) in vain.
        if let Some((message, part, _)) = self.cannot_fit() {
            self.phase = Phase::Done;
            let need = Need::TooLarge { message, part };
            self.pending = Some(need);
            return Ok(need);
        }
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
                    self.give_store_id(message, part, id);
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
                // An input of many short values (an object of thousands of keys) shortens
                // no further: cutting again would repeat the same work, each time over the
                // whole text. The part stays as measured; the squeeze goes to another.
                let progress = tokens < self.cut_last;
                self.cut_last = tokens;
                if !progress {
                    self.uncuttable.push((message, part));
                }
                if tokens > cap && head + tail > 2 && progress {
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
        // Protected texts folded away are carried after the summary, within their own share.
        // So is the working state, within its own cap.
        if tokens
            > self.config.summary_cap() + self.config.protected_cap() + self.config.working_cap()
        {
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

    /// `tokens`: the protected texts restated after the provider's compaction, with the
    /// working state, as the summary message sends them (0: none). They stand in for the summary, which went with
    /// what the provider compacted; the thinking after the compaction stays valid.
    pub fn restated(&mut self, tokens: f64) -> Need {
        self.pending = None;
        if tokens
            > self.config.summary_cap() + self.config.protected_cap() + self.config.working_cap()
        {
            self.record.warn(Warning::SummaryOverCap);
        } else if tokens > 0.0 {
            self.summary_tokens = tokens;
            self.summary_version += 1;
            if self.anchored.is_some() {
                self.anchored = Some((self.first_live, self.summary_version));
            }
        }
        self.advance()
    }

    /// The summarizer failed: the same turns are asked again, and the shell, which asks a
    /// summarizer that failed no more in this build, folds them as it does with none: into
    /// the summary so far with the working state, which keeps their user words (or says
    /// there is nothing to keep, and they are dropped).
    pub fn summary_failed(&mut self) -> Need {
        self.pending = None;
        self.record.warn(Warning::SummarizerFailed);
        // Asked again once: a host that fails the same turns twice has them dropped.
        match self.summarizing {
            Some(span) if self.retried != Some(span) => {
                self.retried = Some(span);
                let need = Need::Summarize {
                    from: span.0,
                    to: span.1,
                };
                self.pending = Some(need);
                need
            }
            _ => {
                self.summarizing = None;
                self.phase = Phase::Drop;
                self.advance()
            }
        }
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

    /// Where this build first changed what an earlier request held: `(message, part)`, the
    /// first position after the change; every thinking block from it on is invalid. A new summary, or messages folded away,
    /// change everything.
    pub(super) fn edit_point(&self) -> Option<(usize, usize)> {
        let j = self.journal.as_ref()?;
        // Folding away what came before the provider's compaction voids nothing after it:
        // the provider reads from its compaction on.
        let since_anchor = self.anchored == Some((self.first_live, self.summary_version));
        if !since_anchor
            && (j.summary_version != self.summary_version || j.first_live != self.first_live)
        {
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
}

impl Manager {
    /// Why a build was refused ([`Need::TooLarge`]): the request is over the budget with
    /// nothing more to take out. `field` names part `part` of message `message` as the host
    /// wrote it (`messages[12].content[3]`).
    pub fn too_large(&self, message: usize, part: usize, field: &str) -> FieldError {
        let in_request = self.opening().contains(&message) || self.live().contains(&message);
        let Some(p) = self
            .history
            .messages
            .get(message)
            .and_then(|m| m.parts.get(part))
            .filter(|_| in_request)
        else {
            return self.too_large_without_parts();
        };
        let what = match p.kind {
            super::Kind::Image => "an image",
            super::Kind::Document => "a document",
            super::Kind::Call => "a tool call",
            super::Kind::Result => "a tool result",
            super::Kind::Thinking => "signed thinking",
            super::Kind::Opaque => "a provider's item passed through whole (encrypted or signed)",
            super::Kind::Compaction => "the provider's compaction",
            _ => "a part",
        };
        if let Some((_, _, floor)) = self.cannot_fit() {
            return FieldError::range_error(
                field,
                format!(
                    "leaves the request over the budget: it is {} of {} tokens that cannot be cut, and with every text, output and image that can be stored and cut or replaced taken out, the request still comes to {} tokens as the provider counts them, over the budget of {} (the system prompt and pinned texts take {}). Nothing was sent, no summary was asked for, and nothing changed: raise the budget, or send less in one message",
                    what,
                    show_number(p.visible_tokens().ceil()),
                    show_number(floor),
                    show_number(self.config.budget),
                    show_number(self.fixed_tokens().ceil()),
                ),
            );
        }
        FieldError::range_error(
            field,
            format!(
                "leaves the request over the budget: the request comes to {} tokens as the provider counts them, over the budget of {}, with every older text, output and image already stored and replaced, and the newest image and output kept (this part is {} of {} tokens; the system prompt and pinned texts take {}). Nothing was sent and nothing changed: raise the budget, or send less in one message",
                show_number(self.tokens()),
                show_number(self.config.budget),
                what,
                show_number(p.visible_tokens().ceil()),
                show_number(self.fixed_tokens().ceil()),
            ),
        )
    }

    /// Why a build with no part of the conversation left in it is over the budget: what
    /// every request holds around the conversation does not fit (a long text after it).
    fn too_large_without_parts(&self) -> FieldError {
        FieldError::range_error(
            format!("{}.budget", self.prefix),
            format!(
                "is {}, and the request comes to {} tokens as the provider counts them with no message of the conversation left in it to take out: {} tokens of text after the conversation, {} of the system prompt and pinned texts, {} of the summary and the index of stored texts. Nothing was sent and nothing changed: raise the budget, or send a shorter text after the conversation",
                show_number(self.config.budget),
                show_number(self.tokens()),
                show_number(self.tail_tokens.ceil()),
                show_number(self.fixed_tokens().ceil()),
                show_number((self.summary_tokens + self.index.tokens()).ceil()),
            ),
        )
    }
}
