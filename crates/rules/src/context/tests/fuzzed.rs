//! What the provider-item fuzz (`crates/rules/tests/fuzz/`) found, one test each: the
//! shortest sequence it reported, which panicked (a wasm abort, the manager wedged for
//! good) or made a restored manager go on otherwise than the one it came from.

use super::*;

/// Issue 47's reproduction: a compaction block, a server tool's call and result, and a call
/// in one assistant message; built; then the next append.
#[test]
fn the_issues_compaction_with_a_server_tool_then_an_append() {
    let (mut m, mut h) = Host::default().start(30_000.0, "Fix the parser.");
    h.append(
        &mut m,
        Role::Assistant,
        &[P::Text("looking"), P::Call("{}")],
    )
    .unwrap();
    h.append(&mut m, Role::User, &[P::Result(1, "ok")]).unwrap();
    h.append(
        &mut m,
        Role::Assistant,
        &[
            P::Compaction("Compacted."),
            P::ServerCall("{\"query\":\"q\"}"),
            P::Result(1, "A https://example.org"),
            P::Call("{}"),
        ],
    )
    .unwrap();
    h.append(&mut m, Role::User, &[P::Result(1, "ok")]).unwrap();
    h.build(&mut m);
    h.append(&mut m, Role::Assistant, &[P::Text("next")])
        .unwrap();
    h.build(&mut m);
}

/// A compaction in an assistant message that joined the turn of the one before it (a
/// Responses item after a server call's, an Anthropic message after a paused turn): the
/// turn began before the compaction, and folding away what came before the compaction let
/// go of the message the turn is numbered by, so the next append panicked reading it.
#[test]
fn a_compaction_inside_a_turn_that_began_before_it_then_an_append() {
    let (mut m, mut h) = Host::default().start(2_000.0, "go");
    h.append(&mut m, Role::Assistant, &[P::ServerCall("{}")])
        .unwrap();
    h.append(&mut m, Role::Assistant, &[P::Compaction("")])
        .unwrap();
    h.build(&mut m);
    assert_eq!(
        m.anchor,
        Some(1),
        "the turn's first message, not the compaction's"
    );
    h.append(&mut m, Role::User, &[P::Text("and now?")])
        .unwrap();
    h.build(&mut m);
}

/// A request over the budget with no part of the conversation in it (the host's text after
/// the conversation fills the budget, nothing appended yet or everything folded away): the
/// build was refused naming part 0 of message 0, and reading that part for the error's
/// words panicked.
#[test]
fn a_request_over_the_budget_with_no_message_in_it_is_refused_naming_the_budget() {
    let mut m = Manager::new("options.bounded", config(2_000.0), 0.0, 0.0).unwrap();
    m.set_tail(2_500.0);
    m.begin();
    let need = m.plan().unwrap();
    let Need::TooLarge { message, part } = need else {
        panic!("refused, not {need:?}");
    };
    let e = m.too_large(message, part, "messages[0]");
    m.rollback();
    assert_eq!(e.field, "options.bounded.budget");
    assert!(
        e.message
            .contains("2500 tokens of text after the conversation"),
        "{}",
        e.message
    );
}

/// The provider's compaction pinned with a call of its turn, then the turns after it
/// folded away: the pinned message keeps its part's call, which is let go with the folded
/// messages' calls, and a state taken then was refused on restore ("names a call the
/// conversation does not have, or one folded away").
#[test]
fn a_state_with_a_pinned_compaction_turn_that_made_calls_restores() {
    let mut m = Manager::new("options", config(8_000.0), 0.0, 0.0).unwrap();
    let mut h = Host {
        summarizer: Some(|_| "what was done".into()),
        ..Host::default()
    };
    h.append(
        &mut m,
        Role::Assistant,
        &[P::Call("{\"cmd\":\"ls\"}"), P::Compaction("Compacted.")],
    )
    .unwrap();
    h.append(&mut m, Role::User, &[P::Result(1, "src tests")])
        .unwrap();
    for turn in 0..400 {
        tool_turn(&mut h, &mut m, 1_200, turn);
        h.build(&mut m);
        if m.first_live > 2 {
            break;
        }
    }
    assert!(
        m.first_live > 2,
        "the turns after the compaction were folded: {:?}",
        (m.first_live, m.anchor, m.opening())
    );
    assert_eq!(m.opening(), 0..2, "its turn is pinned");
    let bytes = m.encode_state();
    let mut b = Manager::new("options", config(8_000.0), 0.0, 0.0).unwrap();
    b.decode_state(&bytes).unwrap();
    assert_eq!(b.encode_state(), bytes);
    let mut hb = h.clone();
    tool_turn(&mut h, &mut m, 500, 99);
    tool_turn(&mut hb, &mut b, 500, 99);
    assert_eq!(h.build(&mut m), hb.build(&mut b));
}

