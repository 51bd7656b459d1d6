//! When a compaction starts, and what it records as it does: past the high water mark (or
//! asked to, or the provider compacted), unless the host's `beforeCompaction` or an open
//! tool loop's thinking asks to wait while the request fits. Not a step of its own: the
//! gate between the images step and the masking one.

use crate::context::history::{Kind, Role};
use crate::context::ledger::{self, Span, Warning};
use crate::context::{Manager, policy};

impl Manager {
    /// The provider compacted the conversation (a live message holds a `Compaction` part
    /// newer than the anchor): what came before it leaves the request, as the provider
    /// reads it no more. It is stored as a transcript and named in the index, so nothing of
    /// it is lost; the compaction's group is pinned from now on, never edited or folded,
    /// and first in the request (Anthropic's on-demand compaction must be). Our summary
    /// goes with what it summarized. Returns whether it did.
    pub(in crate::context) fn anchor_provider_compaction(&mut self) -> bool {
        // After the anchor's group: a later compaction in it is pinned with it already.
        let from = self.anchor.map_or(self.first_live, |a| {
            self.history.next_group(a).max(self.first_live)
        });
        let Some(found) = (from..self.history.messages.len())
            .rev()
            .find(|&i| self.history.messages[i].has_kind(Kind::Compaction))
        else {
            return false;
        };
        // From the first message of its turn: a message that joined the turn before it (a
        // Responses item after a server call's, an Anthropic message after a paused turn)
        // holds the compaction, but a turn is folded whole or not at all, and the turn is
        // numbered by its first message, which must stay.
        let c = self.history.messages[found].group.max(from);
        // What leaves: the pinned messages too (the opening one, or the group of an earlier
        // compaction of the provider's), and the live messages before it.
        let opening = self.opening();
        let start = if opening.is_empty() {
            self.first_live
        } else {
            opening.start
        };
        let before = self.tokens();
        // The provider reads nothing before its compaction: the protected texts that leave
        // with what it compacted, and those our summary carried, are restated after it, in
        // the summary's place (the only place the provider reads that a tool result need
        // not answer a call), with the working state (the user's words that leave, the file
        // trail, the open calls). Those of the messages folded before are in the summary.
        if c > self.first_live || self.summary_tokens > 0.0 {
            self.restate = Some((self.first_live, c));
        }
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

    /// Whether a build planned now would compact, as far as can be told before its plan:
    /// asked to, or past the high water mark and not just left there by the last one. What
    /// the host's `beforeCompaction` is asked before.
    pub fn compaction_due(&self) -> Option<ledger::Trigger> {
        if self.forced {
            return Some(ledger::Trigger::Asked);
        }
        if self.over(self.config.high_water) && !(self.tokens() <= self.rearm_above && self.fits())
        {
            return Some(ledger::Trigger::HighWater);
        }
        self.pause_due().then_some(ledger::Trigger::Pause)
    }

    pub(super) fn should_compact(&mut self) -> bool {
        self.clock.pausing = false;
        if self.forced {
            return true;
        }
        // The last compaction left the request over the mark: it would only do the same
        // again, every request, until the request grows (the budget still holds: a request
        // past it is squeezed).
        if !self.over(self.config.high_water) || (self.tokens() <= self.rearm_above && self.fits())
        {
            // After a pause the cache is cold: masking now costs no extra write
            // (`clock.rs`). Waits as a compaction does, for the host and for thinking.
            self.clock.pausing =
                self.pause_due() && !self.defer && self.open_loop_thinking().is_none();
            return self.clock.pausing;
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
    pub(super) fn open_loop_thinking(&self) -> Option<usize> {
        let last = self.history.messages.last()?;
        let group = last.group;
        let h = &self.history;
        let open = last.role != Role::Assistant && h.group_has(group, Role::Assistant, Kind::Call);
        (open && h.group_has(group, Role::Assistant, Kind::Thinking)).then_some(group)
    }

    pub(super) fn start_compaction(&mut self) {
        // After an images step in the same build, the tokens before it.
        let before = self
            .record
            .compaction
            .as_ref()
            .map_or(self.tokens(), |c| c.before);
        let c = self.record.compaction_mut();
        c.trigger = if self.forced {
            ledger::Trigger::Asked
        } else if self.clock.pausing {
            ledger::Trigger::Pause
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
}
