//! A scripted two-node session through the protocol rules of seeds 000 and 004, the way
//! the bindings drive them: count turns, refresh, stamp, log.

use devs_context::rules::clock::MonotonicClock;
use devs_context::rules::refresh::{RefreshCounter, Tick};
use devs_context::rules::ring::Ring;
use devs_context::rules::turns::TurnTracker;

#[test]
fn two_nodes_refresh_every_fifth_turn_and_the_log_keeps_the_newest() {
    let mut counter = RefreshCounter::new(5);
    let mut clock = MonotonicClock::new();
    let mut log: Ring<(String, u32, u64)> = Ring::new(8);
    let mut refreshed_at = Vec::new();

    for (node, turns) in [("implement", 7), ("verify", 5)] {
        counter.reset_node();
        let mut tracker = TurnTracker::new("dev-agent".into(), node.into());
        for _ in 0..turns {
            let turn = tracker.next_index();
            if let Tick::Refresh(_) = counter.on_turn() {
                refreshed_at.push((node, turn));
            }
            // A stalled host clock still yields strictly increasing stamps.
            log.push((node.to_string(), turn, clock.stamp(1_000)));
        }
    }

    assert_eq!(refreshed_at, vec![("implement", 5), ("verify", 5)]);
    let kept: Vec<_> = log.iter().cloned().collect();
    assert_eq!(kept.len(), 8);
    assert_eq!((kept[0].0.as_str(), kept[0].1), ("implement", 5));
    assert!(kept.windows(2).all(|w| w[1].2 > w[0].2));
}

#[test]
fn a_failed_refresh_is_retried_on_the_next_turn_in_the_same_node() {
    let mut counter = RefreshCounter::new(3);
    let outcomes: Vec<bool> = (0..6)
        .map(|turn| match counter.on_turn() {
            // The provider fails the first time it is asked.
            Tick::Refresh(ticket) if turn == 2 => {
                counter.rollback(ticket);
                false
            }
            Tick::Refresh(_) => true,
            Tick::Quiet => false,
        })
        .collect();
    assert_eq!(outcomes, vec![false, false, false, true, false, false]);
    assert_eq!(counter.turns_in_current_node(), 2);
}
