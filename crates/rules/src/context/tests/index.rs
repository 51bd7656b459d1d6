use super::*;

#[test]
fn the_index_groups_its_oldest_outputs_first_past_its_cap() {
    let mut index = Index::default();
    assert_eq!(index.tokens(), 0.0);
    for i in 0..10 {
        assert!(index.add(&i.to_string(), 50.0, (i % 5 == 0).then_some((i, i + 1))));
    }
    assert!(!index.add("3", 50.0, None), "one line per id");
    assert_eq!(index.tokens(), HEADER_TOKENS + 500.0);
    assert_eq!(
        index.ids().collect::<Vec<_>>(),
        ["0", "5", "1", "2", "3", "4", "6", "7", "8", "9"]
    );
    assert_eq!(index.to_group(1_000.0), 0);
    let n = index.to_group(400.0);
    assert_eq!(n, 7);
    assert_eq!(
        index.grouped_ids(n).collect::<Vec<_>>(),
        ["1", "2", "3", "4", "6", "7", "8"]
    );
    index.group(n, "g1".into(), 30.0);
    assert!(index.tokens() <= 400.0);
    assert_eq!(index.ids().collect::<Vec<_>>(), ["g1", "0", "5", "9"]);
    assert!(index.names("g1") && !index.names("1") && index.names("9"));
    assert_eq!(
        index.grouped_ids(2).collect::<Vec<_>>(),
        ["g1", "9", "0"],
        "transcripts last"
    );
    index.group(2, "g2".into(), 30.0);
    assert_eq!(
        index.group.as_ref().map(|g| g.1),
        Some(9),
        "the earlier listing is in the new one"
    );
    assert_eq!(index.ids().collect::<Vec<_>>(), ["g2", "5"]);
}

#[test]
fn transcripts_merge_once_when_the_outputs_are_listed_away() {
    let mut index = Index::default();
    for i in 0..6 {
        index.add(&format!("s{i}"), 100.0, Some((10 * i, 10 * i + 10)));
    }
    index.add("o", 30.0, None);
    assert_eq!(index.outputs_to_group(400.0), 1);
    index.group(1, "g".into(), 20.0);
    assert_eq!(index.outputs_to_group(400.0), 0, "no output left");
    let n = index.spans_to_merge(600.0, 100.0);
    assert_eq!(n, 5);
    assert_eq!(index.merged(n), (vec!["s0", "s1", "s2", "s3", "s4"], 0, 50));
    index.merge(n, "m".into(), 100.0);
    assert_eq!(index.ids().collect::<Vec<_>>(), ["g", "m", "s5"]);
    assert!(index.spans[0].merged && index.spans[0].span == Some((0, 50)));
    assert_eq!(
        index.spans_to_merge(100.0, 100.0),
        0,
        "a merged transcript is not merged again, and one alone is not merged"
    );
}
