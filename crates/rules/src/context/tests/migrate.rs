use super::*;

#[test]
fn a_journal_shaped_as_builds_is_told_from_an_altered_one() {
    // An append, a build (plan, a store, a measure, render, commit), a usage.
    assert_eq!(misshapen(&[1, 2, 4, 5, 9, 13, 3, 16]), None);
    // A reminder before the plan, then a summary.
    assert_eq!(misshapen(&[2, 14, 1, 4, 10, 13, 3]), None);
    assert_eq!(misshapen(&[1, 5]), Some(1), "an answer outside a build");
    assert_eq!(
        misshapen(&[2, 1, 3, 2, 16, 3]),
        None,
        "a session's calls, each journaled"
    );
    assert_eq!(misshapen(&[2, 13, 3]), Some(1), "a render with no plan");
    assert_eq!(misshapen(&[2, 4, 13, 13, 3]), Some(3), "two renders");
    assert_eq!(
        misshapen(&[2, 4, 13, 1]),
        Some(3),
        "an append before the commit"
    );
    assert_eq!(misshapen(&[99]), Some(0));
    assert!(migratable(None, true) && migratable(Some(1), true));
    assert!(
        !migratable(Some(DECISIONS), true),
        "today's data out of place was altered"
    );
    assert!(!migratable(None, false));
}
