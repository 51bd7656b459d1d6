//! The provider reads nothing before its own compaction: the newest results of the
//! protected tools that leave with what it compacted are restated after it, in the
//! summary's place, within their share (issue 49, "what must survive").

use super::*;

fn protecting(budget: f64, protects: bool) -> (Manager, Host) {
    super::protect::protecting_with(budget, protects, None)
}

/// A todo turn (protected when `protects`), a few turns of output, then the provider's
/// compaction and a turn after it: the request of each build after the compaction.
fn compacted(protects: bool) -> (Manager, String, Vec<String>) {
    let (mut m, mut h) = protecting(20_000.0, protects);
    let todo = output(400, 7);
    let call = P::Call("{\"op\":\"list\"}");
    let (call, result) = if protects {
        (
            P::ProtectedCall("{\"op\":\"list\"}"),
            P::ProtectedResult(1, &todo),
        )
    } else {
        (call, P::Result(1, &todo))
    };
    h.append(&mut m, Role::Assistant, &[call]).unwrap();
    h.append(&mut m, Role::User, &[result]).unwrap();
    for turn in 0..3 {
        tool_turn(&mut h, &mut m, 2_000, turn);
        h.build(&mut m);
    }
    h.append(
        &mut m,
        Role::Assistant,
        &[P::Compaction("Compacted."), P::Text("Continuing.")],
    )
    .unwrap();
    h.append(&mut m, Role::User, &[P::Text("go on")]).unwrap();
    let mut after = vec![h.build(&mut m).1];
    for turn in 3..6 {
        tool_turn(&mut h, &mut m, 2_000, turn);
        after.push(h.build(&mut m).1);
    }
    (m, todo, after)
}

#[test]
fn the_newest_protected_result_is_restated_after_the_providers_compaction() {
    let (m, todo, after) = compacted(true);
    assert!(m.anchor.is_some());
    for (n, request) in after.iter().enumerate() {
        let at = request.find("Compacted.").expect("the compaction is sent");
        let restated = request.rfind(&todo);
        assert!(
            restated.is_some_and(|r| r > at),
            "request {n} after the compaction restates the todo result after it"
        );
    }
    assert!(m.summary_tokens > 0.0);
    assert!(m.summary_tokens <= m.config.summary_cap() + m.config.protected_cap());
}

#[test]
fn unprotected_the_result_leaves_with_what_the_provider_compacted() {
    let (m, todo, after) = compacted(false);
    assert!(m.anchor.is_some());
    assert!(after.iter().all(|r| !r.contains(&todo)));
    assert_eq!(m.summary_tokens, 0.0);
}
