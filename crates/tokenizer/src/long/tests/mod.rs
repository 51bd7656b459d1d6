//! The long-piece counter against the merge it replaces (`merge::bpe_count`, which keeps
//! tiktoken's semantics), on both encodings.

mod periodic;
mod threshold;

use super::{Long, pair};
use crate::merge;
use crate::vocab::Vocab;
use crate::{CL100K_FRAME, O200K_FRAME, vocab_blob};

/// One encoding, counted through the long-piece path itself (its automata included).
struct Fixture {
    name: &'static str,
    vocab: Vocab,
    long: Long,
}

impl Fixture {
    fn new(name: &'static str, vocab: Vocab) -> Self {
        Self {
            name,
            vocab,
            long: Long::new(),
        }
    }

    fn both() -> [Fixture; 2] {
        [
            Fixture::new("o200k_base", Vocab::from_tkv(vocab_blob(), O200K_FRAME)),
            Fixture::new(
                "cl100k_base",
                Vocab::from_tkr(vocab_blob(), CL100K_FRAME, O200K_FRAME),
            ),
        ]
    }

    fn count(&self, text: &[u8], skip_runs: bool) -> usize {
        self.long
            .pass(text, &self.vocab, skip_runs)
            .expect("every prefix has a last token")
    }

    /// The new count equals the merge's, with and without the skip.
    fn check(&self, text: &[u8]) {
        let want = merge::bpe_count(text, &self.vocab);
        assert_eq!(
            self.count(text, true),
            want,
            "{}: {:?}",
            self.name,
            String::from_utf8_lossy(text)
        );
        assert_eq!(
            self.count(text, false),
            want,
            "{}: {:?} (no skip)",
            self.name,
            String::from_utf8_lossy(text)
        );
    }

    fn all_tokens(&self) -> Vec<Vec<u8>> {
        let mut all = Vec::new();
        self.vocab
            .for_each_token(|_, token| all.push(token.to_vec()));
        all
    }
}

/// xorshift64: deterministic, so a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn token<'a>(&mut self, all: &'a [Vec<u8>]) -> &'a [u8] {
        &all[self.below(all.len())]
    }
}

#[test]
fn every_token_encodes_to_itself_and_counts_one() {
    for fixture in Fixture::both() {
        let mut tokens = 0;
        fixture.vocab.for_each_token(|rank, token| {
            tokens += 1;
            assert!(token.len() <= pair::MAX_TOKEN_LEN);
            if token.len() > 1 {
                let mid = pair::last_merge(&fixture.vocab, token).unwrap_or_else(|| {
                    panic!("{}: token {rank} does not merge into itself", fixture.name)
                });
                // The two parts are older tokens: the pair test relies on it.
                for part in [&token[..mid], &token[mid..]] {
                    assert!(
                        fixture.vocab.get(part).is_some_and(|r| r < rank),
                        "{}: {rank}",
                        fixture.name
                    );
                }
            }
            assert_eq!(
                fixture.count(token, true),
                1,
                "{}: token {rank} {token:?}",
                fixture.name
            );
        });
        assert_eq!(
            tokens,
            fixture.long.shared.get().unwrap().len.len(),
            "{}",
            fixture.name
        );
    }
}

/// Bytes a random piece is drawn from: runs, small alphabets, letters, CJK, bytes that
/// are not UTF-8.
const ALPHABETS: &[&[u8]] = &[
    b"a",
    b"ab",
    b"=-",
    b" ",
    b" \n",
    b"\r\n",
    b"abcdefghijklmnopqrstuvwxyz",
    b"etaoinshr",
    b"=-*#/_.~+<>!?;:{}[]()",
    b"0123456789abcdef",
    b"aA",
    "中文字".as_bytes(),
    "テスト".as_bytes(),
    "é".as_bytes(),
    b"\xe4\xb8\xad\x80\xff",
];

/// A random piece of at least `len` bytes, from one of five generators.
fn random_piece(rng: &mut Rng, all: &[Vec<u8>], len: usize) -> Vec<u8> {
    let alphabet = *rng.pick(ALPHABETS);
    let mut text = Vec::with_capacity(len + 256);
    match rng.below(5) {
        // Tokens end to end: every boundary looks like a place to stop.
        0 => {
            while text.len() < len {
                text.extend_from_slice(rng.token(all));
            }
        }
        1 => (0..len).for_each(|_| text.push(*rng.pick(alphabet))),
        // Runs of random lengths, including some of 100-300 bytes.
        2 => {
            while text.len() < len {
                let byte = *rng.pick(alphabet);
                let longest = if rng.below(4) == 0 { 300 } else { 70 };
                let run = 1 + rng.below(longest);
                text.extend(std::iter::repeat_n(byte, run));
            }
        }
        // A short pattern repeated, with a different start and end.
        3 => {
            let pattern: Vec<u8> = (0..1 + rng.below(6)).map(|_| *rng.pick(alphabet)).collect();
            text.extend_from_slice(rng.token(all));
            while text.len() < len {
                text.extend_from_slice(&pattern);
            }
            text.extend_from_slice(rng.token(all));
        }
        _ => {
            while text.len() < len {
                if rng.below(2) == 0 {
                    text.extend_from_slice(rng.token(all));
                } else {
                    let byte = *rng.pick(b"= a-*\n".as_slice());
                    text.extend(std::iter::repeat_n(byte, 1 + rng.below(40)));
                }
            }
        }
    }
    text
}

#[test]
fn agrees_with_the_merge_on_random_and_adversarial_pieces() {
    for fixture in Fixture::both() {
        let all = fixture.all_tokens();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..6000 {
            let len = 1 + rng.below(700);
            fixture.check(&random_piece(&mut rng, &all, len));
        }
        // Pieces as long as the ones the pass is for, fewer: the merge is slower there.
        for _ in 0..150 {
            let len = super::LONG_MIN + rng.below(5000);
            fixture.check(&random_piece(&mut rng, &all, len));
        }
    }
}

#[test]
fn agrees_with_the_merge_around_token_and_ring_lengths() {
    let units: [&[u8]; 7] = [b"a", b"=", b" ", b"ab", "中".as_bytes(), b"-", b"\n"];
    for fixture in Fixture::both() {
        for unit in units {
            for n in (1..=70).chain(120..=136).chain(250..=262).chain(505..=518) {
                let run = unit.repeat(n);
                fixture.check(&run);
                fixture.check(&[b"x".as_slice(), &run, b"y"].concat());
            }
        }
    }
}

#[test]
fn agrees_with_the_merge_on_pieces_of_several_chunks() {
    // The pass runs in calls of CHUNK prefixes; the skip may jump across their ends.
    let n = 2 * super::dp::CHUNK + 37;
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    for fixture in Fixture::both() {
        let letters: Vec<u8> = (0..n).map(|_| b'a' + rng.below(26) as u8).collect();
        fixture.check(&letters);
        fixture.check(&[b"x".repeat(5000), b"=".repeat(n), b"ab".repeat(n / 2)].concat());
    }
}
