//! Pre-tokenization: split text into pieces before BPE encoding.
//!
//! The [`PreTokenizer`] trait defines a regex-based splitter that partitions
//! input text into byte-range pieces. [`RegexPreTokenizer`] implements this
//! using the `regex` crate (DFA-based), with a custom whitespace lookahead
//! emulation (`adjust_whitespace_end`) that avoids `fancy-regex` entirely.
//!
//! Before the regex, a scanner resolves most pieces on its own. They are split by what
//! they hold: `classes` the character classes, `rules` the rules several patterns share,
//! `cl100k` and `o200k` each family's scanner, `whitespace` the whitespace
//! runs and the lookahead emulation.

mod cl100k;
mod classes;
mod o200k;
mod rules;
mod whitespace;

use regex_automata::dfa::{Automaton, sparse};
use regex_automata::{Anchored, Input};

use cl100k::cl100k_ascii_next;
use o200k::o200k_ascii_next;
use whitespace::{adjust_whitespace_end, ascii_ws_next};

/// Trait for splitting text into pieces before BPE encoding.
pub trait PreTokenizer: Send + Sync {
    /// Find the next match starting at or after `pos`.
    /// Returns `(start, end)` byte offsets into `text`.
    /// The `end` is already adjusted for whitespace lookahead emulation.
    fn next_match(&self, text: &str, pos: usize) -> Option<(usize, usize)>;
}

/// Selects which ASCII fast-path scanner a [`RegexPreTokenizer`] tries before
/// falling back to the regex. Chosen by the caller in `lib.rs`, which owns the
/// pattern definitions — the pre-tokenizer itself stays unaware of any specific
/// encoding's pattern string.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum FastPath {
    /// cl100k_base pattern.
    Cl100k,
    /// o200k_base pattern.
    O200k,
}

/// Regex-based pre-tokenizer wrapping the existing regex + whitespace adjustment logic.
pub struct RegexPreTokenizer {
    /// Fully compiled, minimized, anchored leftmost-first DFA of the pattern
    /// (generated at build time; zero-copy deserialized from static bytes).
    dfa: sparse::DFA<&'static [u8]>,
    /// Which ASCII fast-path scanner to try before the regex.
    fast: FastPath,
}

impl RegexPreTokenizer {
    pub(crate) fn new(dfa_bytes: &'static [u8], fast: FastPath) -> Self {
        let (dfa, _) = sparse::DFA::from_bytes(dfa_bytes).expect("invalid embedded DFA");
        Self { dfa, fast }
    }
}

impl PreTokenizer for RegexPreTokenizer {
    #[inline]
    fn next_match(&self, text: &str, pos: usize) -> Option<(usize, usize)> {
        let bytes = text.as_bytes();
        let fast = match self.fast {
            FastPath::Cl100k => cl100k_ascii_next(bytes, pos),
            FastPath::O200k => o200k_ascii_next(bytes, pos),
        };
        if let Some(r) = fast {
            return Some(r);
        }
        if let Some(r) = ascii_ws_next(bytes, pos) {
            return Some(r);
        }
        if pos >= bytes.len() {
            return None;
        }
        // Every char is matched by some alternative of these patterns, so the
        // leftmost match always starts at `pos`: an anchored forward search
        // gives the same match as the regex crate's unanchored find_at.
        let input = Input::new(text).range(pos..).anchored(Anchored::Yes);
        let end = self.dfa.try_search_fwd(&input).ok()??.offset();
        let end = adjust_whitespace_end(bytes, pos, end);
        Some((pos, end))
    }
}
