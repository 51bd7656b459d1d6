use super::*;

#[test]
fn keeps_insertion_order_and_evicts_oldest_first() {
    let mut ring = Ring::new(3);
    assert_eq!(ring.push(1), None);
    assert_eq!(ring.push(2), None);
    assert_eq!(ring.push(3), None);
    assert_eq!(ring.push(4), Some(1));
    assert_eq!(ring.push(5), Some(2));
    assert_eq!(ring.iter().copied().collect::<Vec<_>>(), vec![3, 4, 5]);
    assert_eq!(ring.len(), 3);
}

#[test]
fn reports_the_slot_each_push_went_to() {
    let mut ring = Ring::new(2);
    assert_eq!(ring.push_slot('a'), (0, None));
    assert_eq!(ring.push_slot('b'), (1, None));
    let (slot, evicted) = ring.push_slot('c');
    assert_eq!((slot, evicted), (0, Some('a')));
    assert_eq!(ring.slot_order().collect::<Vec<_>>(), vec![1, 0]);
    assert_eq!(*ring.at(slot), 'c');
}

#[test]
fn never_holds_more_than_capacity_and_clears() {
    let mut ring = Ring::new(1000);
    for i in 0..2500 {
        ring.push(i);
        assert!(ring.len() <= 1000);
    }
    let all: Vec<i32> = ring.iter().copied().collect();
    assert_eq!(all.first(), Some(&1500));
    assert_eq!(all.last(), Some(&2499));
    ring.clear();
    assert!(ring.is_empty());
    ring.push(7);
    assert_eq!(ring.iter().copied().collect::<Vec<_>>(), vec![7]);
}
