use super::*;

fn c(turn_index: f64, tokens: f64) -> Candidate {
    Candidate { turn_index, tokens }
}

#[test]
fn newest_first_greedy_then_in_turn_order() {
    let cands = [c(1.0, 10.0), c(3.0, 10.0), c(2.0, 10.0), c(4.0, 10.0)];
    let s = select_recent(&cands, 10, 25.0);
    assert_eq!(s.taken, vec![1, 3]);
    assert!(s.truncated);
    assert_eq!(s.cut_newest, None);
}

#[test]
fn at_most_max_envelopes() {
    let cands: Vec<_> = (0..15).map(|i| c(i as f64, 1.0)).collect();
    let s = select_recent(&cands, 10, 1e9);
    assert_eq!(s.taken, (5..15).collect::<Vec<_>>());
    assert!(
        !s.truncated,
        "older envelopes beyond max are not a budget truncation"
    );
}

#[test]
fn an_oversized_newest_envelope_is_cut_not_dropped() {
    let s = select_recent(&[c(1.0, 5.0), c(2.0, 500.0)], 10, 100.0);
    assert_eq!(s.taken, Vec::<usize>::new());
    assert_eq!(s.cut_newest, Some(1));
}

#[test]
fn newest_first_breaks_ties_by_position() {
    assert_eq!(newest_first(&[1.0, 5.0, 5.0, 2.0], 3), vec![2, 1, 3]);
}

#[test]
fn newest_first_is_the_head_of_the_sorted_order() {
    let mut seed = 7u64;
    for n in 0..60 {
        let indexes: Vec<f64> = (0..n)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                match seed >> 60 {
                    0 => -1.0,
                    1 => f64::INFINITY,
                    // Signed zeros: `newer` orders -0 before 0, as the sort does.
                    2 => -0.0,
                    k => (k % 7) as f64,
                }
            })
            .collect();
        for max in [0, 1, 3, 10] {
            let mut sorted: Vec<usize> = (0..indexes.len()).collect();
            sorted.sort_by(|&a, &b| indexes[b].total_cmp(&indexes[a]).then(b.cmp(&a)));
            sorted.truncate(max);
            assert_eq!(
                newest_first(&indexes, max),
                sorted,
                "{indexes:?}, max {max}"
            );
        }
    }
}

#[test]
fn config_cuts_slots_over_their_share() {
    let c = ComposerConfig::new(&[100.0, 30.0, 20.0, 50.0], None).unwrap();
    assert_eq!(c.max_recent, 10);
    assert_eq!(c.slot_cut(0, 30.0), None);
    assert_eq!(c.slot_cut(0, 31.0), Some(120));
    assert_eq!(c.slot_cut(1, 21.0), Some(80));
    assert_eq!(c.output_room(60.0), 0);
    assert_eq!(c.output_room(40.0), 40);
    assert_eq!(c.totals(&[30.0, 20.0, 51.0]), (101.0, true));
    assert_eq!(envelopes_to_render(&[1.0, f64::NAN], 10), Err(1));
    assert_eq!(envelopes_to_render(&[1.0, 2.0], 10), Ok(vec![1, 0]));
}

#[test]
fn clamps_max_recent() {
    assert_eq!(clamp_max_recent("m", 0.0), Ok(1));
    assert_eq!(clamp_max_recent("m", 50.0), Ok(10));
    assert_eq!(clamp_max_recent("m", 4.0), Ok(4));
    assert!(clamp_max_recent("m", f64::NAN).is_err());
}
