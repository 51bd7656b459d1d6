use super::*;

#[test]
fn counts_from_zero_and_resets() {
    let mut t = TurnTracker::new(7, 7).unwrap();
    assert_eq!(t.current_index(), 0);
    let seen: Vec<u32> = (0..5).map(|_| t.next_index()).collect();
    assert_eq!(seen, vec![1, 2, 3, 4, 5]);
    assert_eq!(t.current_index(), 5);
    t.reset();
    assert_eq!(t.current_index(), 0);
    t.restore(4);
    assert_eq!(t.next_index(), 5);
}

#[test]
fn names_must_not_be_empty() {
    assert_eq!(TurnTracker::new(0, 3).unwrap_err().field, "agentId");
    assert_eq!(TurnTracker::new(3, 0).unwrap_err().field, "phase");
}
