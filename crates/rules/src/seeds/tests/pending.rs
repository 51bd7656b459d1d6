use super::*;
use crate::base::rng::Rng;
use crate::seeds::runner::aged;
use crate::seeds::tool_output::MIN_BYTE_SIZE;

/// The walk the index replaces: every turn each whole output's written age goes up by
/// one (`runner::aged`), and the due check and the recount read every entry.
#[derive(Default)]
struct Walk {
    ages: Vec<f64>,
    sizes: Vec<f64>,
    tokens: Vec<f64>,
}

impl Walk {
    fn due(&self) -> Vec<bool> {
        self.ages
            .iter()
            .zip(&self.sizes)
            .map(|(&a, &b)| !a.is_nan() && should_truncate(a, b))
            .collect()
    }
}

#[test]
fn clock_ages_equal_the_ages_the_walk_writes_on_random_sequences() {
    for seed in 1..=200u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut index = Pending::new();
        let mut walk = Walk::default();
        for _ in 0..(20 + rng.below(200)) {
            match rng.below(11) {
                // A turn: everything whole ages by one.
                0..=3 => {
                    index.tick();
                    walk.ages = aged(&walk.ages);
                }
                // A new output (the envelope's), or a host's entry of some age.
                4..=6 => {
                    let age = if rng.below(3) == 0 {
                        rng.below(9) as f64
                    } else {
                        0.0
                    };
                    let size = [10.0, MIN_BYTE_SIZE, MIN_BYTE_SIZE + 1.0, 300_000.0]
                        [rng.below(4) as usize];
                    // Now and then a count with a fraction (a host's counter may give one).
                    let tokens =
                        rng.below(5000) as f64 + [0.0, 0.25][usize::from(rng.below(8) == 0)];
                    index.push_whole(size, tokens, age);
                    walk.ages.push(age);
                    walk.sizes.push(size);
                    walk.tokens.push(tokens);
                }
                // An output truncated, or one already truncated from the host.
                7 if !walk.ages.is_empty() => {
                    let i = rng.below(walk.ages.len() as u64) as usize;
                    let tokens = rng.below(200) as f64;
                    index.truncated(i, tokens);
                    walk.ages[i] = f64::NAN;
                    walk.tokens[i] = tokens;
                }
                8 => {
                    index.push_truncated(7.0);
                    walk.ages.push(f64::NAN);
                    walk.sizes.push(0.0);
                    walk.tokens.push(7.0);
                }
                // The shell reads the array again: the index starts over, the clock goes on.
                10 => {
                    index.clear();
                    walk = Walk::default();
                }
                // A failed turn: its tick taken back.
                _ => {
                    index.tick();
                    index.untick();
                }
            }
            for (i, &a) in walk.ages.iter().enumerate() {
                let got = index.age(i);
                if a.is_nan() {
                    assert_eq!(got, None, "seed {seed}, output {i}");
                } else {
                    assert_eq!(got, Some(a), "seed {seed}, output {i}");
                }
            }
            assert_eq!(index.due(), walk.due(), "seed {seed}");
            let due: Vec<usize> = (0..walk.ages.len()).filter(|&i| walk.due()[i]).collect();
            assert_eq!(index.due_outputs(), due, "seed {seed}");
            assert_eq!(
                index.done(),
                walk.ages.iter().map(|a| a.is_nan()).collect::<Vec<_>>()
            );
            assert_eq!(index.tokens(), walk.tokens.iter().sum::<f64>());
        }
    }
}

#[test]
fn an_output_is_due_from_its_second_turn_when_over_50_kib() {
    let mut index = Pending::new();
    index.push_whole(MIN_BYTE_SIZE + 1.0, 1.0, 0.0);
    index.push_whole(MIN_BYTE_SIZE, 1.0, 5.0);
    assert_eq!(index.due(), vec![false, false]);
    index.tick();
    assert_eq!(index.due(), vec![false, false]);
    index.tick();
    assert_eq!(
        index.due(),
        vec![true, false],
        "50 KiB exactly is never due"
    );
    index.truncated(0, 3.0);
    assert_eq!(index.due(), vec![false, false]);
    assert_eq!(index.age(0), None);
    assert_eq!(index.age(1), Some(7.0));
}

#[test]
fn the_prompt_keeps_what_it_showed_until_an_output_it_showed_changes() {
    let mut index = Pending::new();
    for _ in 0..3 {
        index.push_whole(10.0, 1.0, 0.0);
    }
    assert_eq!(index.tools_from(), 0);
    index.shown_all();
    index.push_whole(10.0, 1.0, 0.0);
    assert_eq!(index.tools_from(), 3, "only the new output is to show");
    index.truncated(3, 1.0);
    assert_eq!(index.tools_from(), 3, "the new one was not shown yet");
    index.truncated(1, 1.0);
    assert_eq!(
        index.tools_from(),
        0,
        "one it showed changed: all shown anew"
    );
    index.clear();
    assert_eq!(index.tools_from(), 0);
    assert!(index.is_empty());
}

#[test]
fn the_largest_age_a_host_may_write_stays_exact() {
    let mut index = Pending::new();
    index.tick();
    index.push_whole(1.0, 1.0, 9_007_199_254_740_991.0);
    assert_eq!(index.age(0), Some(9_007_199_254_740_991.0));
}
