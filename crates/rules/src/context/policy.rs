//! What a compaction edits, priced the way a bill prices it: a token read from the
//! provider's cache costs [`READ`] of an uncached one, a token written to it [`WRITE`].
//!
//! An edit at a message makes the provider write everything after it again, so a
//! compaction's cost is set by its earliest edit. The parts it must mask to reach the low
//! water mark are taken newest first, which keeps that edit as late as it can be.
//!
//! A compaction lands between [`LAND_FLOOR`] of the low water mark and the mark: what it
//! takes out beyond that is what the agent reaches for next. Masking, whose parts are
//! small beside the band, lands it; a fold (a summary or a drop), whose turns are not,
//! goes first when masking alone cannot reach the mark, and stops short of the band by
//! what masking can still take after it.

use super::Manager;
use super::config::{CALL_MASK_TOKENS, LAND_FLOOR, PLACEHOLDER_TOKENS, READ, WRITE};
use super::history::{Kind, Shown, Stored};

/// What a request's input cost, in uncached input tokens: `input` in all, `read` of them
/// from the cache and `write` written to it.
pub fn billed(input: f64, read: f64, write: f64) -> f64 {
    (input - read - write).max(0.0) + READ * read + WRITE * write
}

/// What a compaction masks: the parts, and the earliest message it edits.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MaskPlan {
    pub first: Option<usize>,
    /// `(message, part)`, newest last.
    pub parts: Vec<(usize, usize)>,
    /// Whether they bring the request under the low water mark.
    pub reaches: bool,
}

/// A part that may become a placeholder, and what that saves on each request, as the
/// provider counts it.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    message: usize,
    part: usize,
    saving: f64,
}

/// Where the newest messages begin: their parts stay whole in a compaction. They are the
/// newest groups whose editable parts fit `recent_share` of the budget, and always the
/// newest group.
pub fn recent_start(m: &Manager) -> usize {
    let messages = &m.history.messages;
    let Some(last) = messages.last() else {
        return 0;
    };
    let room = m.config.budget * m.config.recent_share;
    let mut start = last.group;
    let mut used: f64 = (start..messages.len()).map(|i| messages[i].tokens()).sum();
    while start > m.first_live {
        let group = messages[start - 1].group;
        let t: f64 = (group..start).map(|i| messages[i].tokens()).sum();
        if used + t > room {
            break;
        }
        used += t;
        start = group;
    }
    start
}

/// A part that may become a placeholder, and what that saves, as the provider counts it.
fn candidates(m: &Manager) -> Vec<Candidate> {
    let recent = recent_start(m);
    let placeholder = placeholder_tokens(m);
    let held = m.held();
    let kept = m.kept_images();
    let mut candidates: Vec<Candidate> = Vec::new();
    for i in m.first_live..recent {
        for (k, p) in m.history.messages[i].parts.iter().enumerate() {
            if held.holds(i, k) || kept.binary_search(&(i, k)).is_ok() {
                continue;
            }
            let saving = p.shown_tokens - placeholder;
            // Tool outputs, images and documents, and large call inputs: the conversation's
            // own words are summarized, never masked.
            let large_call = p.kind.call() && p.shown_tokens > CALL_MASK_TOKENS;
            if (p.kind == Kind::Result || p.kind.media() || large_call)
                && p.shown != Shown::Placeholder
                && p.stored != Stored::Failed
                && saving > 0.0
            {
                let c = &m.calibration;
                let (text, media) = if p.kind.media() {
                    (0.0, saving)
                } else {
                    (saving, 0.0)
                };
                candidates.push(Candidate {
                    message: i,
                    part: k,
                    saving: c.predict_split(text, media) - c.predict_split(0.0, 0.0),
                });
            }
        }
    }
    candidates
}

/// A placeholder's tokens as the host writes them: the mean of those it measured, or
/// [`PLACEHOLDER_TOKENS`] before any. A compaction masks tens of parts, and the band it
/// lands in is a tenth of the low water mark: an assumed size would miss it.
fn placeholder_tokens(m: &Manager) -> f64 {
    let (n, sum) = m
        .history
        .messages
        .iter()
        .flat_map(|message| &message.parts)
        .filter(|p| p.shown == Shown::Placeholder)
        .fold((0.0, 0.0), |(n, sum), p| (n + 1.0, sum + p.shown_tokens));
    if n > 0.0 { sum / n } else { PLACEHOLDER_TOKENS }
}

