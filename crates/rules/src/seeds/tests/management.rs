use super::*;
use crate::base::frame::{Frame, Reader};
use AgentRole::{Model, User};

fn run(turns: &[f64], outputs: &[bool]) -> Run {
    Run::new(1000.0, 0.9, turns.to_vec(), false, outputs.to_vec())
}

#[test]
fn a_need_is_its_code_plus_the_scale_times_its_argument() {
    assert!(
        ManagementNeed::TABLE
            .iter()
            .all(|&(_, c)| u32::from(c) < NEED_SCALE)
    );
    assert_eq!(Need::Compose.encode(), 0.0);
    assert_eq!(Need::Persist { output: 3 }.encode(), 8.0 + 16.0 * 3.0);
    assert_eq!(
        Need::Recount {
            turns_changed: true
        }
        .encode(),
        11.0 + 16.0
    );
    // The result but its tokens: pruned, and 3 outputs truncated.
    let done = Need::Done {
        used_tokens: 9.0,
        pruned: true,
        truncated: 3,
    };
    assert_eq!(done.encode(), 12.0 + 16.0 * (1.0 + 2.0 * 3.0));
}

#[test]
fn the_seed_order_compose_prune_truncate_recount() {
    let mut r = run(&[500.0, 500.0], &[false, true, false]);
    assert_eq!(r.start(), Need::Compose);
    assert_eq!(r.composed(10.0), Need::ShouldPrune { tokens: 1000.0 });
    assert_eq!(r.should_prune(true), Need::Prune);
    assert_eq!(r.pruned(50.0), Need::KeepSummary);
    assert_eq!(r.kept(), Need::ShouldTruncate { output: 0 });
    assert_eq!(r.should_truncate(true), Need::Persist { output: 0 });
    assert_eq!(r.persisted(true), Need::Truncate { output: 0 });
    assert_eq!(
        r.truncated(),
        Need::ShouldTruncate { output: 2 },
        "output 1 is already truncated"
    );
    assert_eq!(
        r.should_truncate(false),
        Need::Recount {
            turns_changed: true
        }
    );
    assert_eq!(
        r.recounted(50.0, 7.0),
        Need::Done {
            used_tokens: 67.0,
            pruned: true,
            truncated: 1
        }
    );
}

#[test]
fn no_prune_when_not_asked_and_the_first_count_stands() {
    let mut r = run(&[100.0], &[]);
    r.composed(5.0);
    assert_eq!(
        r.should_prune(false),
        Need::Recount {
            turns_changed: false
        }
    );
    assert_eq!(
        r.recounted(f64::NAN, 0.0),
        Need::Done {
            used_tokens: 105.0,
            pruned: false,
            truncated: 0
        }
    );
}

#[test]
fn an_already_pruned_context_is_never_pruned_again() {
    let mut r = Run::new(1000.0, 0.9, vec![950.0], true, vec![]);
    assert_eq!(
        r.composed(0.0),
        Need::Recount {
            turns_changed: false
        }
    );
}

#[test]
fn answers_for_all_outputs_at_once_skip_the_questions() {
    let mut r = run(&[], &[false, true, false, false]);
    r.composed(0.0);
    assert_eq!(r.should_prune(false), Need::ShouldTruncate { output: 0 });
    assert_eq!(
        r.should_truncate_all(&[false, false, true, false]),
        Need::Persist { output: 2 }
    );
    assert_eq!(r.persisted(true), Need::Truncate { output: 2 });
    assert_eq!(
        r.truncated(),
        Need::Recount {
            turns_changed: false
        }
    );
}

#[test]
fn answers_known_from_the_start_are_the_answers_given_when_asked() {
    let due = [false, false, true, false];
    let mut asked = run(&[], &[false, true, false, false]);
    let mut known = run(&[], &[false, true, false, false]);
    known.due_known(vec![2]);
    asked.composed(0.0);
    known.composed(0.0);
    asked.should_prune(false);
    assert_eq!(asked.should_truncate_all(&due), Need::Persist { output: 2 });
    assert_eq!(known.should_prune(false), Need::Persist { output: 2 });
}

#[test]
fn a_run_through_the_due_outputs_alone_needs_what_a_run_through_each_needs() {
    // Outputs 1 and 4 due; 2 truncated already; the persist of 1 fails.
    let due = [false, true, false, false, true, false];
    let mut each = run(&[], &[false, false, true, false, false, false]);
    let mut alone = run(&[], &[]);
    alone.due_known(vec![1, 4]);
    let mut needs = [each.composed(0.0), alone.composed(0.0)];
    assert_eq!(needs[0], Need::ShouldPrune { tokens: 0.0 });
    needs = [each.should_prune(false), alone.should_prune(false)];
    assert_eq!(needs[0], Need::ShouldTruncate { output: 0 });
    assert_eq!(each.should_truncate_all(&due), needs[1]);
    assert_eq!(needs[1], Need::Persist { output: 1 });
    needs = [each.persisted(false), alone.persisted(false)];
    assert_eq!(
        needs,
        [
            Need::WarnPersistFailed { output: 1 },
            Need::WarnPersistFailed { output: 1 }
        ]
    );
    needs = [each.warned(), alone.warned()];
    assert_eq!(
        needs,
        [Need::Persist { output: 4 }, Need::Persist { output: 4 }]
    );
    needs = [each.persisted(true), alone.persisted(true)];
    assert_eq!(
        needs,
        [Need::Truncate { output: 4 }, Need::Truncate { output: 4 }]
    );
    let recount = Need::Recount {
        turns_changed: false,
    };
    assert_eq!([each.truncated(), alone.truncated()], [recount, recount]);
}

#[test]
fn a_failed_persist_keeps_the_output_whole_with_a_warning() {
    let mut r = run(&[], &[false, false]);
    r.composed(0.0);
    r.should_prune(false);
    assert_eq!(r.should_truncate(true), Need::Persist { output: 0 });
    assert_eq!(r.persisted(false), Need::WarnPersistFailed { output: 0 });
    assert_eq!(r.warned(), Need::ShouldTruncate { output: 1 });
    let mut frame = Frame::new();
    frame.text(|p| persist_warning(p, true));
    let text = Reader::new(&frame.into_string()).text(&["run_tests", "disk full"]);
    assert_eq!(
        text,
        "applyContextManagement: persistRaw failed for tool run_tests; its output stays whole in the context (disk full)"
    );
}

#[test]
fn the_loop_guard_cuts_when_the_summary_is_too_large() {
    let mut r = run(&[300.0, 300.0, 300.0, 300.0], &[]);
    r.composed(0.0);
    r.should_prune(true);
    assert_eq!(r.pruned(950.0), Need::Roles);
    assert_eq!(
        r.roles(&[User, Model, User, Model]),
        Need::Keep(Kept::Newest { start: 3 }),
        "the cut never starts at a tool result"
    );
    let mut frame = Frame::new();
    frame.text(|p| r.loop_guard_warning(p));
    let text = Reader::new(&frame.into_string()).text(&[]);
    assert!(text.contains("the summary is 950 tokens, at or above the saturation point of 900; kept the newest 1 of 4 turns"));
}