/// A build that stored a part, then was refused (too large) and taken back: the part's
/// store id stayed, though the part was unstored again and the journal (which drops the
/// build's events) never had it, so a session's manager replayed from its journal went on
/// otherwise than the live one (another index, other needs: the journal refused).
#[test]
fn a_build_taken_back_takes_back_the_store_ids_it_gave() {
    let mut m = Manager::new("options", config(8_000.0), 1_650.0, 0.0).unwrap();
    let mut h = Host::default();
    let call = format!("{{\"cmd\":\"{}\"}}", "x".repeat(1_800));
    h.append(&mut m, Role::Assistant, &[P::Call(&call)])
        .unwrap();
    let huge = "y".repeat(32_000);
    m.append(vec![NewMessage {
        role: Role::User,
        framing: 3.0,
        // Not over the budget alone (with the system prompt), or the build is refused
        // before it stores anything: over it with what the drop leaves in the request.
        parts: vec![Part::new(Kind::Opaque, 32_000, 6_340.0, None)],
    }])
    .unwrap();
    h.texts.push(vec![huge]);
    h.labels.push(vec![String::new()]);
    let before = m.encode_state();
    m.begin();
    let mut need = m.plan().unwrap();
    let mut stored = 0;
    while !matches!(need, Need::TooLarge { .. }) {
        need = match need {
            Need::Persist { .. } => {
                stored += 1;
                m.persisted(Some(format!("{stored}")), 20.0)
            }
            Need::Placeholder { .. } | Need::Cut { .. } => m.measured(30.0),
            Need::Summarize { .. } => m.no_summarizer(),
            Need::PersistSpan { .. } => m.span_persisted(None, f64::NAN),
            other => panic!("{other:?}"),
        };
    }
    assert!(stored > 0, "the build stored a part before it was refused");
    m.rollback();
    assert_eq!(m.store_id(0, 0), None);
    assert_eq!(m.encode_state(), before);
}

/// An assistant message that gives the result of a server call of the message before it (a
/// turn paused after the call, its text written), with the provider's compaction after
/// the result: the message opened a group of its own, so folding what came before the
/// compaction took the call away from its result, the request sent a result with no call,
/// and a state taken then was refused on restore.
#[test]
fn a_server_result_in_the_message_after_its_call_stays_in_the_calls_turn() {
    let (mut m, mut h) = Host::default().start(100_000.0, "search");
    h.append(
        &mut m,
        Role::Assistant,
        &[P::ServerCall("{}"), P::Text("ok")],
    )
    .unwrap();
    h.append(
        &mut m,
        Role::Assistant,
        &[P::Result(1, "results"), P::Compaction("Compacted.")],
    )
    .unwrap();
    assert_eq!(m.history.messages[2].group, 1, "the call's turn");
    h.build(&mut m);
    let mut b = Manager::new("options", config(100_000.0), 0.0, 0.0).unwrap();
    b.decode_state(&m.encode_state()).unwrap();
}