/// The band a compaction lands in, as the provider counts the request: from
/// [`LAND_FLOOR`] of the low water mark to the mark. Masking aims a little above the floor,
/// as the provider's count of a placeholder is known only once it is sent.
fn band(m: &Manager) -> (f64, f64) {
    let low = m.config.budget * m.config.low_water;
    (low * (LAND_FLOOR + 0.02), low)
}

/// The parts a compaction masks: never a protected part within its share, nor a kept image
/// ([`Manager::kept_images`]), whose turn a fold spares too. Newest first, which keeps the
/// earliest edit, and so the cache's re-write, as late as it can be, until the request is
/// under the low water mark; a part whose mask would take the request under the band's
/// floor is passed by for older, smaller ones, so the compaction lands in the band rather
/// than below it. Where masking more would pay for itself in the cache, that is a lower
/// `lowWater`, never a compaction that overshoots its own.
pub fn mask_plan(m: &Manager) -> MaskPlan {
    plan_within(m, band(m).0)
}

/// Masking as [`mask_plan`] does, when nothing else can land the request: newest first to
/// the low water mark, whatever the last part takes below it.
pub fn mask_plan_unbounded(m: &Manager) -> MaskPlan {
    plan_within(m, f64::NEG_INFINITY)
}

fn plan_within(m: &Manager, floor: f64) -> MaskPlan {
    let target = band(m).1;
    let (mut parts, level) = reach(&candidates(m), 0, m.tokens(), floor, target);
    parts.reverse();
    MaskPlan {
        first: parts.first().map(|p| p.0),
        parts,
        reaches: level <= target,
    }
}

/// Where masking the candidates from message `from` on takes a request of `level` tokens:
/// to `stop` or under, never under `floor`. Of the sets of parts that land it there, one
/// among the fewest newest candidates, which keeps the earliest edit as late as it can be
/// (a subset sum, in steps of a 32nd of the band); failing any, newest first each part that
/// does not take it under `floor`. The parts it takes, newest first, and the level.
fn reach(
    candidates: &[Candidate],
    from: usize,
    level: f64,
    floor: f64,
    stop: f64,
) -> (Vec<(usize, usize)>, f64) {
    if level <= stop {
        return (Vec::new(), level);
    }
    let live: Vec<Candidate> = candidates
        .iter()
        .rev()
        .take_while(|c| c.message >= from)
        .copied()
        .collect();
    if !(level.is_finite() && floor.is_finite() && stop > floor) {
        return (Vec::new(), level);
    }
    // At most a few thousand sums, whatever the request's size.
    let step = ((stop - floor) / 32.0)
        .max((level - floor) / 4096.0)
        .max(1.0);
    let most = ((level - floor) / step).floor() as usize;
    let least = ((level - stop) / step).ceil() as usize;
    // By sum: the candidate that first reached it, and the sum before.
    let mut by: Vec<Option<(usize, usize)>> = vec![None; most + 1];
    let mut reached = vec![false; most + 1];
    reached[0] = true;
    for (k, c) in live.iter().enumerate() {
        let w = (c.saving / step).round() as usize;
        if w == 0 || w > most {
            continue;
        }
        for sum in (w..=most).rev() {
            if !reached[sum] && reached[sum - w] {
                reached[sum] = true;
                by[sum] = Some((k, sum - w));
            }
        }
        if let Some(sum) = (least..=most).find(|&s| reached[s]) {
            let (mut taken, mut at) = (Vec::new(), sum);
            while let Some((k, before)) = by[at] {
                taken.push(live[k]);
                at = before;
            }
            let after = level - taken.iter().map(|c| c.saving).sum::<f64>();
            if after >= floor && after <= stop {
                taken.sort_by_key(|c| (std::cmp::Reverse(c.message), std::cmp::Reverse(c.part)));
                return (taken.iter().map(|c| (c.message, c.part)).collect(), after);
            }
        }
    }
    let (mut taken, mut l) = (Vec::new(), level);
    for c in &live {
        if l <= stop {
            break;
        }
        if l - c.saving >= floor {
            l -= c.saving;
            taken.push((c.message, c.part));
        }
    }
    (taken, l)
}

