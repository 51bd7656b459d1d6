//! What a fold keeps for the agent: the opening message (the task), and a warning for
//! any text of the user's that goes.

use super::*;

/// A session with no summarizer, where the user pastes logs as text: the task, in the
/// opening message, stays in every request.
#[test]
fn the_opening_message_is_kept_in_every_request() {
    let budget = 16_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    let task = "TASK: make the parser accept trailing commas";
    h.append(&mut m, Role::User, &[P::Text(task)]).unwrap();
    let log = "error[E0308]: mismatched types at src/parse.rs:12\n".repeat(120);
    let mut folded = false;
    let mut warned = false;
    for turn in 0..40 {
        tool_turn(&mut h, &mut m, 2_000, turn);
        h.append(&mut m, Role::User, &[P::Text(&log)]).unwrap();
        let (plan, text) = h.build(&mut m);
        assert!(m.tokens() <= budget, "turn {turn}");
        assert!(text.starts_with(task), "turn {turn}: the task comes first");
        assert!(tokens(&text) <= m.raw_tokens(), "turn {turn}: counted");
        if m.first_live > 0 {
            folded = true;
            let at = plan
                .emits
                .iter()
                .position(|e| matches!(e, Emit::Message { index: 0, .. }));
            let note = plan.emits.iter().position(|e| matches!(e, Emit::LeftOut));
            assert!(at.is_some() && at < note, "turn {turn}: before the note");
        }
        warned |= m.record.raised.contains(&Warning::UserTextDropped);
    }
    assert!(folded, "the session folded turns away");
    assert!(
        warned,
        "the user's pasted logs were dropped, and the ledger said so"
    );
}

#[test]
fn with_keep_first_off_the_opening_message_goes_like_any_other() {
    let budget = 4_000.0;
    let options = Options {
        keep_first: Some(false),
        ..Options::default()
    };
    let mut m = Manager::new(
        "options",
        Config::new("options", budget, options).unwrap(),
        0.0,
        0.0,
    )
    .unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("TASK")]).unwrap();
    for turn in 0..60 {
        tool_turn(&mut h, &mut m, 600, turn);
        h.build(&mut m);
    }
    assert!(m.first_live > 0 && m.opening().is_none());
}

/// The summary is asked about the turns after the opening message, never it again.
#[test]
fn the_summarizer_is_not_given_the_kept_opening_message() {
    let budget = 4_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host {
        summarizer: Some(|p| {
            assert!(
                !p.contains("OPENING"),
                "the prompt repeats the opening message"
            );
            "summary".into()
        }),
        ..Host::default()
    };
    h.append(&mut m, Role::User, &[P::Text("OPENING task")])
        .unwrap();
    for turn in 0..60 {
        tool_turn(&mut h, &mut m, 600, turn);
        let (_, text) = h.build(&mut m);
        assert!(text.starts_with("OPENING"), "turn {turn}");
    }
    assert!(h.summarizer_calls > 0);
}
