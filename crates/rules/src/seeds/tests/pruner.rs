use super::*;
use crate::base::frame::{Frame, Reader};
use AgentRole::{Model, User};

#[test]
fn prunes_at_ninety_percent() {
    assert!(!should_prune(719_999.0, 800_000.0, 0.9));
    assert!(should_prune(720_000.0, 800_000.0, 0.9));
    assert!(checked_ratio("r", Some(0.0)).is_err());
    assert!(checked_ratio("r", Some(1.5)).is_err());
    assert_eq!(checked_ratio("r", None), Ok(0.9));
    assert_eq!(
        should_prune_checked(-1.0, 10.0, 0.9).unwrap_err().field,
        "tokens"
    );
}

#[test]
fn the_prompt_keeps_plan_tas_and_observation_verbatim() {
    let mut frame = Frame::new();
    frame.text(|p| prune_prompt(p, &[User, Model]));
    let p = Reader::new(&frame.into_string()).text(&["PLAN-1", "TAS-2", "FAIL-3", "hi", "ok"]);
    assert!(p.contains("VERBATIM"));
    assert!(p.contains("## Plan (keep verbatim)\nPLAN-1\n"));
    assert!(p.contains("## TAS (keep verbatim)\nTAS-2\n"));
    assert!(p.contains("## Current failing Observation (keep verbatim)\nFAIL-3\n"));
    assert!(p.ends_with("\n[user]\nhi\n\n[model]\nok\n"));
}

#[test]
fn fallback_keeps_the_newest_turns_under_the_limit() {
    let turns = [(User, 50.0), (Model, 30.0), (Model, 30.0), (Model, 30.0)];
    assert_eq!(fallback_start(&turns, 100.0), 1);
    assert_eq!(fallback_start(&turns, 61.0), 2);
    assert_eq!(fallback_start(&turns, 10.0), 4);
}

#[test]
fn fallback_never_keeps_a_tool_result_without_its_call() {
    let turns = [(User, 10.0), (Model, 40.0), (User, 40.0), (Model, 10.0)];
    assert_eq!(fallback_start(&turns, 60.0), 3);
    assert!(splits_pair(&turns, 2));
    assert!(!splits_pair(&turns, 1));
}

#[test]
fn when_nothing_fits_the_newest_pair_is_cut_to_share_the_limit() {
    assert_eq!(
        loop_guard_cut(&[(User, 10.0), (Model, 500.0)], 101.0),
        Kept::Cut {
            first: 1,
            share: 400
        }
    );
    assert_eq!(
        loop_guard_cut(&[(Model, 500.0), (User, 500.0)], 101.0),
        Kept::Cut {
            first: 0,
            share: 200
        }
    );
    assert_eq!(
        loop_guard_cut(&[(User, 10.0), (Model, 20.0)], 101.0),
        Kept::Newest { start: 0 }
    );
}

#[test]
fn roles_are_user_or_model() {
    let err = AgentRole::all_checked("turns", &["user", "tool"]).unwrap_err();
    assert_eq!(err.field, "turns[1].role");
}
