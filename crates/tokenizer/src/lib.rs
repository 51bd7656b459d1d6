//! Exact token counts for the OpenAI BPE encodings `o200k_base` and `cl100k_base`, with
//! `encode_ordinary` semantics: text such as `<|endoftext|>` is ordinary text.
//!
//! The counter is a count-only fork of the `tiktoken` crate 4.1.2 (goliajp/rust-tiktoken,
//! MIT OR Apache-2.0; see LICENSE-MIT and LICENSE-APACHE in this crate), pinned by its
//! vocabulary data in `data/` and by the differential test against the tiktoken npm
//! package. It keeps the crate's fast-path pre-tokenizer scanners, vocabulary layout,
//! merge and piece cache. What the crate does on first use, `build.rs` does at build time:
//! the vocabularies are decompressed there and indexed in place at load (cl100k_base
//! taking the bytes of the tokens it shares with o200k_base from o200k_base's), and the
//! pre-tokenizer's regex fallback is a DFA compiled there. That is what brings loading an
//! encoding from ~230 ms to well under 100 ms (docs/adr/0002-exact-token-counting.md).
//! The fork also counts whitespace-only pieces in linear time, where the crate goes
//! quadratic on long runs of U+3000, and counts every piece longer than 1 KB by a pass of
//! its own (`long`), in time linear in the piece and memory independent of it, where the
//! crate's heap merge took 80 s and 3.4 GB on 100 MB of `a`
//! (docs/adr/0005-linear-token-counting.md).

mod long;
// Vendored from upstream with what this crate never calls taken out: the encode paths
// and the fast paths of models other than o200k_base and cl100k_base.
mod merge;
mod piece_cache;
mod pretokenize;
mod tkv1;
mod vocab;

use std::sync::OnceLock;

use devs_context_errors::FieldError;
use pretokenize::{FastPath, PreTokenizer, RegexPreTokenizer};
use vocab::Vocab;

/// Keeps the embedded tables 8-byte aligned, so they are read in place.
#[repr(C, align(8))]
struct Aligned<T: ?Sized>(T);

macro_rules! embed {
    ($file:literal) => {{
        static A: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/", $file)));
        &A.0
    }};
}

// O200K_FRAME and CL100K_FRAME: where each encoding's vocabulary lies in `vocab.bin`.
include!(concat!(env!("OUT_DIR"), "/vocab_layout.rs"));

/// Both vocabularies (see build.rs and vocab.rs).
fn vocab_blob() -> &'static [u8] {
    embed!("vocab.bin")
}

/// One encoding's tables.
struct Bpe {
    vocab: Vocab,
    pre: RegexPreTokenizer,
    cache_id: u32,
    long: long::Long,
}

impl Bpe {
    fn new(vocab: Vocab, dfa: &'static [u8], fast: FastPath) -> Self {
        Self {
            vocab,
            pre: RegexPreTokenizer::new(dfa, fast),
            cache_id: piece_cache::new_cache_id(),
            long: long::Long::new(),
        }
    }

    fn count(&self, text: &str) -> usize {
        let bytes = text.as_bytes();
        let mut count = 0;
        let mut pos = 0;
        while let Some((start, end)) = self.pre.next_match(text, pos) {
            let piece = &bytes[start..end];
            if piece.len() <= long::MAX_TOKEN_LEN && self.vocab.contains_key(piece) {
                count += 1;
            } else if (3..=piece_cache::KEY_MAX).contains(&piece.len()) {
                count += piece_cache::count_piece(self.cache_id, piece, || {
                    merge::bpe_count(piece, &self.vocab)
                });
            } else if piece.len() > long::LONG_MIN {
                count += self.long.count(piece, &self.vocab);
            } else {
                count += merge::bpe_count(piece, &self.vocab);
            }
            pos = end;
        }
        count
    }
}

static O200K: OnceLock<Bpe> = OnceLock::new();
static CL100K: OnceLock<Bpe> = OnceLock::new();

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    O200kBase,
    Cl100kBase,
}

impl Encoding {
    pub const NAMES: [&'static str; 2] = ["o200k_base", "cl100k_base"];

    pub fn parse(field: &str, name: &str) -> Result<Encoding, FieldError> {
        match name {
            "o200k_base" => Ok(Encoding::O200kBase),
            "cl100k_base" => Ok(Encoding::Cl100kBase),
            other => Err(FieldError::range_error(
                field,
                format!("must be 'o200k_base' or 'cl100k_base', got {other:?}"),
            )),
        }
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    fn bpe(self) -> &'static Bpe {
        match self {
            Encoding::O200kBase => O200K.get_or_init(|| {
                Bpe::new(
                    Vocab::from_tkv(vocab_blob(), O200K_FRAME),
                    embed!("o200k_base.sparse.dfa"),
                    FastPath::O200k,
                )
            }),
            Encoding::Cl100kBase => CL100K.get_or_init(|| {
                Bpe::new(
                    Vocab::from_tkr(vocab_blob(), CL100K_FRAME, O200K_FRAME),
                    embed!("cl100k_base.sparse.dfa"),
                    FastPath::Cl100k,
                )
            }),
        }
    }

    /// Indexes the encoding's tables now, so the first count is quick.
    pub fn load(self) {
        self.bpe();
    }

    pub fn count(self, text: &str) -> usize {
        self.bpe().count(text)
    }
}

#[cfg(test)]
#[path = "tests/lib.rs"]
mod tests;

#[cfg(test)]
#[path = "tests/peak_alloc.rs"]
mod peak_alloc;
