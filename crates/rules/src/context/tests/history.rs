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

/// A message of `parts`, each `(kind, the call it answers)`.
fn message(role: Role, parts: &[(Kind, Option<u32>)]) -> NewMessage {
    NewMessage {
        role,
        framing: 0.0,
        parts: parts
            .iter()
            .map(|&(kind, call)| Part::new(kind, 4, 2.0, call))
            .collect(),
    }
}

fn by_name(message: usize, part: usize, candidates: &[u32]) -> ByName {
    ByName {
        message,
        part,
        candidates: candidates.to_vec(),
    }
}

#[test]
fn an_id_less_result_answers_the_first_open_call_of_its_name() {
    let (mut m, _) = Host::default().start(10_000.0, "go");
    // Calls 0 and 2 are of one name, 1 of another; the host offers the candidates by name.
    let calls = message(Role::Assistant, &[(Kind::Call, None); 3]);
    let results = message(Role::User, &[(Kind::Result, None), (Kind::Result, None)]);
    m.append_by_name(
        vec![calls, results],
        &[by_name(1, 0, &[0, 2]), by_name(1, 1, &[0, 2])],
    )
    .unwrap();
    let answered: Vec<Option<u32>> = m.history.messages[2].parts.iter().map(|p| p.call).collect();
    assert_eq!(answered, vec![Some(0), Some(2)]);
    // A third of that name has none open: refused as a result of no call, nothing kept.
    let len = m.history.messages.len();
    let third = message(Role::User, &[(Kind::Result, None)]);
    let refused = m
        .append_by_name(vec![third], &[by_name(0, 0, &[0, 2])])
        .unwrap_err();
    assert_eq!(refused.why, Rejection::UnknownCall);
    assert_eq!(m.history.messages.len(), len);
    // The other name's call is still open, and answered across appends.
    assert_eq!(m.history.open_from(), 0);
    let last = message(Role::User, &[(Kind::Result, None)]);
    m.append_by_name(vec![last], &[by_name(0, 0, &[1])])
        .unwrap();
    assert_eq!(m.history.messages[3].parts[0].call, Some(1));
}

#[test]
fn by_name_pairs_only_in_the_open_turn_and_journals_the_pair() {
    let (mut m, _) = Host::default().start(10_000.0, "go");
    m.append(vec![message(Role::Assistant, &[(Kind::Call, None)])])
        .unwrap();
    m.append(vec![message(Role::User, &[(Kind::Result, Some(0))])])
        .unwrap();
    let turn = message(Role::Assistant, &[(Kind::Call, None)]);
    m.append(vec![turn]).unwrap();
    assert_eq!(m.history.open_from(), 1);
    // Call 0 is of the name too, but answered and of a closed turn: call 1 is the one.
    let batch = vec![message(Role::User, &[(Kind::Result, None)])];
    let batch = m.append_by_name(batch, &[by_name(0, 0, &[0, 1])]).unwrap();
    assert_eq!(batch[0].parts[0].call, Some(1));
    // Settled, the batch replays with no candidates to the same manager.
    let mut again = Host::default().start(10_000.0, "go").0;
    again
        .append(vec![message(Role::Assistant, &[(Kind::Call, None)])])
        .unwrap();
    again
        .append(vec![message(Role::User, &[(Kind::Result, Some(0))])])
        .unwrap();
    again
        .append(vec![message(Role::Assistant, &[(Kind::Call, None)])])
        .unwrap();
    again.append(batch).unwrap();
    assert_eq!(again.history, m.history);
    // A message of text closes the turn: no call is offered.
    m.append(vec![message(Role::User, &[(Kind::Text, None)])])
        .unwrap();
    assert_eq!(m.history.open_from(), m.history.calls.len() as u32);
}
