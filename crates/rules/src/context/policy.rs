//! What a compaction edits, priced the way a bill prices it: a token read from the
//! provider's cache costs [`READ`] of an uncached one, a token written to it [`WRITE`].
//!
//! An edit at a message makes the provider write everything after it again, so a
//! compaction's cost is set by its earliest edit. The parts it must mask to reach the low
//! water mark are taken newest first, which keeps that edit as late as it can be. An older
//! part is masked too only when what it saves, on each request until the next
//! compaction, beats the re-write of everything between it and the edit already made.

use super::Manager;
use super::config::{CALL_MASK_TOKENS, DEFAULT_GROWTH_SHARE, PLACEHOLDER_TOKENS, READ, WRITE};
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
}

/// A part that may become a placeholder, and what that saves on each request.
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

/// Requests expected before the next compaction: the room between the water marks over
/// the tokens each request adds.
pub fn horizon(m: &Manager, growth: f64) -> f64 {
    let room = m.config.budget * (m.config.high_water - m.config.low_water);
    let per_request = if growth > 0.0 {
        growth
    } else {
        m.config.budget * DEFAULT_GROWTH_SHARE
    };
    (room / per_request).max(1.0)
}

/// The parts a compaction masks: never a protected part within its share, nor a kept image
/// ([`Manager::kept_images`]), whose turn a fold spares too.
pub fn mask_plan(m: &Manager, growth: f64) -> MaskPlan {
    let recent = recent_start(m);
    let held = m.held();
    let kept = m.kept_images();
    let mut candidates: Vec<Candidate> = Vec::new();
    for i in m.first_live..recent {
        for (k, p) in m.history.messages[i].parts.iter().enumerate() {
            if held.holds(i, k) || kept.binary_search(&(i, k)).is_ok() {
                continue;
            }
            let saving = p.shown_tokens - PLACEHOLDER_TOKENS;
            // Tool outputs, images and documents, and large call inputs: the conversation's
            // own words are summarized, never masked.
            let large_call = p.kind.call() && p.shown_tokens > CALL_MASK_TOKENS;
            if (p.kind == Kind::Result || p.kind.media() || large_call)
                && p.shown != Shown::Placeholder
                && p.stored != Stored::Failed
                && saving > 0.0
            {
                candidates.push(Candidate {
                    message: i,
                    part: k,
                    saving,
                });
            }
        }
    }
    // Mandatory: newest first, until the request is under the low water mark.
    let target = m.config.budget * m.config.low_water;
    let mut over = m.tokens() - target;
    let mut taken = 0;
    for c in candidates.iter().rev() {
        if over <= 0.0 {
            break;
        }
        let kind = m.history.messages[c.message].parts[c.part].kind;
        let ratio = if kind.media() {
            m.calibration.media_ratio
        } else {
            m.calibration.ratio
        };
        over -= ratio * c.saving;
        taken += 1;
    }
    let mut chosen = candidates.len() - taken;
    // Optional: reach further back while the savings over the horizon beat the re-write.
    let n = horizon(m, growth);
    // Without a mandatory edit, an optional one re-writes everything after it.
    let edit_at = |chosen: usize| {
        candidates
            .get(chosen)
            .map_or(m.history.messages.len(), |c| c.message)
    };
    let mut best = (0.0, chosen);
    let mut gain = 0.0;
    let mut k = chosen;
    while k > 0 {
        k -= 1;
        let c = candidates[k];
        gain += READ * n * c.saving;
        // Re-written: the messages between this edit and the one already made, masked.
        let rewrite: f64 = (c.message..edit_at(chosen))
            .map(|i| m.history.messages[i].tokens())
            .sum::<f64>()
            - candidates[k..chosen].iter().map(|c| c.saving).sum::<f64>();
        let net = gain - (WRITE - READ) * rewrite.max(0.0);
        if net > best.0 {
            best = (net, k);
        }
    }
    chosen = best.1;
    let parts: Vec<(usize, usize)> = candidates[chosen..]
        .iter()
        .map(|c| (c.message, c.part))
        .collect();
    MaskPlan {
        first: parts.first().map(|p| p.0),
        parts,
    }
}

/// Where a summary's span ends: the fewest oldest groups whose replacement by a summary
/// brings the request under the low water mark, never the newest group, nor a kept
/// image's while it can be spared ([`Manager::spare_kept_images`]). The new summary
/// is expected the size of the one before, or a third of its cap for the first: assuming
/// the cap would fold far more than needed. One that comes out larger folds more after it.
pub fn summary_end(m: &Manager, newest: usize) -> usize {
    let expected = m.summary_tokens.max(m.config.summary_cap() / 3.0);
    let reserve = expected - m.summary_tokens;
    let end_for = |mark: f64| {
        let over = m.calibration.ours_for(m.tokens() - m.config.budget * mark);
        let (mut folded, mut end) = (0.0, m.first_live);
        // The index gains a line for each stored text folded, and one for the transcript.
        while end < newest && folded - m.index_growth(m.first_live, end) - reserve < over {
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
