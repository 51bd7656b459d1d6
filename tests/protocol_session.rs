//! A scripted two-node session through the protocol rules of seeds 000 and 004, the way
//! the TS shell drives them: count turns, refresh (or roll back a failed one), stamp, log.

use devs_context_rules::seeds::clock::MonotonicClock;
use devs_context_rules::seeds::log::LogIndex;
use devs_context_rules::seeds::refresher::{RefreshCounter, Tick};
use devs_context_rules::seeds::tracker::TurnTracker;

#[test]
fn two_nodes_refresh_every_fifth_turn_and_the_log_keeps_the_newest() {
    let mut counter = RefreshCounter::new(5);
    let mut clock = MonotonicClock::new();
    let mut log = LogIndex::new(Some(8.0)).unwrap();
    let mut stamps = [0u64; 8];
    let mut refreshed_at = Vec::new();

    for (node, turns) in [(0u32, 7), (1u32, 5)] {
        counter.reset_node();
        let mut tracker = TurnTracker::new(9, 9).unwrap();
        for _ in 0..turns {
            let turn = tracker.next_index();
            if let Tick::Refresh(_) = counter.on_turn() {
                refreshed_at.push((node, turn));
            }
            // A stalled host clock still yields strictly increasing stamps.
            let slot = log.append(node, f64::from(turn)).unwrap().slot;
            stamps[slot] = clock.stamp(1_000);
        }
    }

    assert_eq!(refreshed_at, vec![(0, 5), (1, 5)]);
    let kept = log.all();
    assert_eq!(kept.len(), 8);
    assert_eq!(log.by_agent(0).len(), 3, "turns 5..7 of the first node");
    let ordered: Vec<u64> = kept.iter().map(|&s| stamps[s as usize]).collect();
    assert!(ordered.windows(2).all(|w| w[1] > w[0]));
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
