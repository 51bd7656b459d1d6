//! The summarizing step: the oldest live groups, in chunks that fit the summarizer's share,
//! are folded into the summary until masking can land the request in its band
//! ([`policy::mask_plan`]), or it is under the low water mark.

use super::{Flow, Phase};
use crate::context::config::SUMMARIZER_OVERHEAD;
use crate::context::{Manager, Need, policy};

impl Manager {
    /// The step: done once under the low water mark; else the next chunk to summarize;
    /// else, with nothing more to fold, the drop.
    pub(super) fn summarize_step(&mut self) -> Flow {
        if !self.over(self.config.low_water) {
            return Flow::Go(Phase::Done);
        }
        let plan = policy::mask_plan(self);
        if plan.reaches && !plan.parts.is_empty() {
            self.queue_masks(plan);
            return Flow::Go(Phase::Mask);
        }
        match self.next_summary() {
            Some(need) => Flow::Ask(need),
            None if !self.mask_queue.is_empty() => Flow::Go(Phase::Mask),
            None => Flow::Go(Phase::Drop),
        }
    }

    /// The oldest live groups, in chunks, folded into the summary.
    fn next_summary(&mut self) -> Option<Need> {
        let newest = self.history.messages.last()?.group;
        if self.first_live >= newest {
            return None;
        }
        // Before each chunk, from the request as it stands: the summary so far, and what
        // the chunks before it took, are known then, not estimated.
        if self.summarizing.is_none() {
            self.summary_target = policy::summary_end(self, newest, true);
            if self.first_live >= self.summary_target {
                // Masking, which the fold counts on, cannot land the request within its
                // band: it takes what it can within it, else what reaches the mark, what
                // it takes below it less than a turn would.
                let plan = policy::mask_plan(self);
                let plan = if plan.parts.is_empty() {
                    policy::mask_plan_unbounded(self)
                } else {
                    plan
                };
                if !plan.parts.is_empty() {
                    self.queue_masks(plan);
                    return None;
                }
                // Nothing to mask: the next turn is folded, unless a kept image is in it.
                let next = self.history.next_group(self.first_live);
                let kept = self.kept_images();
                if next >= newest || kept.iter().any(|&(m, _)| m >= self.first_live && m < next) {
                    return None;
                }
                self.summary_target = next;
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
        let from = self.first_live;
        let c = self.record.compaction_mut();
        // A fold edits the request from where it starts (the summary takes its place).
        c.edit_from = Some(c.edit_from.map_or(from, |e| e.min(from)));
        c.summarizer_chunks += 1;
        c.largest_summarizer_prompt = c.largest_summarizer_prompt.max(prompt);
        self.summarizing = Some((self.first_live, to));
        Some(Need::Summarize {
            from: self.first_live,
            to,
        })
    }
}
