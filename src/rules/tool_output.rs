//! `ToolOutputPruner` ([8_RISKS-REQ-012]): large tool outputs are persisted raw, then
//! truncated in the context once they are two turns old.

pub const MIN_TURN_AGE: f64 = 2.0;
/// 50 KiB.
pub const MIN_BYTE_SIZE: f64 = 51_200.0;
/// UTF-16 units of the raw output kept in the truncated summary.
pub const SUMMARY_CHARS: usize = 500;
pub const DEFAULT_RAW_LOCATION: &str = "state.sqlite, table raw_tool_outputs";

pub fn should_truncate(turn_age: f64, byte_size: f64) -> bool {
    turn_age >= MIN_TURN_AGE && byte_size > MIN_BYTE_SIZE
}

/// Appended to the first 500 characters: names the original size and where the raw
/// output can be read back.
pub fn truncation_marker(tool_name: &str, original_bytes: f64, location: &str) -> String {
    format!(
        "\n\n[truncated: the output of {tool_name} was {} bytes; the raw output is stored in {location}]",
        super::args::show_number(original_bytes)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncates_only_old_and_large_outputs() {
        assert!(should_truncate(2.0, 51_201.0));
        assert!(!should_truncate(1.0, 400_000.0));
        assert!(!should_truncate(5.0, 51_200.0));
    }

    #[test]
    fn marker_names_size_and_location() {
        assert_eq!(
            truncation_marker("run_tests", 412_345.0, DEFAULT_RAW_LOCATION),
            "\n\n[truncated: the output of run_tests was 412345 bytes; the raw output is stored in state.sqlite, table raw_tool_outputs]"
        );
    }
}
