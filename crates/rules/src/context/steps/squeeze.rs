//! The squeezing step: a request still over the budget (the newest group alone too large)
//! has its largest part cut to the room left, or, for an image or a document, replaced by
//! a line; part after part, at most `MAX_SQUEEZES` times a build.

use super::{Flow, Phase, cut_to};
use crate::context::Manager;
use crate::context::Need;
use crate::context::config::{MAX_SQUEEZES, MIN_CUT_TOKENS};
use crate::context::history::{Shown, Stored};
use crate::context::ledger::Warning;

impl Manager {
    /// The step: the next cut, after which the request is final unless an answer says it
    /// still does not fit (`build.rs` sends it back here); else final.
    pub(super) fn squeeze_step(&mut self) -> Flow {
        self.phase = Phase::Done;
        match self.squeeze() {
            Some(need) => Flow::Ask(need),
            None => Flow::Go(Phase::Done),
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
        self.cut_last = p.shown_tokens;
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
                let reducible = if held.holds(i, k) || self.uncuttable.contains(&(i, k)) {
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
}
