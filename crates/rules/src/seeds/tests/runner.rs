use super::*;
use crate::base::frame::Reader;

fn all_steps(turn: &mut Turn) -> Vec<Step> {
    std::iter::from_fn(|| turn.next_step()).collect()
}

#[test]
fn steps_pack_as_digits_after_a_leading_one() {
    assert!(Step::TABLE.iter().all(|&(_, c)| u32::from(c) < STEP_BASE));
    assert_eq!(pack_steps([]), 1.0);
    assert_eq!(
        pack_steps([Step::Manage, Step::Commit]),
        f64::from(0x119_u32)
    );
}

#[test]
fn a_resumed_runner_goes_on_as_the_one_whose_state_it_took() {
    let mut a = Runner::new(Some(100.0), Parts::default()).unwrap();
    for tokens in [30.0, 50.0] {
        let mut turn = a.begin(true);
        a.record(&mut turn, tokens, tokens, false).unwrap();
        a.commit(&turn);
    }
    let mut b = Runner::new(Some(100.0), Parts::default()).unwrap();
    b.resume("snapshot.runner", &a.state()).unwrap();
    assert_eq!(b.state(), [2.0, 80.0, 0.0]);
    // The next turn crosses the threshold in both.
    for r in [&mut a, &mut b] {
        let mut turn = r.begin(false);
        all_steps(&mut turn);
        r.record(&mut turn, 30.0, 30.0, false).unwrap();
        assert_eq!(all_steps(&mut turn), vec![Step::Handoff, Step::Commit]);
        r.commit(&turn);
    }
    assert_eq!(a.state(), b.state());
}

#[test]
fn a_resume_that_cannot_be_is_refused_naming_the_field_and_changes_nothing() {
    let mut r = Runner::new(Some(100.0), Parts::default()).unwrap();
    for (state, field) in [
        (vec![1.0, 2.0], "snapshot.runner"),
        (vec![1.5, 0.0, 0.0], "snapshot.runner[0]"),
        (vec![-1.0, 0.0, 0.0], "snapshot.runner[0]"),
        (vec![1.0, f64::NAN, 0.0], "snapshot.runner[1]"),
        (vec![1.0, 100.0, 0.0], "snapshot.runner[1]"),
        (vec![1.0, 0.0, -3.0], "snapshot.runner[2]"),
    ] {
        let error = r.resume("snapshot.runner", &state).unwrap_err();
        assert_eq!(error.field, field, "{state:?}");
        assert_eq!(r.state(), [0.0, 0.0, 0.0]);
    }
}

#[test]
fn a_plain_turn_composes_calls_and_commits() {
    let mut r = Runner::new(None, Parts::default()).unwrap();
    let mut turn = r.begin(true);
    assert_eq!(turn.number, 1);
    assert_eq!(turn.next_step(), Some(Step::AddInput));
    assert_eq!(turn.next_step(), Some(Step::Compose));
    assert_eq!(turn.next_step(), Some(Step::CallLlm));
    r.record(&mut turn, 10.0, 10.0, false).unwrap();
    assert_eq!(all_steps(&mut turn), vec![Step::Commit]);
    r.commit(&turn);
    assert_eq!(r.turn_count(), 1);
}

#[test]
fn a_full_turn_hands_off_then_injects_stamps_keeps_and_logs_last() {
    let parts = Parts {
        management: true,
        injector: true,
        tracker: true,
        log: true,
        refresh_on_context: false,
    };
    let mut r = Runner::new(Some(100.0), parts).unwrap();
    let mut turn = r.begin(false);
    assert_eq!(
        all_steps(&mut turn),
        vec![Step::Manage, Step::Compose, Step::CallLlm]
    );
    r.record(&mut turn, 150.0, 150.0, true).unwrap();
    assert_eq!(
        all_steps(&mut turn),
        vec![
            Step::Handoff,
            Step::Inject,
            Step::Stamp,
            Step::KeepEnvelope,
            Step::Log,
            Step::Commit
        ]
    );
}

#[test]
fn a_rolled_back_turn_leaves_count_and_tokens_as_they_were() {
    let mut r = Runner::new(Some(100.0), Parts::default()).unwrap();
    let mut first = r.begin(true);
    r.record(&mut first, 40.0, 40.0, false).unwrap();
    r.commit(&first);
    let mut second = r.begin(true);
    r.record(&mut second, 70.0, 70.0, false).unwrap();
    assert_eq!(r.accumulated(), 0.0, "the crossing reset the total");
    r.rollback(&second);
    assert_eq!((r.turn_count(), r.accumulated()), (1, 40.0));
    assert_eq!(r.begin(true).number, 2);
}

#[test]
fn refresh_on_context_counts_what_entered_the_context() {
    let parts = Parts {
        refresh_on_context: true,
        ..Parts::default()
    };
    let mut r = Runner::new(Some(100.0), parts).unwrap();
    let mut turn = r.begin(true);
    r.record(&mut turn, 5.0, 120.0, false).unwrap();
    assert_eq!(
        all_steps(&mut turn),
        vec![
            Step::AddInput,
            Step::Compose,
            Step::CallLlm,
            Step::Handoff,
            Step::Commit
        ]
    );
}

#[test]
fn bad_counts_are_refused_before_anything_changes() {
    let mut r = Runner::new(None, Parts::default()).unwrap();
    let mut turn = r.begin(true);
    assert_eq!(
        r.record(&mut turn, -1.0, 0.0, false).unwrap_err().field,
        "countTokens()"
    );
    assert_eq!(r.accumulated(), 0.0);
    assert_eq!(
        Runner::new(Some(0.0), Parts::default()).unwrap_err().field,
        "options.thresholdTokens"
    );
}

#[test]
fn long_observations_keep_their_head_in_the_context() {
    let output = "o".repeat(5000);
    let mut frame = Frame::new();
    observation(&mut frame, &Probe::of(&output[..4001]), 5000);
    let values = frame.into_string();
    let mut r = Reader::new(&values);
    assert_eq!((r.num(), r.num()), (1.0, 1.0));
    assert_eq!(
        r.text(&["error", &output]),
        format!("error: {}", &output[..4000])
    );
    assert!(
        r.text(&["error", &output])
            .ends_with("\n[1000 more characters: the whole output is under Tool outputs]")
    );
    let mut empty = Frame::new();
    observation(&mut empty, &Probe::of(""), 0);
    let empty = empty.into_string();
    let mut r = Reader::new(&empty);
    assert_eq!(
        (r.num(), r.num()),
        (0.0, 0.0),
        "an empty output is not pending"
    );
    assert_eq!(recent_start(10, 4), 6);
    assert_eq!(recent_start(10, 0), 9);
    assert!(aged(&[0.0, f64::NAN])[1].is_nan());
}
