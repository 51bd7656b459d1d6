//! The squeezing step: a request still over the budget (the newest group alone too large)
//! is cut until it fits. The texts, outputs and calls' inputs it holds are cut each to its
//! share of the room left (the level at which what they show together fits, [`level`]),
//! head and tail, each stored whole first and named by its id: a fan-out of parallel
//! outputs ends with every output shown by its first lines, not the first ones cut to a
//! stub while the others stay whole. An image or a document larger than that is stored and
//! replaced by a line instead (but the newest image). The step runs until the request fits
//! or nothing more can be cut; then [`finish`](super::finish) refuses it, naming the part.

use super::{Flow, Phase, cut_to};
use crate::context::Manager;
use crate::context::Need;
use crate::context::config::{MAX_SQUEEZES, MIN_CUT_TOKENS};
use crate::context::history::{Kind, Shown, Stored};
use crate::context::ledger::Warning;

/// A part the squeeze may make smaller: where it is, what it shows, and whether it is an
/// image or a document (replaced whole, never cut).
#[derive(Debug, Clone, Copy)]
struct Reducible {
    message: usize,
    part: usize,
    tokens: f64,
    media: bool,
}

impl Manager {
    /// The step: the next store or cut while the request is over the budget; then final.
    /// Each answer comes back here (the phase stays), so the step runs to its end.
    pub(super) fn squeeze_step(&mut self) -> Flow {
        match self.squeeze() {
            Some(need) => Flow::Ask(need),
            None => Flow::Go(Phase::Done),
        }
    }

    /// The next thing to do for a request over the budget: an image or a document larger
    /// than any text is replaced; else each text over the level is stored, then cut to it,
    /// the largest first, until none is over it, even once the request fits (or the last
    /// ones cut would stay whole while the first are cut short); still over the budget, a
    /// lower level, and another round.
    fn squeeze(&mut self) -> Option<Need> {
        let over = !self.fits();
        let parts = self.reducible();
        // Every part can be cut a few times (a cut denser than its estimate is cut again
        // apart from this count): the bound only stops a cut that never lands.
        let limit = MAX_SQUEEZES as usize + 4 * parts.len();
        if self.squeezes as usize >= limit {
            return None;
        }
        let largest = parts
            .iter()
            .copied()
            .max_by(|a, b| a.tokens.total_cmp(&b.tokens));
        if over && let Some(r) = largest.filter(|r| r.media) {
            return self.squeeze_part(r, f64::NAN);
        }
        let texts = || parts.iter().filter(|r| !r.media);
        let above = |level: f64| {
            texts()
                .filter(|r| r.tokens > level)
                .max_by(|a, b| a.tokens.total_cmp(&b.tokens))
                .copied()
        };
        let level = match self.squeeze_level {
            Some(level) if above(level).is_some() || !over => level,
            _ if over => {
                let excess = self
                    .calibration
                    .ours_for(self.tokens() - self.config.budget);
                let sizes: Vec<f64> = texts().map(|r| r.tokens).collect();
                // A token under the budget, as a single cut always aimed.
                let level = level(&sizes, excess + 1.0).max(MIN_CUT_TOKENS);
                self.squeeze_level = Some(level);
                level
            }
            _ => return None,
        };
        let r = above(level)?;
        self.squeeze_part(r, level)
    }

    /// Stores part `r` first; then replaces it (an image or a document) or cuts it to `target`.
    fn squeeze_part(&mut self, r: Reducible, target: f64) -> Option<Need> {
        let (message, part) = (r.message, r.part);
        let p = *self.part(message, part);
        if p.stored == Stored::No {
            return Some(Need::Persist { message, part });
        }
        self.squeezes += 1;
        self.record.warn(Warning::Squeezed);
        self.editing(&p);
        if r.media {
            return Some(Need::Placeholder { message, part });
        }
        self.cut_target = target;
        self.cut_last = p.shown_tokens;
        Some(cut_to(message, part, &p, target))
    }

    /// The parts a squeeze can make smaller: a text, an output or a call's input not cut to
    /// its least yet, or an image or a document not replaced yet (but the newest image,
    /// which stays whole while anything else can go).
    fn reducible(&self) -> Vec<Reducible> {
        let newest_image = self.whole_images().last().copied();
        let held = self.held();
        let mut out = Vec::new();
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
                if reducible {
                    out.push(Reducible {
                        message: i,
                        part: k,
                        tokens: p.shown_tokens,
                        media: p.kind.media(),
                    });
                }
            }
        }
        out
    }

    /// Where a request no step can bring under the budget is refused before any step
    /// asks anything (a summary the build would then throw away): the part named, when
    /// what cannot leave the request, at the least, is over the budget alone. What cannot
    /// leave: the fixed texts and the tail, and in the messages no fold takes (the pinned
    /// ones and the newest group) their framing and every part no step shortens (an
    /// opaque or encrypted item, the provider's compaction, a protected part within its
    /// share, the newest image). Thinking counts nothing: an edit before it drops it.
    /// `(message, part, tokens)`: the largest such part, and what cannot leave, as the
    /// provider counts it.
    pub(in crate::context) fn cannot_fit(&self) -> Option<(usize, usize, f64)> {
        // What fits whole fits at its least: most builds ask no more.
        if self.fits() {
            return None;
        }
        let newest = self.history.messages.last()?.group;
        let newest_image = self.whole_images().last().copied();
        let held = self.held();
        let (mut text, mut media) = (self.fixed_tokens() + self.tail_tokens, 0.0);
        let mut largest: Option<(usize, usize, f64)> = None;
        let start = newest.max(self.first_live);
        let pinned = self.opening().filter(|&i| i < start);
        for i in pinned.chain(start..self.history.messages.len()) {
            let m = &self.history.messages[i];
            text += m.framing;
            for (k, p) in m.parts.iter().enumerate() {
                let stays = match p.kind {
                    Kind::Opaque | Kind::Compaction => true,
                    Kind::Image => Some((i, k)) == newest_image,
                    _ => held.holds(i, k),
                };
                if !stays || p.shown == Shown::Dropped {
                    continue;
                }
                let t = p.visible_tokens();
                if p.kind.media() {
                    media += t;
                } else {
                    text += t;
                }
                if largest.is_none_or(|b| t > b.2) {
                    largest = Some((i, k, t));
                }
            }
        }
        let floor = self.calibration.predict_split(text, media).ceil();
        if floor <= self.config.budget {
            return None;
        }
        largest.map(|(i, k, _)| (i, k, floor))
    }
}

/// The level that parts of `tokens` are cut down to so that they show `over` tokens less
/// in all: each part above it cut to it, each below it whole (water filling). A single
/// part above the others is cut by `over` alone, as long as it stays the largest.
fn level(tokens: &[f64], over: f64) -> f64 {
    let mut sorted = tokens.to_vec();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let mut sum = 0.0;
    for (j, &t) in sorted.iter().enumerate() {
        sum += t;
        let level = (sum - over) / (j + 1) as f64;
        // The level holds when the next part is no larger: it stays whole.
        if sorted.get(j + 1).is_none_or(|&next| level >= next) {
            return level;
        }
    }
    0.0
}

#[cfg(test)]
#[path = "tests/squeeze.rs"]
mod tests;
