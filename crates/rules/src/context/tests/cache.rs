//! What the provider's cache keeps: below the high-water mark each request repeats the
//! previous one, the breakpoints mark where the previous request ended and where this one
//! ends, and a tail comes after them.

use super::*;

#[test]
fn below_the_high_water_mark_each_request_repeats_the_previous_one() {
    let (mut m, mut h) = Host::default().start(50_000.0, "fix the parser");
    let mut previous = 0.0;
    for turn in 0..20 {
        tool_turn(&mut h, &mut m, 1_000, turn);
        let (plan, _) = h.build(&mut m);
        assert_eq!(plan.prefix, previous, "turn {turn}: only appended");
        assert!(m.record.compaction.is_none());
        previous = m.raw_tokens();
    }
    assert!(m.record.cache.read > 0.0 && m.record.cache.write > 0.0);
    assert!(
        m.record.cache.session_relative_cost < 0.5,
        "{}",
        m.record.cache.session_relative_cost
    );
}

#[test]
fn breakpoints_are_few_and_mark_the_previous_end_and_this_one() {
    let mut m = Manager::new("options", config(50_000.0), 100.0, 50.0).unwrap();
    let mut h = Host {
        fixed: true,
        ..Host::default()
    };
    h.append(&mut m, Role::User, &[P::Text("go")]).unwrap();
    tool_turn(&mut h, &mut m, 1_000, 0);
    h.build(&mut m);
    for turn in 1..5 {
        for k in 0..12 {
            tool_turn(&mut h, &mut m, 100, turn * 100 + k);
        }
        m.begin();
        let mut need = m.plan().unwrap();
        while need != Need::Done {
            need = m.persisted(Some("id".into()), f64::NAN);
        }
        let plan = m.render(true);
        m.commit();
        assert!(plan.breakpoints.len() <= render::MAX_BREAKPOINTS);
        assert_eq!(plan.breakpoints[0], 0, "after the fixed texts");
        assert_eq!(*plan.breakpoints.last().unwrap(), plan.emits.len() - 1);
        assert_eq!(
            plan.breakpoints.len(),
            3,
            "and where the previous request ended"
        );
    }
}

#[test]
fn a_tail_comes_last_and_leaves_the_prefix_cached() {
    let (mut m, mut h) = Host::default().start(20_000.0, "go");
    m.set_tail(30.0);
    let (first, _) = h.build(&mut m);
    assert!(matches!(first.emits.last(), Some(Emit::Tail)));
    h.append(&mut m, Role::Assistant, &[P::Text("done")])
        .unwrap();
    m.set_tail(35.0);
    let (second, _) = h.build(&mut m);
    assert_eq!(
        second.prefix,
        first.prefix + m.history.messages[0].tokens() - first.prefix
    );
}