/// The provider's compaction pinned with a call of its turn that got no result, then the
/// turns after it folded away: the call was let go with the folded ones, so the request
/// sent it with no result, marked or not, and the provider refused every request after.
#[test]
fn a_call_left_open_in_a_pinned_compaction_turn_keeps_its_marked_result() {
    let mut m = Manager::new("options", config(8_000.0), 0.0, 0.0).unwrap();
    let mut h = Host {
        summarizer: Some(|_| "what was done".into()),
        ..Host::default()
    };
    h.append(
        &mut m,
        Role::Assistant,
        &[P::Compaction("Compacted."), P::Call("{\"cmd\":\"ls\"}")],
    )
    .unwrap();
    h.append(&mut m, Role::User, &[P::Text("never mind that")])
        .unwrap();
    let marked = |m: &Manager, plan: &Plan| {
        plan.emits
            .iter()
            .any(|e| matches!(e, Emit::Message { index: 0, unanswered, .. } if unanswered == &[0]))
            && m.raw_tokens() >= render::UNANSWERED_TOKENS
    };
    let (plan, _) = h.build(&mut m);
    assert!(marked(&m, &plan), "{plan:?}");
    let mut after = 0;
    for turn in 0..400 {
        tool_turn(&mut h, &mut m, 1_200, turn);
        let (plan, _) = h.build(&mut m);
        assert!(marked(&m, &plan), "turn {turn}: {plan:?}");
        if m.first_live > 2 {
            after += 1;
            if after == 3 {
                break;
            }
        }
    }
    assert!(after == 3, "the turns after the compaction were folded");
    assert_eq!(m.opening(), 0..1, "its turn is pinned");
}

/// A recall told with the call that asked, a call of a pinned compaction turn folded past
/// (whose id the host keeps, as the request still sends it): its record was let go, and
/// marking its result read a message let go in its place (a panic).
#[test]
fn a_recall_told_with_a_call_let_go_marks_nothing() {
    let (mut m, mut h) = Host {
        summarizer: Some(|_| "what was done".into()),
        ..Host::default()
    }
    .start(8_000.0, "the task, let go once the compaction is");
    h.append(
        &mut m,
        Role::Assistant,
        &[P::Compaction("Compacted."), P::Call("{\"cmd\":\"ls\"}")],
    )
    .unwrap();
    h.append(&mut m, Role::User, &[P::Result(1, "src tests")])
        .unwrap();
    for turn in 0.. {
        tool_turn(&mut h, &mut m, 1_200, turn);
        h.build(&mut m);
        if m.first_live > 3 {
            break;
        }
    }
    let id = m.lines.keys().next().cloned().expect("a stored text");
    let ask = recall::Ask {
        offset: 0,
        length: None,
        query: None,
    };
    h.ev(
        &mut m,
        Event::Recalled {
            call: Some(0),
            id,
            ask,
        },
    );
    h.build(&mut m);
}

/// The cut the binding makes of a part (`cutText` in `src/context.rs`): the probes the
/// shell slices around `head` and the tail's start, the bounds, then the text's length.
fn binding_cut(text: &[u16], head: usize, tail: usize) -> (usize, usize) {
    use crate::base::cut::Units;
    use crate::base::text::Probe;
    let (n, w) = (text.len(), render::LINE_WINDOW);
    let slice = |s: usize, e: usize| Units(text[s.min(n)..e.min(n)].to_vec());
    let head_probe = Probe {
        start: head.saturating_sub(w),
        units: slice(head.saturating_sub(w), head + 1),
    };
    let start = n.saturating_sub(tail);
    let tail_probe = Probe {
        start: start.saturating_sub(1),
        units: slice(start.saturating_sub(1), start + w),
    };
    render::cut_bounds(head, &head_probe, tail, &tail_probe, n)
}

/// A cut whose tail starts on the last line break its probe holds (as the shell slices it,
/// `LINE_WINDOW` units on from the tail's start): the tail then starts after it, and the
/// check that it does not start inside a surrogate pair read one unit past the probe (a
/// panic; found on a user text of 26,157 units at 30,000 tokens).
#[test]
fn a_tail_starting_after_the_last_line_break_of_its_probe_is_cut() {
    let (n, tail) = (26_157, 5_399);
    let start = n - tail;
    let mut text: Vec<u16> = vec![u16::from(b'a'); n];
    text[start + render::LINE_WINDOW - 1] = u16::from(b'\n');
    let (head, kept) = binding_cut(&text, 10_796, tail);
    assert_eq!(
        kept,
        tail - render::LINE_WINDOW,
        "the tail starts after the break"
    );
    assert!(head <= 10_796);
}