/// Our tokens as the provider counts them, for a difference of counts.
fn provider(m: &Manager, ours: f64) -> f64 {
    let c = &m.calibration;
    c.predict_split(ours, 0.0) - c.predict_split(0.0, 0.0)
}

/// What a fold keeps in hand for its estimates (the summary's size, the index's growth), as
/// the provider counts the request: it stops this far short of where masking after it
/// would land the request under the mark `mark`, or in its band for the low water mark.
fn fold_margin(m: &Manager, mark: f64) -> f64 {
    m.config.budget * mark * (1.0 - LAND_FLOOR) / 2.0
}

/// Where a summary's span ends: the fewest oldest groups whose replacement by a summary
/// brings the request, with what masking can still take after it, under the low water
/// mark with a margin for its estimates ([`fold_margin`]); never the newest group, nor a kept image's while it can be spared
/// ([`Manager::spare_kept_images`]). The new summary is expected the size of the one
/// before, or a third of its cap for the first: assuming the cap would fold far more than
/// needed. One that comes out larger, or after which masking cannot land the request, folds
/// more after it, with no masking counted (`mask_after` false), so that it takes one more
/// summary, not one for each turn.
pub fn summary_end(m: &Manager, newest: usize, mask_after: bool) -> usize {
    let expected = m.summary_tokens.max(m.config.summary_cap() / 3.0);
    let reserve = expected - m.summary_tokens;
    let candidates = if mask_after {
        candidates(m)
    } else {
        Vec::new()
    };
    let (floor, _) = band(m);
    let now = m.tokens();
    let end_for = |mark: f64| {
        let (margin, stop) = (fold_margin(m, mark), m.config.budget * mark);
        let (mut folded, mut end) = (0.0, m.first_live);
        // The index gains a line for each stored text folded, and one for the transcript.
        while end < newest {
            let level = now - provider(m, folded - m.index_growth(m.first_live, end) - reserve);
            if reach(&candidates, end, level + margin, floor, stop).1 <= stop {
                break;
            }
            let next = m.history.next_group(end);
            folded += m.fold_tokens(end, next);
            end = next;
        }
        end
    };
    let c = &m.config;
    m.spare_kept_images(
        end_for(c.low_water),
        end_for((c.low_water + c.high_water) / 2.0),
    )
}

/// Where a drop of the oldest groups ends, dropping from `first_live` on: the fewest that
/// bring the request, with what masking can still take after it (as [`mask_plan`] will
/// take it), under `mark` (or to the newest group), the index's gain counted.
pub fn drop_end(m: &mut Manager, newest: usize, mark: f64) -> usize {
    let start = m.first_live;
    let candidates = candidates(m);
    let (floor, _) = band(m);
    let stop = m.config.budget * mark;
    while m.first_live < newest {
        let level = m.predicted(m.index_growth(start, m.first_live)).ceil();
        if reach(&candidates, m.first_live, level, floor, stop).1 <= stop {
            break;
        }
        m.first_live = m.history.next_group(m.first_live);
    }
    std::mem::replace(&mut m.first_live, start)
}

/// A signed thinking block is checked against everything before it: after an edit, the
/// blocks from `edit` on (the first position after what changed) are dropped. Returns how
/// many were.
pub fn drop_invalidated_thinking(m: &mut Manager, edit: Option<(usize, usize)>) -> usize {
    let Some((message, part)) = edit else {
        return 0;
    };
    let mut dropped = 0;
    for i in message.max(m.first_live)..m.history.messages.len() {
        let from = if i == message { part } else { 0 };
        for k in from..m.history.messages[i].parts.len() {
            let p = m.history.messages[i].parts[k];
            if p.kind == Kind::Thinking && p.shown != Shown::Dropped {
                m.part_mut(i, k).shown = Shown::Dropped;
                dropped += 1;
            }
        }
    }
    dropped
}
