use super::*;

#[test]
fn evicts_fifo_and_releases_agents_with_no_entries_left() {
    let mut log = LogIndex::new(Some(2.0)).unwrap();
    let a = log.append(7, 1.0).unwrap();
    log.append(8, 2.0).unwrap();
    let c = log.append(8, 3.0).unwrap();
    assert_eq!(c.slot, a.slot, "the oldest slot is reused");
    assert_eq!(c.released_agent, Some(7));
    assert_eq!(log.by_agent(8), vec![1, 0]);
    assert_eq!(log.by_turn_index(3.0), Some(0));
    assert_eq!(log.by_turn_index(1.0), None);
    assert_eq!(log.size(), 2);
}

#[test]
fn checks_sizes_and_turn_indexes() {
    assert_eq!(LogIndex::new(None).unwrap().max_size(), 1000);
    assert_eq!(LogIndex::new(Some(0.0)).unwrap_err().field, "maxSize");
    let mut log = LogIndex::new(None).unwrap();
    let err = log.append(1, 1.5).unwrap_err();
    assert_eq!(
        (err.field.as_str(), err.kind),
        ("entry.turn_index", devs_context_errors::ErrorKind::Type)
    );
    assert_eq!(log.size(), 0);
}
