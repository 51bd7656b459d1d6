//! The masking step: the parts the policy chose ([`policy::mask_plan`](crate::context::policy::mask_plan),
//! priced as the bill prices them) become placeholders naming their store id, each stored
//! first; the images step takes its queue the same way.

use super::{Flow, Phase};
use crate::context::Manager;
use crate::context::Need;
use crate::context::history::{Shown, Stored};

impl Manager {
    /// The step: the next part to mask; then summarizing while the request is over the low
    /// water mark, else done.
    pub(super) fn mask_step(&mut self) -> Flow {
        if let Some(need) = self.next_mask() {
            return Flow::Ask(need);
        }
        // A compaction at a pause masks only (`clock.rs`).
        Flow::Go(if self.over(self.config.low_water) && !self.clock.pausing {
            Phase::Summarize
        } else {
            Phase::Done
        })
    }

    /// The parts the policy chose become placeholders, each stored first.
    pub(super) fn next_mask(&mut self) -> Option<Need> {
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
}
