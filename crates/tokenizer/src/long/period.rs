//! The exact skip over runs: a byte or a pattern of up to 8 bytes repeated, such as
//! `'a' * n`, `'=' * n`, spaces, `'ab' * n` or one CJK character repeated.
//!
//! Inside a run of period `p`, the pass's step at prefix `i` depends only on `i mod p`
//! and the last tokens of the 128 prefixes before it (the text those see is the same
//! for every `i` of one phase). So once those last tokens repeat after `P` prefixes
//! (`P` a multiple of `p`), they repeat every `P` prefixes to the run's end. Counts grow
//! by `D(y) = count(y + P) - count(y)` per period, and since `count(y)` is the count
//! where `y`'s last token starts plus one, `D(y)` is `D` at that start: if it is one
//! value `D` over the repeated window, it is `D` for the rest of the run. The skip checks
//! both, then moves the window whole periods ahead and adds `D` per period.

use super::pair::MAX_TOKEN_LEN;
use super::ring::{RING, Ring};

const MAX_PERIOD: usize = 8;
/// How often the pass looks for a run, and how long a run must be to be worth it.
const CHECK_EVERY: usize = 128;
const MIN_RUN: usize = 4096;
/// How long to look for the repeat before giving up on a run (it is found within a few
/// hundred prefixes on every run tried).
const PATIENCE: usize = 4096;
/// The window: the last tokens of the prefixes `i - 127 ..= i`.
const WINDOW: usize = MAX_TOKEN_LEN;
const B: u64 = 0x100_0000_01B3;

pub(super) struct Runs {
    len: usize,
    next_check: usize,
    run: Option<Run>,
}

struct Run {
    period: usize,
    /// The text is `period`-periodic from `i - 256` (where it was found) to `end`.
    end: usize,
    /// The first prefix whose window is hashed, and the hashes by prefix.
    from: usize,
    hash: u64,
    hashes: Box<[u64; RING]>,
}

impl Runs {
    pub(super) fn new(len: usize) -> Self {
        Self {
            len,
            next_check: 2 * CHECK_EVERY,
            run: None,
        }
    }

    /// Called after prefix `i` is counted; returns the prefix to go on from: `i`, or
    /// further on in a run, with `ring` moved there.
    #[inline]
    pub(super) fn after(&mut self, text: &[u8], i: usize, ring: &mut Ring) -> usize {
        if self.run.is_none() && i < self.next_check {
            return i;
        }
        self.step(text, i, ring)
    }

    #[inline(never)]
    fn step(&mut self, text: &[u8], i: usize, ring: &mut Ring) -> usize {
        let Some(run) = &mut self.run else {
            self.next_check = i + CHECK_EVERY;
            if i + MIN_RUN <= self.len
                && let Some(period) = run_period(text, i)
            {
                let end = run_end(text, i + MIN_RUN, period);
                let mut hash = 0u64;
                for y in i + 1 - WINDOW..=i {
                    hash = hash.wrapping_mul(B).wrapping_add(ring.last(y) as u64);
                }
                let mut hashes = Box::new([0u64; RING]);
                hashes[i % RING] = hash;
                self.run = Some(Run {
                    period,
                    end,
                    from: i,
                    hash,
                    hashes,
                });
            }
            return i;
        };
        if i >= run.end || i > run.from + PATIENCE {
            // Past the run, or no repeat found: plain steps to its end, then look again.
            self.next_check = self.next_check.max(run.end);
            self.run = None;
            return i;
        }
        let out = ring.last(i - WINDOW) as u64;
        run.hash = run
            .hash
            .wrapping_mul(B)
            .wrapping_add(ring.last(i) as u64)
            .wrapping_sub(out.wrapping_mul(B.wrapping_pow(WINDOW as u32)));
        run.hashes[i % RING] = run.hash;
        let mut repeat = run.period;
        while repeat <= WINDOW && i - repeat >= run.from {
            if run.hashes[(i - repeat) % RING] == run.hash
                && let Some(to) = skip(i, repeat, run.end, ring)
            {
                self.next_check = run.end;
                self.run = None;
                return to;
            }
            repeat += run.period;
        }
        i
    }
}

/// If the windows at `i` and `i - repeat` are equal and `D` is one value over the
/// earlier, moves the ring whole periods ahead, as near `end` as it can, and returns
/// where it is then.
fn skip(i: usize, repeat: usize, end: usize, ring: &mut Ring) -> Option<usize> {
    let j = i - repeat;
    if (0..WINDOW).any(|k| ring.last(i - k) != ring.last(j - k)) {
        return None;
    }
    let d = ring.count(i) - ring.count(j);
    if (0..WINDOW).any(|k| ring.count(i - k) - ring.count(j - k) != d) {
        return None;
    }
    let periods = (end - i) / repeat;
    if periods == 0 {
        return None;
    }
    let to = i + periods * repeat;
    let add = d.checked_mul(periods as u64)?;
    let moved: [_; WINDOW] =
        std::array::from_fn(|k| (ring.last(i - k), ring.count(i - k) + add, ring.state(i - k)));
    for (k, (last, count, state)) in moved.into_iter().enumerate() {
        ring.set(to - k, last, count);
        ring.set_state(to - k, state);
    }
    Some(to)
}

/// The least period `p <= 8` of `text[i - 256 .. i + MIN_RUN]`, if it has one.
fn run_period(text: &[u8], i: usize) -> Option<usize> {
    let (lo, hi) = (i.checked_sub(2 * WINDOW)?, i + MIN_RUN);
    (1..=MAX_PERIOD)
        .find(|&p| text[i - 8..i] == text[i - 8 - p..i - p] && text[lo + p..hi] == text[lo..hi - p])
}

/// The first `x >= from` with `text[x] != text[x - period]`, or the text's length.
fn run_end(text: &[u8], from: usize, period: usize) -> usize {
    let mut x = from;
    while x + 8 <= text.len() {
        let word = |at: usize| u64::from_le_bytes(text[at..at + 8].try_into().unwrap());
        let diff = word(x) ^ word(x - period);
        if diff != 0 {
            return x + (diff.trailing_zeros() / 8) as usize;
        }
        x += 8;
    }
    while x < text.len() && text[x] == text[x - period] {
        x += 1;
    }
    x
}
