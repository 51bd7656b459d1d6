//! The last step: the request is final. Thinking an edit invalidated is dropped, and a
//! request still over the budget is refused, naming its largest part (the build is taken
//! back).

use super::Flow;
use crate::context::Manager;
use crate::context::Need;
use crate::context::history::{Kind, Shown};
use crate::context::ledger::Warning;
use crate::context::policy;

impl Manager {
    /// The step: done, or refused.
    pub(super) fn finish_step(&mut self) -> Flow {
        self.finish();
        if !self.fits() {
            // Nothing more can go without making the request invalid.
            let (message, part) = self.largest_shown_part().unwrap_or((0, 0));
            return Flow::Ask(Need::TooLarge { message, part });
        }
        Flow::Ask(Need::Done)
    }

    /// The largest part the request holds as it stands, any kind: what a request still over
    /// the budget is refused for.
    fn largest_shown_part(&self) -> Option<(usize, usize)> {
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
