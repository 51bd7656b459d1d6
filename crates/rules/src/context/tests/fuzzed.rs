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
