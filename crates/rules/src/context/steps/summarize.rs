//! The summarizing step: the oldest live groups, in chunks that fit the summarizer's share,
//! are folded into the summary until the request is under the low water mark.

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
        match self.next_summary() {
            Some(need) => Flow::Ask(need),
            None => Flow::Go(Phase::Drop),
        }
    }

    /// The oldest live groups, in chunks, folded into the summary.
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
}
