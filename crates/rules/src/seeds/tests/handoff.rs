use super::*;
use crate::base::frame::Reader;

fn units(items: &[&str]) -> Vec<Probe> {
    items.iter().map(|s| Probe::of(s)).collect()
}

#[test]
fn leaves_tool_turns_out_and_cuts_each_turn() {
    let long = "Q".repeat(2000);
    let contents = ["fix the parser", "TOOL OUTPUT", long.as_str()];
    let mut frame = Frame::new();
    prompt(
        &mut frame,
        &[4.0, 5.0, 6.0],
        &["user", "tool", "assistant"],
        &units(&contents),
    )
    .unwrap();
    let values = frame.into_string();
    let mut r = Reader::new(&values);
    assert_eq!((r.num(), r.num(), r.num()), (1.0, 4.0, 6.0));
    let text = r.text(&["dev-1", contents[0], contents[1], contents[2]]);
    assert!(text.contains("agent dev-1"));
    assert!(text.contains("[turn 4] user:\nfix the parser\n"));
    assert!(!text.contains("TOOL OUTPUT"));
    assert_eq!(text.matches('Q').count(), 1500);
}

#[test]
fn nothing_to_summarize_calls_nothing() {
    for (indexes, roles) in [(vec![], vec![]), (vec![1.0], vec!["tool"])] {
        let mut frame = Frame::new();
        prompt(
            &mut frame,
            &indexes,
            &roles,
            &units(&vec!["out"; roles.len()]),
        )
        .unwrap();
        assert_eq!(frame.into_string(), "\u{FDD3}0\u{FDD1}");
    }
    assert_eq!(turn_range(&[]), None);
}

#[test]
fn roles_are_checked() {
    let err = prompt(&mut Frame::new(), &[1.0], &["system"], &units(&["x"])).unwrap_err();
    assert_eq!(err.field, "turns[0].role");
    assert_eq!(Role::Assistant.name(), "assistant");
}

#[test]
fn refresh_turn_is_prefixed() {
    let mut frame = Frame::new();
    frame.text(context_refresh);
    assert_eq!(
        Reader::new(&frame.into_string()).text(&["S"]),
        "[CONTEXT REFRESH]\nS"
    );
}
