//! What may be appended: results answer the calls before them, an unanswered call gets
//! a marked result, and assistant messages in a row are one turn.

use super::*;

#[test]
fn results_must_answer_the_calls_before_them() {
    let (mut m, mut h) = Host::default().start(10_000.0, "go");
    let refused = h
        .append(&mut m, Role::User, &[P::Result(1, "x")])
        .unwrap_err();
    assert_eq!(refused.why, Rejection::UnknownCall);
    h.append(&mut m, Role::Assistant, &[P::Call("{}"), P::Call("{}")])
        .unwrap();
    h.append(&mut m, Role::User, &[P::Result(1, "a")]).unwrap();
    let twice = h
        .append(&mut m, Role::User, &[P::Result(1, "a again")])
        .unwrap_err();
    assert_eq!(twice.why, Rejection::AnsweredTwice);
    let misplaced = h.append(&mut m, Role::User, &[P::Call("{}")]).unwrap_err();
    assert_eq!(
        (misplaced.why, misplaced.part),
        (Rejection::Misplaced, Some(0))
    );
    h.append(&mut m, Role::User, &[P::Text("something else")])
        .unwrap();
    let late = h
        .append(&mut m, Role::User, &[P::Result(2, "b, too late")])
        .unwrap_err();
    assert_eq!(late.why, Rejection::NotTheLastCalls);
    // A refused batch leaves nothing behind.
    let len = m.history.messages.len();
    let calls = m.history.calls.len();
    let batch = vec![
        NewMessage {
            role: Role::Assistant,
            framing: 0.0,
            parts: vec![Part::new(Kind::Call, 2, 1.0, None)],
        },
        NewMessage {
            role: Role::User,
            framing: 0.0,
            parts: vec![],
        },
    ];
    assert_eq!(m.append(batch).unwrap_err().message, 1);
    assert_eq!(
        (m.history.messages.len(), m.history.calls.len()),
        (len, calls)
    );
}

#[test]
fn an_unanswered_call_gets_a_marked_result() {
    let (mut m, mut h) = Host::default().start(10_000.0, "go");
    h.append(&mut m, Role::Assistant, &[P::Call("{}"), P::Call("{}")])
        .unwrap();
    h.append(&mut m, Role::User, &[P::Result(2, "first only")])
        .unwrap();
    let (plan, _) = h.build(&mut m);
    let marked: Vec<u32> = plan
        .emits
        .iter()
        .flat_map(|e| match e {
            Emit::Message { unanswered, .. } => unanswered.clone(),
            _ => vec![],
        })
        .collect();
    assert_eq!(marked, vec![1]);
}

#[test]
fn consecutive_assistant_messages_are_one_turn() {
    let (mut m, mut h) = Host::default().start(10_000.0, "go");
    h.append(
        &mut m,
        Role::Assistant,
        &[P::Text("reading"), P::Call("{\"a\":1}")],
    )
    .unwrap();
    h.append(&mut m, Role::Assistant, &[P::Call("{\"b\":2}")])
        .unwrap();
    h.append(&mut m, Role::Tool, &[P::Result(2, "a")]).unwrap();
    h.append(&mut m, Role::Tool, &[P::Result(1, "b")]).unwrap();
    let groups: Vec<usize> = m.history.messages.iter().map(|x| x.group).collect();
    assert_eq!(groups, vec![0, 1, 1, 1, 1]);
    assert!(m.history.calls.iter().all(|c| c.answer.is_some()));
}
