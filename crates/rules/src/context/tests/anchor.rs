//! The provider's compaction anchors the request: what came before it leaves. Whatever
//! sits beside it in its message (a server tool's call and result) or before it in its
//! turn, nothing later reads a message let go (`fuzzed.rs` has the cases the fuzz found).

use super::*;

/// Appends, builds and appends again, as the host did: no panic, and a build after.
fn anchored_then_more(h: &mut Host, m: &mut Manager) {
    h.build(m);
    h.append(m, Role::Assistant, &[P::Text("next")]).unwrap();
    h.append(m, Role::User, &[P::Text("go on")]).unwrap();
    h.build(m);
    // The state round-trips and builds the same.
    let mut again = Manager::new("options", config(m.config.budget), 0.0, 0.0).unwrap();
    again.decode_state(&m.encode_state()).unwrap();
    assert_eq!(again.history.messages.len(), m.history.messages.len());
}

#[test]
fn a_compaction_beside_a_server_tools_call_and_result_after_results_opens_a_turn() {
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
            P::ServerResult(1, "A\nhttps://example.org"),
            P::Call("{}"),
        ],
    )
    .unwrap();
    h.append(&mut m, Role::User, &[P::Result(1, "ok")]).unwrap();
    // The server's result in the assistant message answers its own call: the message
    // does not join the turn of the calls before it.
    let c = m.history.messages.len() - 2;
    assert_eq!(m.history.messages[c].group, c);
    assert_eq!(m.history.messages[c + 1].group, c);
    anchored_then_more(&mut h, &mut m);
}

#[test]
fn a_compaction_that_continues_an_assistant_turn_anchors_at_the_turn() {
    // An assistant message of no text (reasoning only) is joined by the next assistant
    // message, the provider's compaction too.
    let (mut m, mut h) = Host::default().start(30_000.0, "Fix the parser.");
    h.append(&mut m, Role::Assistant, &[P::Thinking("hmm")])
        .unwrap();
    h.append(
        &mut m,
        Role::Assistant,
        &[P::Compaction("Compacted."), P::Call("{}")],
    )
    .unwrap();
    h.append(&mut m, Role::User, &[P::Result(1, "ok")]).unwrap();
    // The compaction joined the turn of the message before it: the anchor is that turn's
    // first message, so folding what came before lets go of no message the turn needs.
    anchored_then_more(&mut h, &mut m);
}

#[test]
fn a_server_result_after_host_calls_left_open_is_still_the_providers_own() {
    // Calls of the host still open, then the provider's own call and result: the results
    // still to come answer the host's calls, and the assistant message opens no confusion.
    let (mut m, mut h) = Host::default().start(30_000.0, "Fix the parser.");
    h.append(&mut m, Role::Assistant, &[P::Call("{}")]).unwrap();
    h.append(&mut m, Role::User, &[P::Result(1, "ok")]).unwrap();
    h.append(
        &mut m,
        Role::Assistant,
        &[
            P::ServerCall("{}"),
            P::ServerResult(1, "found"),
            P::Text("done"),
        ],
    )
    .unwrap();
    let c = m.history.messages.len() - 1;
    assert_eq!(m.history.messages[c].group, c);
    h.append(&mut m, Role::User, &[P::Text("thanks")]).unwrap();
    h.build(&mut m);
}
