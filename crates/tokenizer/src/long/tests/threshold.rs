//! The crate's counter around [`LONG_MIN`], where a piece moves from the heap merge to the
//! pass: whole texts, through the pre-tokenizer and the routing of `Bpe::count`, against
//! the same texts with every piece counted by the merge.

use super::super::LONG_MIN;
use super::Rng;
use crate::pretokenize::PreTokenizer;
use crate::{Encoding, merge};

/// Every piece of `text` counted by the merge, which keeps tiktoken's semantics.
fn by_the_merge(encoding: Encoding, text: &str) -> usize {
    let bpe = encoding.bpe();
    let mut count = 0;
    let mut pos = 0;
    while let Some((start, end)) = bpe.pre.next_match(text, pos) {
        count += merge::bpe_count(&text.as_bytes()[start..end], &bpe.vocab);
        pos = end;
    }
    count
}

fn longest_piece(encoding: Encoding, text: &str) -> usize {
    let bpe = encoding.bpe();
    let (mut longest, mut pos) = (0, 0);
    while let Some((start, end)) = bpe.pre.next_match(text, pos) {
        longest = longest.max(end - start);
        pos = end;
    }
    longest
}

/// Builds a piece of the given length in bytes.
type Piece<'a> = dyn Fn(&mut Rng, usize) -> String + 'a;

#[test]
fn texts_with_pieces_around_the_threshold_count_as_the_merge() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let cjk: Vec<char> = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可"
        .chars()
        .collect();
    // Each builds one piece of `len` bytes for both encodings.
    let pieces: [(&str, &Piece<'_>); 7] = [
        ("a", &|_, len| "a".repeat(len)),
        ("=", &|_, len| "=".repeat(len)),
        ("ab", &|_, len| "ab".repeat(len / 2) + &"a".repeat(len % 2)),
        ("random a-z", &|rng, len| {
            (0..len)
                .map(|_| (b'a' + rng.below(26) as u8) as char)
                .collect()
        }),
        ("words, no spaces", &|rng, len| {
            let words = ["the", "token", "count", "linear", "window", "merge", "of"];
            let mut s = String::new();
            while s.len() < len {
                s += *rng.pick(words.as_slice());
            }
            s.truncate(len);
            s
        }),
        ("CJK", &|rng, len| {
            // A lowercase head makes every byte length one piece of CJK.
            let mut s = "x".repeat(len % 3);
            (0..len / 3).for_each(|_| s.push(*rng.pick(&cjk)));
            s
        }),
        // The whitespace before a word, less the space that goes with the word.
        ("spaces", &|_, len| " ".repeat(len + 1) + "x"),
    ];
    for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
        for (name, piece) in &pieces {
            for len in LONG_MIN - 4..=LONG_MIN + 4 {
                let piece = piece(&mut rng, len);
                assert_eq!(longest_piece(encoding, &piece), len, "{name} {len}");
                for text in [piece.clone(), format!("Hello, {piece}! {piece}\n{piece}")] {
                    assert_eq!(
                        encoding.count(&text),
                        by_the_merge(encoding, &text),
                        "{}: {name}, {len} bytes",
                        encoding.name()
                    );
                }
            }
        }
    }
}
