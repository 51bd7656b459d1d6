//! The first step: a part never sent that is over its share (`partShare`) is stored, then
//! cut, before anything older is touched: a fresh output the agent has not seen costs the
//! cache nothing to cut, and everything after it would have to be written again otherwise.

use super::{Flow, Phase, cut_to};
use crate::context::Manager;
use crate::context::Need;
use crate::context::history::Shown;
use crate::context::history::Stored;

impl Manager {
    /// The step: the next fresh cut, else the images step (planned here, so that it sees
    /// the request as the cuts left it).
    pub(super) fn fresh_step(&mut self) -> Flow {
        if let Some(need) = self.next_fresh_cut() {
            return Flow::Ask(need);
        }
        self.plan_images();
        Flow::Go(Phase::Images)
    }

    /// A part never sent that is over its share is stored, then cut.
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
                self.cut_last = p.tokens;
                return Some(cut_to(i, k, &p, cap));
            }
        }
        None
    }
}
