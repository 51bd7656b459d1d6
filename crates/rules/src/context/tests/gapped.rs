use super::Gapped;

fn numbers(n: usize) -> Gapped<i64> {
    let mut g = Gapped::new(-1);
    for i in 0..n {
        g.push(i as i64);
    }
    g
}

#[test]
fn items_let_go_keep_their_numbers_and_read_as_the_stand_in() {
    let mut g = numbers(10);
    g.forget(0..1, 6);
    assert_eq!(g.len(), 10);
    let all: Vec<i64> = g.iter().copied().collect();
    assert_eq!(all, [0, -1, -1, -1, -1, -1, 6, 7, 8, 9]);
    assert_eq!(
        g.kept().map(|(i, _)| i).collect::<Vec<_>>(),
        [0, 6, 7, 8, 9]
    );
    assert_eq!(&g[7..], &[7, 8, 9]);
    // The same head: only the gap grows.
    g.forget(0..1, 8);
    assert_eq!(
        g.iter().copied().collect::<Vec<_>>(),
        [0, -1, -1, -1, -1, -1, -1, -1, 8, 9]
    );
    g.forget(0..1, 3);
    assert_eq!(
        g.gap_to(),
        8,
        "forgetting less than is let go changes nothing"
    );
    g.push(10);
    g.truncate(10);
    assert_eq!((g.len(), g.last()), (10, Some(&9)));
    g[9] = 90;
    assert_eq!(g.get(9), Some(&90));
    assert_eq!(g.get(10), None);
}

#[test]
fn a_new_head_is_taken_from_the_live_items_and_the_old_one_let_go() {
    let mut g = numbers(12);
    g.forget(0..1, 4);
    // The provider's compaction at 5: its group (5, 6) is kept before the summary.
    g.forget(5..7, 9);
    assert_eq!(
        g.iter().copied().collect::<Vec<_>>(),
        [-1, -1, -1, -1, -1, 5, 6, -1, -1, 9, 10, 11]
    );
    assert_eq!(g.head_range(), 5..7);
    g[6] = 60;
    assert_eq!(g.get(6), Some(&60));
    let again = Gapped::from_parts(5, vec![5, 60], 9, vec![9, 10, 11], -1);
    assert_eq!(again, g);
    // No head at all: everything before `to` goes.
    g.forget(0..0, 10);
    assert_eq!(g.kept().map(|(i, _)| i).collect::<Vec<_>>(), [10, 11]);
}
