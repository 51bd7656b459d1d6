use super::*;
use crate::base::frame::{Frame, Reader};

fn refreshes(counter: &mut RefreshCounter, turns: usize) -> Vec<usize> {
    (1..=turns)
        .filter(|_| matches!(counter.on_turn(), Tick::Refresh(_)))
        .collect()
}

#[test]
fn fires_on_every_fifth_turn_and_resets_at_once() {
    let mut c = RefreshCounter::new(DEFAULT_THRESHOLD);
    for turn in 1..=4 {
        assert_eq!(c.on_turn(), Tick::Quiet, "turn {turn}");
    }
    assert!(matches!(c.on_turn(), Tick::Refresh(_)));
    assert_eq!(c.turns_in_current_node(), 0);
    assert_eq!(refreshes(&mut c, 10).len(), 2);
}

#[test]
fn threshold_one_fires_every_turn() {
    let mut c = RefreshCounter::new(1);
    assert_eq!(refreshes(&mut c, 7).len(), 7);
}

#[test]
fn rollback_makes_the_next_turn_retry() {
    let mut c = RefreshCounter::new(5);
    for _ in 0..4 {
        c.on_turn();
    }
    let Tick::Refresh(ticket) = c.on_turn() else {
        panic!("expected a refresh")
    };
    c.rollback(ticket);
    assert_eq!(c.turns_in_current_node(), 4);
    assert!(matches!(c.on_turn(), Tick::Refresh(_)));
}

#[test]
fn rollback_keeps_turns_counted_while_the_refresh_was_in_flight() {
    let mut c = RefreshCounter::new(5);
    let ticket = loop {
        if let Tick::Refresh(t) = c.on_turn() {
            break t;
        }
    };
    c.on_turn();
    c.on_turn();
    c.rollback(ticket);
    assert_eq!(c.turns_in_current_node(), 6);
}

#[test]
fn rollback_after_reset_node_changes_nothing() {
    let mut c = RefreshCounter::new(2);
    c.on_turn();
    let Tick::Refresh(ticket) = c.on_turn() else {
        panic!("expected a refresh")
    };
    c.reset_node();
    c.rollback(ticket);
    assert_eq!(c.turns_in_current_node(), 0);
}

#[test]
fn rejects_bad_thresholds() {
    for bad in [0.0, -5.0, f64::NAN, 1.5] {
        assert!(RefreshCounter::checked_threshold("threshold", bad).is_err());
    }
    assert_eq!(RefreshCounter::checked_threshold("threshold", 5.0), Ok(5));
}

fn render(build: fn(&mut Pieces<'_>), hosts: &[&str]) -> String {
    let mut frame = Frame::new();
    frame.text(build);
    Reader::new(&frame.into_string()).text(hosts)
}

#[test]
fn summary_labels_both_sections() {
    assert_eq!(
        render(injected_summary, &["TAS", "PRD"]),
        "[CONTEXT REFRESH]\n## TAS Summary\nTAS\n\n## PRD Summary\nPRD"
    );
    assert_eq!(render(prepended_reasoning, &["S", "R"]), "S\n\nR");
}

#[test]
fn turn_indexes_are_checked_before_counting() {
    let mut c = RefreshCounter::new(2);
    assert_eq!(c.on_turn_checked(-1.0).unwrap_err().field, "turnIndex");
    assert_eq!(c.turns_in_current_node(), 0);
    assert_eq!(c.on_turn_checked(0.0), Ok(Tick::Quiet));
}

#[test]
fn a_snapshot_restores_count_and_node() {
    let mut c = RefreshCounter::new(5);
    c.on_turn();
    let snap = c.snapshot();
    c.on_turn();
    c.reset_node();
    c.restore(snap);
    assert_eq!(c.snapshot(), snap);
    assert_eq!(c.turns_in_current_node(), 1);
}
