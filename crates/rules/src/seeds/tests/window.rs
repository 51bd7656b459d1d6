use super::*;
use crate::base::frame::{Frame, Reader};

#[test]
fn keeps_the_newest_turns() {
    assert_eq!(window_start(50, 20), 30);
    assert_eq!(window_start(5, 20), 0);
}

#[test]
fn injects_on_multiples_of_ten_only() {
    let injected: Vec<u64> = (0..=35).filter(|&n| should_inject_spec(n)).collect();
    assert_eq!(injected, vec![10, 20, 30]);
    assert_eq!(spec_due(-10.0), Ok(false));
    assert_eq!(spec_due(20.0), Ok(true));
    for bad in [2.5, f64::NAN, f64::INFINITY] {
        assert_eq!(spec_due(bad).unwrap_err().field, "turnCount");
    }
}

#[test]
fn formats_and_truncates_each_document() {
    let long = "x".repeat(3500);
    let probes = [Probe::of("rust core"), Probe::of(&long[..3001])];
    let mut frame = Frame::new();
    frame.text(|p| injection(p, &probes));
    let text = Reader::new(&frame.into_string()).text(&["TAS", "rust core", "PRD", &long]);
    assert!(text.starts_with("[SPEC REFRESH]\n\n## TAS\nrust core\n## PRD\n"));
    assert_eq!(text.matches('x').count(), 3000);
}

#[test]
fn specs_must_be_there_and_not_blank() {
    assert_eq!(
        check_specs("options", &[]).unwrap_err().field,
        "options.specs"
    );
    let err = check_specs("options", &[Units::of("a"), Units::of(" \n")]).unwrap_err();
    assert_eq!(err.field, "options.specs[1].content");
    assert_eq!(max_turns("config.maxTurns", None), Ok(20));
    assert_eq!(
        max_turns("config.maxTurns", Some(0.0)).unwrap_err().field,
        "config.maxTurns"
    );
}
