//! `ToolOutputPruner` ([8_RISKS-REQ-012]): large tool outputs are persisted raw, then
//! truncated in the context once they are two turns old.

use crate::base::args::{show_number, whole_number};
use crate::base::frame::Pieces;
use crate::base::text::{Probe, cut_end};
use devs_context_errors::FieldError;

pub const MIN_TURN_AGE: f64 = 2.0;
/// 50 KiB.
pub const MIN_BYTE_SIZE: f64 = 51_200.0;
/// UTF-16 units of the raw output kept in the truncated summary.
pub const SUMMARY_CHARS: usize = 500;
pub const DEFAULT_RAW_LOCATION: &str = "state.sqlite, table raw_tool_outputs";

pub fn should_truncate(turn_age: f64, byte_size: f64) -> bool {
    turn_age >= MIN_TURN_AGE && byte_size > MIN_BYTE_SIZE
}

/// The numbers of a `ToolOutputEntry`: `byteSize` and `turnAge` are whole numbers >= 0,
/// and `capturedAt` (as epoch milliseconds; NaN when the host could not read a date from
/// it) is a real time.
pub fn check_entry(
    field: &str,
    byte_size: f64,
    turn_age: f64,
    captured_at_ms: f64,
) -> Result<(), FieldError> {
    whole_number(&format!("{field}.byteSize"), byte_size, 0)?;
    whole_number(&format!("{field}.turnAge"), turn_age, 0)?;
    if !captured_at_ms.is_finite() {
        return Err(FieldError::type_error(
            format!("{field}.capturedAt"),
            "must be a Date, epoch milliseconds or a date string",
        ));
    }
    Ok(())
}

/// `shouldTruncate` for many entries at once: 1 due, 0 not due, 2 when the entry's
/// numbers fail [`check_entry`] (the host then asks for that entry's error).
pub fn due_all(byte_sizes: &[f64], turn_ages: &[f64], captured_at_ms: &[f64]) -> Vec<u8> {
    byte_sizes
        .iter()
        .zip(turn_ages)
        .zip(captured_at_ms)
        .map(|((&b, &a), &c)| match check_entry("", b, a, c) {
            Err(_) => 2,
            Ok(()) => u8::from(should_truncate(a, b)),
        })
        .collect()
}

/// `rawOutputLocation` is where the marker says the raw output is: not empty.
pub fn check_location(location_len: usize) -> Result<(), FieldError> {
    if location_len == 0 {
        return Err(FieldError::type_error(
            "options.rawOutputLocation",
            "must be a non-empty string, got the string \"\"",
        ));
    }
    Ok(())
}

/// Host texts of [`summary`].
pub const RAW_CONTENT: usize = 0;
pub const TOOL_NAME: usize = 1;
/// The marker's location; `None` in [`summary`] means [`DEFAULT_RAW_LOCATION`].
pub const LOCATION: usize = 2;

/// The first 500 characters of the output (`probe` is at least its first 501 units) and a
/// marker naming its byte size and where the raw output is.
pub fn summary(p: &mut Pieces<'_>, probe: &Probe, byte_size: f64, host_location: bool) {
    p.host_range(RAW_CONTENT, 0, cut_end(probe, SUMMARY_CHARS, false));
    p.lit("\n\n[truncated: the output of ")
        .host(TOOL_NAME)
        .lit(&format!(
            " was {} bytes; the raw output is stored in ",
            show_number(byte_size)
        ));
    if host_location {
        p.host(LOCATION);
    } else {
        p.lit(DEFAULT_RAW_LOCATION);
    }
    p.lit("]");
}

#[cfg(test)]
#[path = "tests/tool_output.rs"]
mod tests;
