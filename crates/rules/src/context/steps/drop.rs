//! The dropping step: when summarizing did not bring the request under the low water mark
//! (the summarizer failed, or its summary was too large), the oldest groups go, stored as a
//! transcript and named in the index, so that nothing is lost for the agent.

use super::{Flow, Phase};
use crate::context::Manager;
use crate::context::history::{Kind, Role};
use crate::context::ledger::{Span, Warning};

impl Manager {
    /// The step: asks nothing (what goes is stored by the index's upkeep); then the squeeze.
    pub(super) fn drop_step(&mut self) -> Flow {
        self.drop_oldest();
        Flow::Go(Phase::Squeeze)
    }

    /// The oldest groups go until the request is under the low water mark (or
    /// only the newest group is left), but the turns of kept images while they can be
    /// spared ([`Manager::spare_kept_images`]); then the summary, if it must.
    fn drop_oldest(&mut self) {
        let start = self.first_live;
        let Some(newest) = self.history.messages.last().map(|m| m.group) else {
            return;
        };
        let c = &self.config;
        let (low, mid) = (c.low_water, (c.low_water + c.high_water) / 2.0);
        let end = self.drop_end(newest, low);
        let least = self.drop_end(newest, mid);
        self.first_live = self.spare_kept_images(end, least);
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

    /// Where dropping the oldest groups from `first_live` on brings the request under
    /// `mark` of the budget (or to the newest group), the index's gain for them counted.
    fn drop_end(&mut self, newest: usize, mark: f64) -> usize {
        let start = self.first_live;
        let target = self.config.budget * mark;
        while self.first_live < newest
            && self
                .predicted(self.index_growth(start, self.first_live))
                .ceil()
                > target
        {
            self.first_live = self.history.next_group(self.first_live);
        }
        std::mem::replace(&mut self.first_live, start)
    }
}
