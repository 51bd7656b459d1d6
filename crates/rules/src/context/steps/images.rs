//! The images step: past `keepImages` images (and a chunk more), the older ones are stored
//! and replaced by a line, several at a time, so that the prompt cache breaks once in so
//! many images; then the compaction's trigger is read ([`trigger`](super::trigger)).
//!
//! The newest `keepImages` ([`Manager::kept_images`]) stay whole through the compaction's
//! steps too: masking never takes them, and a fold (summary or drop) ends before the turn
//! of the oldest of them ([`Manager::spare_kept_images`]) while that leaves the request at
//! most halfway between the water marks. A folded turn's image cannot be sent after the
//! summary without its call, so it is the turn that stays; past that mark the oldest kept
//! image yields first (stored and named in the transcript, one recall away), and the
//! squeeze, the budget's last resort, keeps the newest while anything else can go.

use super::{Flow, Phase};
use crate::context::Manager;
use crate::context::config::IMAGE_SHARE;
use crate::context::history::{Kind, Shown, Stored};
use crate::context::ledger;

impl Manager {
    /// The step: the queued images, one at a time; then a compaction if it is due, else
    /// done when the request fits, else the squeeze.
    pub(super) fn images_step(&mut self) -> Flow {
        if let Some(need) = self.next_mask() {
            return Flow::Ask(need);
        }
        Flow::Go(if self.should_compact() {
            self.start_compaction();
            Phase::Mask
        } else if self.fits() {
            Phase::Done
        } else {
            Phase::Squeeze
        })
    }

    /// The images a request holds whole, oldest first: the opening message's, then the
    /// live ones.
    pub(super) fn whole_images(&self) -> Vec<(usize, usize)> {
        self.opening()
            .chain(self.live())
            .flat_map(|i| {
                self.history.messages[i]
                    .parts
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.kind == Kind::Image && p.shown == Shown::Whole)
                    .map(move |(k, _)| (i, k))
            })
            .collect()
    }

    /// The images kept whole through a compaction: the newest `keepImages` of those the
    /// request holds whole, in order.
    pub(in crate::context) fn kept_images(&self) -> Vec<(usize, usize)> {
        let mut whole = self.whole_images();
        whole.drain(..whole.len().saturating_sub(self.config.keep_images));
        whole
    }

    /// Where a fold that would end at group `end` (the fewest oldest turns that bring the
    /// request under the low water mark) ends instead: at the turn of the oldest kept image
    /// it would take, when folding up to it brings the request halfway between the marks
    /// (`least`: the fold's end for that mark), so that the next compaction still comes at
    /// least half as late. Else the oldest kept image yields, and the next is tried.
    pub(in crate::context) fn spare_kept_images(&self, end: usize, least: usize) -> usize {
        let pinned = self.pinned();
        self.kept_images()
            .iter()
            .filter(|&&(m, _)| !pinned.contains(&m))
            .map(|&(m, _)| self.history.messages[m].group)
            .filter(|&g| g >= self.first_live && g < end)
            .find(|&g| g >= least)
            .unwrap_or(end)
    }

    /// How many older images leave at a time, `keepImages` being kept whole. Replacing
    /// them rewrites the request from the oldest of them on: about `keep` images (and the
    /// steps between), billed as cache writes at 1.25 an input token, once every `chunk`
    /// images; meanwhile about `chunk / 2` more images stay whole than with a chunk of one,
    /// read from the cache at 0.1. The sum per image is least at `chunk² = 25 × keep`
    /// (1.25 / 0.1 × 2): 9 for the default 3, against Anthropic's reference loop, whose
    /// chunk is `keep`. No fewer than `keep`, and no more than leave the images whole at
    /// most [`IMAGE_SHARE`] of the budget, so that images never crowd out the conversation.
    fn image_chunk(&self, whole: &[(usize, usize)]) -> usize {
        let keep = self.config.keep_images;
        let best = (25.0 * keep as f64).sqrt().round() as usize;
        let tokens: f64 = whole.iter().map(|&(m, k)| self.part(m, k).tokens).sum();
        let mean = tokens / whole.len().max(1) as f64;
        let fit = if mean > 0.0 {
            (IMAGE_SHARE * self.config.budget / mean).floor() as usize
        } else {
            usize::MAX
        };
        best.min(fit.saturating_add(1).saturating_sub(keep))
            .max(keep)
    }

    /// Once `keepImages` and a chunk (`image_chunk`) are whole, all but the newest
    /// `keepImages` are queued to be stored and replaced: several at a time, so the prompt
    /// cache breaks once in so many images.
    pub(super) fn plan_images(&mut self) {
        let keep = self.config.keep_images;
        let whole = self.whole_images();
        if whole.len() <= keep || whole.len() < keep + self.image_chunk(&whole) {
            return;
        }
        let older = &whole[..whole.len() - keep];
        let queue: Vec<(usize, usize)> = older
            .iter()
            .copied()
            .filter(|&(m, k)| self.part(m, k).stored != Stored::Failed)
            .collect();
        if queue.is_empty() {
            return;
        }
        let before = self.tokens();
        let c = self.record.compaction_mut();
        c.trigger = ledger::Trigger::Images;
        c.before = before;
        c.high_water = self.config.budget * self.config.high_water;
        c.low_water = self.config.budget * self.config.low_water;
        c.edit_from = queue.first().map(|q| q.0);
        // Taken from the end: the newest first.
        self.mask_queue = queue;
    }
}
