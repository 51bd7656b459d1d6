//! The count of one long piece: a forward pass that finds, for every prefix of the piece,
//! the last token of that prefix's BPE encoding.
//!
//! BPE encodings extend one token at a time: if `e` is the encoding of a prefix and BPE
//! keeps `e`'s last token and `t` apart, then `e` followed by `t` is the encoding of the
//! longer prefix, and the encoding of a text is the only sequence of tokens it has whose
//! adjacent pairs all pass that test. So the last token of `text[..i]` is the one token
//! `t = text[s..i]` that passes with the last token of `text[..s]`, and the count of
//! `text[..i]` is the count of `text[..s]` plus one. No token is longer than 128 bytes, so
//! the pass keeps a ring of the last 512 prefixes, whatever the length of the piece.

use super::automaton::{Automaton, State};
use super::pair::{Pairs, Spans};
use super::period::Runs;
use super::ring::Ring;
use crate::vocab::Vocab;

const NONE: u32 = u32::MAX;

/// The pieces' shared tables.
pub(super) struct Model<'a> {
    pub(super) vocab: &'a Vocab,
    pub(super) automaton: &'a Automaton,
    /// Each token's length, by rank.
    pub(super) len: &'a [u8],
    pub(super) pairs: &'a Pairs,
}

impl Model<'_> {
    #[inline]
    fn len(&self, token: u32) -> usize {
        self.len[token as usize] as usize
    }
}

/// What the pair test asks of the ring: spans that end at a kept prefix.
struct Window<'a> {
    ring: &'a Ring,
    automaton: &'a Automaton,
}

impl Spans for Window<'_> {
    #[inline]
    fn token(&self, start: usize, end: usize) -> Option<u32> {
        self.automaton
            .ending(self.ring.state(end))
            .find(|&(_, len)| len == end - start)
            .map(|(token, _)| token)
    }
}

/// The token count of `text`, or `None` if some prefix had no last token, which the
/// vocabulary's properties rule out (the tests check them) and the caller answers by
/// the plain merge. `skip_runs` is off only for the tests that compare the skip.
pub(super) fn count(text: &[u8], model: &Model, skip_runs: bool) -> Option<usize> {
    let mut pass = Pass {
        ring: Ring::new(NONE, model.automaton.start()),
        runs: Runs::new(text.len()),
        state: model.automaton.start(),
        i: 0,
    };
    while pass.i < text.len() {
        let until = (pass.i + CHUNK).min(text.len());
        pass.steps(text, until, model, skip_runs)?;
    }
    Some(pass.ring.count(text.len()) as usize)
}

/// Prefixes counted per call of [`Pass::steps`]. V8 runs a wasm function in its baseline
/// tier until its optimised code is ready, and swaps that in for later calls only, never
/// inside a running one: with one call per piece, the first count of a long piece ran
/// 25-50% slower than the next.
pub(super) const CHUNK: usize = 1 << 16;

/// The pass over one piece, between calls of `steps`.
struct Pass {
    ring: Ring,
    runs: Runs,
    state: State,
    i: usize,
}

impl Pass {
    #[inline(never)]
    fn steps(&mut self, text: &[u8], until: usize, model: &Model, skip_runs: bool) -> Option<()> {
        let Pass {
            ring,
            runs,
            state,
            i,
        } = self;
        while *i < until {
            *state = model.automaton.next(*state, text[*i]);
            *i += 1;
            ring.set_state(*i, *state);
            let (token, start) = last_token(text, *i, ring, model)?;
            ring.set(*i, token, ring.count(start) + 1);
            if skip_runs {
                *i = runs.after(text, *i, ring);
            }
        }
        Some(())
    }
}

/// The last token of `text[..i]` and where it starts, given the encodings of the
/// shorter prefixes and the automaton's states in `ring`.
#[inline]
fn last_token(text: &[u8], i: usize, ring: &Ring, model: &Model) -> Option<(u32, usize)> {
    let window = Window {
        ring,
        automaton: model.automaton,
    };
    let fits = |token: u32, start: usize| {
        start == 0 || {
            let before = ring.last(start);
            model.pairs.apart(
                model.vocab,
                text,
                &window,
                (before, start - model.len(before)),
                start,
                (token, i),
            )
        }
    };
    let ending = model.automaton.ending(ring.state(i));
    // First the token that extends the previous prefix's last token by this byte: within
    // a word it is right most of the time.
    let previous = ring.last(i - 1);
    let extend = if previous == NONE {
        0
    } else {
        i - 1 - model.len(previous)
    };
    for (token, len) in ending.clone() {
        let start = i - len;
        if start == extend && fits(token, start) {
            return Some((token, start));
        }
    }
    // Then the tokens that start later (more often right than those that start earlier).
    ending
        .clone()
        .map(|(token, len)| (token, i - len))
        .filter(|&(_, start)| start > extend)
        .chain(
            ending
                .map(|(token, len)| (token, i - len))
                .filter(|&(_, start)| start < extend),
        )
        .find(|&(token, start)| fits(token, start))
}
