use super::*;
use crate::base::frame::{Frame, Reader};

#[test]
fn truncates_only_old_and_large_outputs() {
    assert!(should_truncate(2.0, 51_201.0));
    assert!(!should_truncate(1.0, 400_000.0));
    assert!(!should_truncate(5.0, 51_200.0));
}

#[test]
fn marker_names_size_and_location() {
    let raw = "L".repeat(600);
    let mut frame = Frame::new();
    frame.text(|p| summary(p, &Probe::of(&raw[..501]), 412_345.0, false));
    let text = Reader::new(&frame.into_string()).text(&[&raw, "run_tests"]);
    assert_eq!(
        text,
        format!(
            "{}\n\n[truncated: the output of run_tests was 412345 bytes; the raw output is stored in state.sqlite, table raw_tool_outputs]",
            &raw[..500]
        )
    );
}

#[test]
fn many_entries_at_once() {
    assert_eq!(
        due_all(&[60_000.0, 10.0, 1.5], &[2.0, 5.0, 2.0], &[0.0, 0.0, 0.0]),
        vec![1, 0, 2]
    );
}

#[test]
fn entries_are_checked() {
    assert_eq!(
        check_entry("entry", 1.5, 0.0, 0.0).unwrap_err().field,
        "entry.byteSize"
    );
    assert_eq!(
        check_entry("entry", 1.0, -1.0, 0.0).unwrap_err().field,
        "entry.turnAge"
    );
    assert_eq!(
        check_entry("entry", 1.0, 0.0, f64::NAN).unwrap_err().field,
        "entry.capturedAt"
    );
    assert_eq!(check_entry("entry", 10.0, 2.0, 1e12), Ok(()));
    assert!(check_location(0).is_err());
}
