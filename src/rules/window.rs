//! Seed 001: the sliding relevance window and the spec refresh protocol
//! ([4_USER_FEATURES-REQ-018]).

use super::tokens::truncate_utf16;

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

pub fn should_inject_spec(turn_count: u64) -> bool {
    turn_count > 0 && turn_count.is_multiple_of(SPEC_REFRESH_INTERVAL)
}

/// `[SPEC REFRESH]\n\n` then `## NAME\nCONTENT\n` per document, each cut to 3000 units.
pub fn injection_content<'a>(documents: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut content = format!("{SPEC_REFRESH_MARKER}\n\n");
    for (name, text) in documents {
        content.push_str("## ");
        content.push_str(name);
        content.push('\n');
        content.push_str(truncate_utf16(text, MAX_SPEC_CHARS));
        content.push('\n');
    }
    content
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_turns() {
        assert_eq!(window_start(50, 20), 30);
        assert_eq!(window_start(5, 20), 0);
    }

    #[test]
    fn injects_on_multiples_of_ten_only() {
        let injected: Vec<u64> = (0..=35).filter(|&n| should_inject_spec(n)).collect();
        assert_eq!(injected, vec![10, 20, 30]);
    }

    #[test]
    fn formats_and_truncates_each_document() {
        let long = "x".repeat(3500);
        let content = injection_content([("TAS", "rust core"), ("PRD", long.as_str())]);
        assert!(content.starts_with("[SPEC REFRESH]\n\n## TAS\nrust core\n## PRD\n"));
        assert_eq!(content.matches('x').count(), 3000);
    }
}
