//! Exact counts of long pieces in time linear in the piece and memory independent of it
//! (docs/adr/0005-linear-token-counting.md).
//!
//! The merge in `merge.rs` keeps a heap over the whole piece: O(n log n) time, 20–36
//! bytes per byte, and cache misses that make 100 MB of `a` take 80 s and 3.4 GB of wasm
//! memory. Pieces longer than [`LONG_MIN`] come here instead: a forward pass (dp.rs)
//! over the last token of every prefix, with the pair test of pair.rs, the candidates of
//! automaton.rs and the skip over runs of period.rs. Everything is built on the first
//! long piece of an encoding, so text without one never pays for it.

mod automaton;
mod dp;
mod pair;
mod period;
mod ring;
#[cfg(test)]
mod tests;

use std::sync::{Arc, Mutex, OnceLock};

pub(crate) use pair::MAX_TOKEN_LEN;

use crate::merge;
use crate::vocab::Vocab;
use automaton::Automaton;

/// Pieces longer than this are counted here. With its tables built the pass is faster
/// than the heap merge from 256 bytes on; the bar is higher so that normal text, whose
/// longest pieces (indentation, a rule of `=`, a CJK clause) stay below it, never builds
/// them, and the heap's memory and log factor stay bounded by it.
pub(crate) const LONG_MIN: usize = 1024;

/// Automata built for some bytes before one for every byte: a text whose long pieces
/// keep bringing new bytes pays for at most this many small builds and one full one.
const PARTIAL_BUILDS: u32 = 3;

/// One encoding's long-piece tables, built on first use.
pub(crate) struct Long {
    shared: OnceLock<Shared>,
    automaton: Mutex<Option<Built>>,
}

/// What every long piece uses: token lengths by rank, and the pair test's tables.
struct Shared {
    len: Box<[u8]>,
    pairs: pair::Pairs,
}

/// The automaton of the tokens made of the bytes in `bytes`.
struct Built {
    bytes: [bool; 256],
    automaton: Arc<Automaton>,
    builds: u32,
}

impl Long {
    pub(crate) const fn new() -> Self {
        Self {
            shared: OnceLock::new(),
            automaton: Mutex::new(None),
        }
    }

    /// The token count of `piece`, exactly as `merge::bpe_count` counts it.
    pub(crate) fn count(&self, piece: &[u8], vocab: &Vocab) -> usize {
        self.pass(piece, vocab, true)
            .unwrap_or_else(|| merge::bpe_count(piece, vocab))
    }

    /// The pass of dp.rs, with or without the skip over runs (off only in tests).
    fn pass(&self, piece: &[u8], vocab: &Vocab, skip_runs: bool) -> Option<usize> {
        let shared = self.shared.get_or_init(|| {
            let mut len = Vec::new();
            vocab.for_each_token(|rank, token| {
                let rank = rank as usize;
                if len.len() <= rank {
                    len.resize(rank + 1, 0);
                }
                len[rank] = token.len() as u8;
            });
            let pairs = pair::Pairs::new(len.len());
            Shared {
                len: len.into_boxed_slice(),
                pairs,
            }
        });
        let automaton = self.automaton_for(piece, vocab);
        let model = dp::Model {
            vocab,
            automaton: &automaton,
            len: &shared.len,
            pairs: &shared.pairs,
        };
        dp::count(piece, &model, skip_runs)
    }

    /// An automaton with every token that can occur in `piece`: the last one built if it
    /// has them, else a new one for its bytes and the piece's.
    fn automaton_for(&self, piece: &[u8], vocab: &Vocab) -> Arc<Automaton> {
        let mut built = self
            .automaton
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let mut seen = [false; 256];
        if built.as_ref().is_none_or(|b| !b.bytes.iter().all(|&x| x)) {
            for &byte in piece {
                seen[byte as usize] = true;
            }
        }
        let (mut bytes, builds) = built
            .as_ref()
            .map_or(([false; 256], 0), |b| (b.bytes, b.builds));
        if let Some(b) = built.as_ref()
            && seen.iter().zip(&b.bytes).all(|(&s, &have)| have || !s)
        {
            return Arc::clone(&b.automaton);
        }
        for (have, s) in bytes.iter_mut().zip(seen) {
            *have |= s;
        }
        if builds >= PARTIAL_BUILDS {
            bytes = [true; 256];
        }
        // The old one goes first: its memory is reused for the new one.
        *built = None;
        let automaton = Arc::new(automaton_of(vocab, &bytes));
        *built = Some(Built {
            bytes,
            automaton: Arc::clone(&automaton),
            builds: builds + 1,
        });
        automaton
    }
}

/// The automaton of the tokens of `vocab` made of `bytes` only.
fn automaton_of(vocab: &Vocab, bytes: &[bool; 256]) -> Automaton {
    let mut flat = Vec::new();
    let mut at = Vec::new();
    vocab.for_each_token(|rank, token| {
        if token.iter().all(|&b| bytes[b as usize]) {
            at.push((rank, flat.len(), token.len()));
            flat.extend_from_slice(token);
        }
    });
    Automaton::new(
        at.into_iter()
            .map(|(rank, start, len)| (rank, &flat[start..start + len]))
            .collect(),
    )
}
