//! `WindowComposer`'s choice of envelopes for the Recent Past slot ([3_MCP-TAS-047]).

use crate::seeds::budget::WindowBudget;
use devs_context_errors::FieldError;

pub const DEFAULT_MAX_RECENT_ENVELOPES: usize = 10;
const MAX_RECENT_ENVELOPES: usize = 10;
/// Characters per token where a slot is cut to its budget.
pub const CHARS_PER_TOKEN: f64 = 4.0;

/// `maxRecentEnvelopes` is clamped to 1..=10, as the spec says, rather than refused.
pub fn clamp_max_recent(field: &str, value: f64) -> Result<usize, FieldError> {
    if value.is_nan() {
        return Err(FieldError::range_error(field, "must be a number, got NaN"));
    }
    Ok(value.floor().clamp(1.0, MAX_RECENT_ENVELOPES as f64) as usize)
}

/// A `WindowComposer`'s settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ComposerConfig {
    pub budget: WindowBudget,
    pub max_recent: usize,
}

impl ComposerConfig {
    pub fn new(shares: &[f64], max_recent: Option<f64>) -> Result<Self, FieldError> {
        Ok(Self {
            budget: WindowBudget::from_shares("budget", shares)?,
            max_recent: match max_recent {
                None => DEFAULT_MAX_RECENT_ENVELOPES,
                Some(n) => clamp_max_recent("options.maxRecentEnvelopes", n)?,
            },
        })
    }

    /// Where Goal or Map (`slot` 0 or 1) is cut: `None` when its `tokens` fit its share,
    /// else at most this many UTF-16 units, at the last space.
    pub fn slot_cut(&self, slot: usize, tokens: f64) -> Option<usize> {
        let share = if slot == 0 {
            self.budget.goal
        } else {
            self.budget.map
        };
        (tokens > share).then_some((share * CHARS_PER_TOKEN) as usize)
    }

    /// How many units of `observation.output` an envelope over the whole Recent Past
    /// share keeps, given the tokens of the envelope with an empty output.
    pub fn output_room(&self, frame_tokens: f64) -> usize {
        ((self.budget.recent_past - frame_tokens).max(0.0) * CHARS_PER_TOKEN) as usize
    }

    /// `totalTokensUsed` and `budgetExceeded` of the three slots.
    pub fn totals(&self, slot_tokens: &[f64]) -> (f64, bool) {
        let total: f64 = slot_tokens.iter().sum();
        (total, total > self.budget.total)
    }
}

/// The envelopes to validate and render: the newest `max`, newest first; or, when some
/// envelope's `turn_index` is not a number (NaN), that one alone, for the validator to
/// name its fault.
pub fn envelopes_to_render(turn_indexes: &[f64], max: usize) -> Result<Vec<usize>, usize> {
    match turn_indexes.iter().position(|n| n.is_nan()) {
        Some(i) => Err(i),
        None => Ok(newest_first(turn_indexes, max)),
    }
}

/// An envelope offered for the slot: its `turn_index` and its tokens once rendered.
#[derive(Debug, Clone, Copy)]
pub struct Candidate {
    pub turn_index: f64,
    pub tokens: f64,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Selection {
    /// Indexes into the candidates, oldest first, as they appear in the slot.
    pub taken: Vec<usize>,
    /// Some of the newest `max` envelopes were left out because the budget ran out.
    pub truncated: bool,
    /// The newest envelope alone is over budget: it goes in cut down, keeping its action.
    pub cut_newest: Option<usize>,
}

/// Indexes of the newest `max` envelopes, newest first (by `turn_index`; on a tie the
/// later one is newer). Only these can appear in the slot, so only these need rendering.
///
/// One pass that keeps the newest `max` seen so far (at most 10), rather than a sort of
/// every envelope: a session's envelopes only grow, and a window shows ten. The pass runs
/// from the last envelope back, as envelopes are appended newest last: the first few fill
/// the window, and every older one costs one comparison.
pub fn newest_first(turn_indexes: &[f64], max: usize) -> Vec<usize> {
    let newer = |a: usize, b: usize| {
        turn_indexes[a]
            .total_cmp(&turn_indexes[b])
            .then(a.cmp(&b))
            .is_gt()
    };
    let mut order: Vec<usize> = Vec::with_capacity(max.min(turn_indexes.len()) + 1);
    // Once the window is full, the oldest turn index in it: an envelope below it is older,
    // by one plain comparison (`newer` settles ties and signed zeros). Nearly every
    // envelope of a long session is.
    let mut floor = f64::NEG_INFINITY;
    for i in (0..turn_indexes.len()).rev() {
        if order.len() == max
            && (turn_indexes[i] < floor || !order.last().is_some_and(|&last| newer(i, last)))
        {
            continue;
        }
        let at = order.partition_point(|&kept| newer(kept, i));
        order.insert(at, i);
        order.truncate(max);
        if order.len() == max {
            floor = order
                .last()
                .map_or(f64::NEG_INFINITY, |&last| turn_indexes[last]);
        }
    }
    order
}

/// Takes envelopes newest first (by `turn_index`; on a tie the later one is newer), at most
/// `max` of them, greedily while they fit in `budget` tokens.
pub fn select_recent(candidates: &[Candidate], max: usize, budget: f64) -> Selection {
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|&a, &b| {
        candidates[b]
            .turn_index
            .total_cmp(&candidates[a].turn_index)
            .then(b.cmp(&a))
    });
    order.truncate(max);
    let mut selection = Selection::default();
    let mut used = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        if used + candidates[i].tokens > budget {
            selection.truncated = true;
            if rank == 0 {
                selection.cut_newest = Some(i);
            }
            break;
        }
        used += candidates[i].tokens;
        selection.taken.push(i);
    }
    selection.taken.reverse();
    selection
}

#[cfg(test)]
#[path = "tests/window_composer.rs"]
mod tests;
