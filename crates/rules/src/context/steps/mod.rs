//! Compaction as an ordered pipeline of steps, one file each, over the one cache-priced plan
//! the policy makes ([`policy`](super::policy)): each step either asks the host for what it
//! needs (a [`Need`]: store a text, show a part as a placeholder or a cut, summarize) or
//! says which step comes next. The index's upkeep (storing what was folded, merging its
//! listings) is asked before every step, so that every text stays one recall away whatever
//! step folded it.
//!
//! In order: [`fresh`] (parts never sent, over their share, cut), [`images`] (the older
//! images replaced, several at a time; the newest `keepImages` kept through every step
//! after it), then past the high water mark ([`trigger`])
//! [`mask`] (old parts become placeholders), [`summarize`] (the oldest groups folded into
//! the summary), [`drop`] (the oldest groups go), and, for a request still over the
//! budget, [`squeeze`] (its largest parts cut); [`finish`] makes the request final.
//!
//! Adding a step: a file here with its `*_step`, a [`Phase`] and its row in [`Manager::step`]
//! (a phase without its row does not compile), and, if it asks something new, a [`Need`] and
//! its answer in the shell (`ANSWERS` in pkg/src/context/build.ts).

mod drop;
mod finish;
mod fresh;
mod images;
mod mask;
mod squeeze;
mod summarize;
mod trigger;

use super::history::Part;
use super::{Manager, Need};

/// The steps, in the order a build goes through them (an answer may send it back: see
/// `build.rs`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::context) enum Phase {
    /// Parts never sent that are too large for their share are cut.
    Fresh,
    /// Images past `keepImages` are stored and replaced by a line, oldest first.
    Images,
    /// Old parts become placeholders.
    Mask,
    Summarize,
    Drop,
    Squeeze,
    Done,
}

/// What a step says: ask the host this, or go on to that step.
pub(super) enum Flow {
    Ask(Need),
    Go(Phase),
}

impl Manager {
    /// The next need of the build in flight, noted as pending until it is answered.
    pub(in crate::context) fn advance(&mut self) -> Need {
        let need = self.next_need();
        self.pending = Some(need);
        need
    }

    fn next_need(&mut self) -> Need {
        loop {
            if let Some(need) = self.next_index_need() {
                return need;
            }
            // A fold held back until the user's words it takes away are stored.
            if let Some(need) = self.folding.take() {
                return self.store_words_first(need);
            }
            if let Some((from, to)) = self.restate.take() {
                return self.store_words_first(Need::Restate { from, to });
            }
            // A compaction that only masked writes the working state too.
            if self.phase == Phase::Done
                && let Some(need) = self.rewrite_after_mask()
            {
                return need;
            }
            match self.step(self.phase) {
                Flow::Ask(need) => return self.store_words_first(need),
                Flow::Go(phase) => self.phase = phase,
            }
        }
    }

    /// The table of the steps: each phase's step.
    fn step(&mut self, phase: Phase) -> Flow {
        match phase {
            Phase::Fresh => self.fresh_step(),
            Phase::Images => self.images_step(),
            Phase::Mask => self.mask_step(),
            Phase::Summarize => self.summarize_step(),
            Phase::Drop => self.drop_step(),
            Phase::Squeeze => self.squeeze_step(),
            Phase::Done => self.finish_step(),
        }
    }
}

/// A cut of `part` to about `target` tokens: units in proportion, two thirds head and one
/// third tail.
fn cut_to(message: usize, part: usize, p: &Part, target: f64) -> Need {
    let keep = ((p.units as f64) * (target / p.tokens.max(1.0)) * 0.9) as usize;
    let head = keep * 2 / 3;
    Need::Cut {
        message,
        part,
        head,
        tail: keep - head,
    }
}
