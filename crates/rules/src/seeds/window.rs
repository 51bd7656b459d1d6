//! Seed 001: the sliding relevance window and the spec refresh protocol
//! ([4_USER_FEATURES-REQ-018]).

use crate::base::args::whole_number;
use crate::base::cut::Units;
use crate::base::frame::Pieces;
use crate::base::text::{Probe, cut_end, is_blank, lossy};
use devs_context_errors::FieldError;

pub const DEFAULT_MAX_TURNS: usize = 20;
/// The specs are re-injected on every turn count divisible by this.
pub const SPEC_REFRESH_INTERVAL: u64 = 10;
/// Each spec document is cut to this many UTF-16 units.
pub const MAX_SPEC_CHARS: usize = 3000;
pub const SPEC_REFRESH_MARKER: &str = "[SPEC REFRESH]";

/// Index of the first turn the window keeps: the newest `max_turns` win.
pub fn window_start(total: usize, max_turns: usize) -> usize {
    total.saturating_sub(max_turns)
}

/// `maxTurns` as a host gave it (`None`: the default of 20).
pub fn max_turns(field: &str, value: Option<f64>) -> Result<usize, FieldError> {
    match value {
        None => Ok(DEFAULT_MAX_TURNS),
        Some(n) => Ok(whole_number(field, n, 1)? as usize),
    }
}

pub fn should_inject_spec(turn_count: u64) -> bool {
    turn_count > 0 && turn_count.is_multiple_of(SPEC_REFRESH_INTERVAL)
}

/// A host's turn count: zero and negative whole numbers are never due; a fraction, NaN or
/// an infinity is an error.
pub fn spec_due(turn_count: f64) -> Result<bool, FieldError> {
    if turn_count.is_finite() && turn_count.fract() == 0.0 && turn_count <= 0.0 {
        return Ok(false);
    }
    Ok(should_inject_spec(whole_number(
        "turnCount",
        turn_count,
        0,
    )?))
}

/// Host texts of [`injection`]: document `i`'s name is text `2i`, its content `2i + 1`.
pub fn name_text(doc: usize) -> usize {
    2 * doc
}

pub fn content_text(doc: usize) -> usize {
    2 * doc + 1
}

/// `[SPEC REFRESH]\n\n` then `## NAME\nCONTENT\n` per document, each content cut to
/// [`MAX_SPEC_CHARS`] units. `probes[i]` is at least the first `MAX_SPEC_CHARS + 1` units
/// of document `i`'s content.
pub fn injection(p: &mut Pieces<'_>, probes: &[Probe]) {
    p.lit(SPEC_REFRESH_MARKER).lit("\n\n");
    for (doc, probe) in probes.iter().enumerate() {
        p.lit("## ").host(name_text(doc)).lit("\n");
        p.host_range(content_text(doc), 0, cut_end(probe, MAX_SPEC_CHARS, false));
        p.lit("\n");
    }
}

/// The documents a `ContextComposer` loads once: at least one, none blank. `contents`
/// are whole.
pub fn check_specs(field: &str, contents: &[Units]) -> Result<(), FieldError> {
    if contents.is_empty() {
        return Err(FieldError::range_error(
            format!("{field}.specs"),
            "must hold at least one document",
        ));
    }
    match contents.iter().position(|c| is_blank(&lossy(c))) {
        Some(i) => Err(FieldError::range_error(
            format!("{field}.specs[{i}].content"),
            "must not be empty",
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
#[path = "tests/window.rs"]
mod tests;
