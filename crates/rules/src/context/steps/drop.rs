//! The dropping step: when summarizing did not bring the request under the low water mark
//! (the summarizer failed, or its summary was too large), the oldest groups go, stored as a
//! transcript and named in the index, so that nothing is lost for the agent.

use super::{Flow, Phase};
use crate::context::history::{Kind, Role};
use crate::context::ledger::{Span, Trigger, Warning};
use crate::context::{Manager, policy};

impl Manager {
    /// The step: asks nothing (what goes is stored by the index's upkeep, before the step
    /// comes back); then masking, which lands the request in its band, or the squeeze.
    pub(super) fn drop_step(&mut self) -> Flow {
        if !self.dropped_here() {
            self.drop_oldest();
            if self.dropped_here() {
                return Flow::Go(Phase::Drop);
            }
        }
        if self.over(self.config.low_water) {
            let plan = policy::mask_plan(self);
            if !plan.parts.is_empty() {
                self.queue_masks(plan);
                return Flow::Go(Phase::Mask);
            }
        }
        Flow::Go(Phase::Squeeze)
    }

    /// Whether this build's compaction dropped turns (the provider's compaction aside).
    pub(super) fn dropped_here(&self) -> bool {
        self.record
            .compaction
            .as_ref()
            .is_some_and(|c| c.dropped.is_some() && c.trigger != Trigger::Provider)
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
        let end = policy::drop_end(self, newest, low);
        let least = policy::drop_end(self, newest, mid);
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
            let c = self.record.compaction_mut();
            c.edit_from = Some(c.edit_from.map_or(start, |e| e.min(start)));
            self.record.compaction_mut().dropped = Some(Span {
                from: start,
                to: self.first_live,
            });
            self.folded(start, self.first_live);
        }
    }
}
