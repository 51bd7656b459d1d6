//! The ledger of a build, as JSON.

use super::*;

#[test]
fn the_ledger_serializes_once() {
    let (mut m, mut h) = Host::default().start(20_000.0, "go");
    for turn in 0..30 {
        tool_turn(&mut h, &mut m, 4_000, turn);
        h.build(&mut m);
    }
    let json = m.record.to_json();
    for key in [
        "\"request\":",
        "\"tokens\":",
        "\"rawTokens\":",
        "\"sections\":",
        "\"cache\":",
        "\"sessionRelativeCost\":",
        "\"calibration\":",
    ] {
        assert!(json.contains(key), "{key} in {json}");
    }
}

#[test]
fn the_ledger_escapes_what_it_writes() {
    let r = ledger::Ledger {
        counter: "a\"b\\c\n\u{1}é😀".into(),
        ..ledger::Ledger::default()
    };
    let json = r.to_json();
    assert!(
        json.contains(r#""counter":"a\"b\\c\u000a\u0001é😀""#),
        "{json}"
    );
}
