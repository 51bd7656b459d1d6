//! Whether BPE keeps two adjacent tokens apart: the test that lets the long-piece counter
//! extend an encoding one token at a time (see dp.rs).
//!
//! BPE on the bytes of `a` then `b` ends as `[a, b]` unless, at some moment, the
//! rightmost part of `a`'s side and the leftmost part of `b`'s side concatenate to a token
//! that BPE merges before either part is merged on its own side. Both sides evolve as
//! they would alone until then, so the test walks their merge histories backwards, the
//! later merge first, and checks each pair of parts that meet at the boundary. Every part
//! is a span of the text ending at most 256 bytes back, so the caller answers "which
//! token is this span" from what it keeps of those positions, without hashing bytes.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use crate::vocab::Vocab;

/// No token of o200k_base or cl100k_base is longer.
pub(crate) const MAX_TOKEN_LEN: usize = 128;

/// A token's split: not yet computed, a single byte, or the length of its left part.
const UNKNOWN: u8 = 0;
const LEAF: u8 = u8::MAX;

/// Memo entries: `a | b << 20 | apart << 40 | FILLED`. 2^18 slots, 2 MB: pairs of
/// words recur in text, and a table that held more of them would miss the cache.
const ID_BITS: u32 = 20;
const ID_MASK: u64 = (1 << ID_BITS) - 1;
const MEMO_BITS: u32 = 18;
const FILLED: u64 = 1 << 41;

/// The token a span of the text is, if it is one: `token(start, end)`, for spans that
/// end within the caller's window.
pub(super) trait Spans {
    fn token(&self, start: usize, end: usize) -> Option<u32>;
}

/// Splits (filled on first use) and a memo of pair tests, for one encoding. Relaxed
/// atomics: every value written is the same whoever computes it, and one word holds it.
pub(super) struct Pairs {
    splits: Box<[AtomicU8]>,
    memo: Box<[AtomicU64]>,
}

impl Pairs {
    pub(super) fn new(tokens: usize) -> Self {
        assert!(tokens as u64 <= ID_MASK, "token ids fit in {ID_BITS} bits");
        Self {
            splits: (0..tokens).map(|_| AtomicU8::new(UNKNOWN)).collect(),
            memo: (0..1 << MEMO_BITS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Whether BPE of `text[a_start..end]` is `[a, b]`, where `a` is the token
    /// `text[a_start..mid]` and `b` the token `text[mid..end]`.
    #[inline]
    pub(super) fn apart(
        &self,
        vocab: &Vocab,
        text: &[u8],
        spans: &impl Spans,
        (a, a_start): (u32, usize),
        mid: usize,
        (b, end): (u32, usize),
    ) -> bool {
        let key = a as u64 | (b as u64) << ID_BITS;
        let slot =
            &self.memo[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - MEMO_BITS)) as usize];
        let entry = slot.load(Relaxed);
        if entry & (FILLED | ID_MASK | ID_MASK << ID_BITS) == FILLED | key {
            return entry & 1 << 40 != 0;
        }
        let apart = self.walk(vocab, text, spans, (a, a_start), mid, (b, end));
        slot.store(FILLED | key | (apart as u64) << 40, Relaxed);
        apart
    }

    fn walk(
        &self,
        vocab: &Vocab,
        text: &[u8],
        spans: &impl Spans,
        (mut r, mut r_start): (u32, usize),
        mid: usize,
        (mut l, mut l_end): (u32, usize),
    ) -> bool {
        // A merge across the boundary happens if its rank is below `limit`: the rank of
        // the merge that consumes the part last undone (a tie goes to the leftmost pair).
        let mut limit = u32::MAX;
        loop {
            if l_end - r_start <= MAX_TOKEN_LEN
                && spans.token(r_start, l_end).is_some_and(|rank| rank < limit)
            {
                return false;
            }
            let r_left = self.left_len(vocab, r, &text[r_start..mid]);
            let l_left = self.left_len(vocab, l, &text[mid..l_end]);
            match (r_left, l_left) {
                (Some(left), None) => {
                    limit = r;
                    r_start += left;
                    r = spans.token(r_start, mid).unwrap_or_default();
                }
                (Some(left), Some(_)) if r > l => {
                    limit = r;
                    r_start += left;
                    r = spans.token(r_start, mid).unwrap_or_default();
                }
                (_, Some(left)) => {
                    limit = l + 1;
                    l_end = mid + left;
                    l = spans.token(mid, l_end).unwrap_or_default();
                }
                (None, None) => return true,
            }
        }
    }

    /// The length of the left part of `token` (whose bytes are `bytes`) before its last
    /// merge; `None` for a single byte.
    #[inline]
    fn left_len(&self, vocab: &Vocab, token: u32, bytes: &[u8]) -> Option<usize> {
        let slot = &self.splits[token as usize];
        let mut split = slot.load(Relaxed);
        if split == UNKNOWN {
            split = last_merge(vocab, bytes).map_or(LEAF, |mid| mid as u8);
            slot.store(split, Relaxed);
        }
        (split != LEAF).then_some(split as usize)
    }
}

/// Where BPE of a token's `bytes` splits it just before the last merge, by running the
/// merge (lowest rank first, leftmost on ties) until two parts are left. `None` for one
/// byte, and for bytes that do not merge into one token: no token of either encoding
/// does that (a test checks every token), and a leaf keeps the walk finite if one did.
pub(super) fn last_merge(vocab: &Vocab, bytes: &[u8]) -> Option<usize> {
    let n = bytes.len();
    if !(2..=MAX_TOKEN_LEN).contains(&n) {
        return None;
    }
    let mut bounds = [0u8; MAX_TOKEN_LEN + 1];
    for (i, bound) in bounds.iter_mut().enumerate().take(n + 1) {
        *bound = i as u8;
    }
    let rank = |bounds: &[u8], i: usize| {
        vocab
            .get(&bytes[bounds[i] as usize..bounds[i + 2] as usize])
            .unwrap_or(u32::MAX)
    };
    let mut ranks = [u32::MAX; MAX_TOKEN_LEN];
    for (i, r) in ranks.iter_mut().enumerate().take(n - 1) {
        *r = rank(&bounds, i);
    }
    let mut parts = n;
    while parts > 2 {
        let (mut best, mut at) = (u32::MAX, 0);
        for (i, &r) in ranks[..parts - 1].iter().enumerate() {
            if r < best {
                (best, at) = (r, i);
            }
        }
        if best == u32::MAX {
            return None;
        }
        bounds.copy_within(at + 2..=parts, at + 1);
        ranks.copy_within(at + 1..parts - 1, at);
        parts -= 1;
        if at + 2 <= parts {
            ranks[at] = rank(&bounds, at);
        }
        if at > 0 {
            ranks[at - 1] = rank(&bounds, at - 1);
        }
    }
    vocab.contains_key(bytes).then_some(bounds[1] as usize)
}
