//! Runs, where the pass skips whole periods: the skip against the pass without it, and
//! both against the merge on runs of random short patterns.

use super::{Fixture, Rng};
use crate::merge;

#[test]
fn the_run_skip_counts_as_the_pass_without_it() {
    let units: [&[u8]; 9] = [
        b"a",
        b"=",
        b"-",
        b" ",
        b"\n",
        b"ab",
        b" \n",
        "中".as_bytes(),
        "─".as_bytes(),
    ];
    for fixture in Fixture::both() {
        for unit in units {
            for n in [5_000, 9_999, 10_000, 10_003, 10_037, 33_333] {
                for (head, tail) in [(&b""[..], &b""[..]), (b"x", b"y"), (b"The", b"zzz=")] {
                    let text = [head, &unit.repeat(n), tail].concat();
                    assert_eq!(
                        fixture.count(&text, true),
                        fixture.count(&text, false),
                        "{}: {head:?} + {unit:?} x {n} + {tail:?}",
                        fixture.name
                    );
                }
            }
        }
        // Two runs in one piece, and the merge itself on one long run.
        let text = [b"a".repeat(20_000), b"b".repeat(20_001)].concat();
        assert_eq!(
            fixture.count(&text, true),
            fixture.count(&text, false),
            "{}",
            fixture.name
        );
        fixture.check(&b"=".repeat(20_011));
    }
}

/// Units of the patterns: one byte, or one character of two or three bytes.
const UNITS: &[&[u8]] = &[
    b"a",
    b"b",
    b"=",
    b"-",
    b" ",
    b"\n",
    b"Z",
    "中".as_bytes(),
    "é".as_bytes(),
];

#[test]
fn runs_of_random_patterns_count_as_the_merge() {
    for fixture in Fixture::both() {
        let all = fixture.all_tokens();
        let mut rng = Rng(0xD1B5_4A32_D192_ED03);
        for _ in 0..60 {
            let mut text = Vec::new();
            if rng.below(2) == 0 {
                text.extend_from_slice(rng.token(&all));
            }
            // One to three runs in a row, each long enough for the skip to look for its
            // period (4 KB) and find it.
            for _ in 0..1 + rng.below(3) {
                let mut pattern = Vec::new();
                let period = 1 + rng.below(8);
                while pattern.len() < period {
                    let unit = *rng.pick(UNITS);
                    pattern.extend_from_slice(unit);
                }
                let n = (4500 + rng.below(12_000)) / pattern.len();
                text.extend(pattern.repeat(n));
            }
            if rng.below(2) == 0 {
                text.extend_from_slice(rng.token(&all));
            }
            let want = merge::bpe_count(&text, &fixture.vocab);
            assert_eq!(
                fixture.count(&text, true),
                want,
                "{}: {:?}",
                fixture.name,
                String::from_utf8_lossy(&text[..64.min(text.len())])
            );
        }
    }
}
