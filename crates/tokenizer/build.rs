//! Build-time tables for the tokenizers: decompress the vocabularies in data/ into one blob
//! that is embedded raw and indexed in place, and compile each encoding's pre-tokenizer
//! pattern to an anchored, minimized sparse DFA.
//! This is the work the `tiktoken` crate does on first use, moved out of start-up.
//!
//! The blob (`vocab.bin`, where its frames lie in `vocab_layout.rs`) holds o200k_base as the
//! TKV1 frame it is shipped in, and cl100k_base as a TKR1 frame that refers to o200k_base
//! for the 85,033 tokens the two share: one 18-bit code per rank, either where the bytes
//! lie in o200k_base's frame or the length of one of the other 15,223, whose bytes follow
//! the codes (layout: `tkr1` below). cl100k_base's frame falls from 744,099 bytes to
//! 352,513, and the wasm by about as much.

#[path = "src/tkv1.rs"]
mod tkv1;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/tkv1.rs");
    tables::build();
}

mod tables {
    use crate::tkv1::{Tkv1, tkv1};
    use regex_automata::MatchKind;
    use regex_automata::dfa::{StartKind, dense};
    use regex_automata::nfa::thompson;
    use regex_automata::util::syntax;
    use std::collections::HashMap;
    use std::io::Read;
    use std::path::{Path, PathBuf};
    use std::{env, fs};

    // Copied verbatim from tiktoken 4.1.2 src/encoding.rs. The `\s+(?!\S)` lookahead is
    // emulated in src/pretokenize/whitespace.rs (adjust_whitespace_end).
    const CL100K: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+";
    const O200K: &str = concat!(
        r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+",
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*",
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        r"|\p{N}{1,3}",
        r"| ?[^\s\p{L}\p{N}]+[\r\n/]*",
        r"|\s*[\r\n]+",
        r"|\s+",
    );

    /// Width of a TKR1 code; must match `REF_BITS` in src/vocab.rs.
    const REF_BITS: u32 = 18;

    pub fn build() {
        let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
        let o200k = decompress("o200k_base");
        let cl100k = decompress("cl100k_base");
        let shared = tkr1(&o200k, &cl100k);
        // Not embedded: for the test that the TKR1 frame indexes to the same vocabulary.
        fs::write(out.join("cl100k_base.tkv"), &cl100k).expect("OUT_DIR is writable");
        let mut blob = o200k;
        let o200k_end = blob.len();
        blob.extend_from_slice(&shared);
        fs::write(out.join("vocab.bin"), &blob).expect("OUT_DIR is writable");
        fs::write(
            out.join("vocab_layout.rs"),
            format!(
                "/// Where each encoding's frame lies in `vocab.bin` (written by build.rs).\n\
                 const O200K_FRAME: std::ops::Range<usize> = 0..{o200k_end};\n\
                 const CL100K_FRAME: std::ops::Range<usize> = {o200k_end}..{};\n",
                blob.len()
            ),
        )
        .expect("OUT_DIR is writable");

        for (name, pattern) in [("o200k_base", O200K), ("cl100k_base", CL100K)] {
            let dfa = dense::Builder::new()
                .configure(
                    dense::Config::new()
                        .match_kind(MatchKind::LeftmostFirst)
                        .start_kind(StartKind::Anchored)
                        .minimize(true)
                        .byte_classes(true),
                )
                .syntax(syntax::Config::new().unicode(true).utf8(true))
                .thompson(thompson::Config::new())
                .build(pattern)
                .expect("the pattern compiles");
            let sparse = dfa.to_sparse().expect("the DFA converts");
            fs::write(
                out.join(format!("{name}.sparse.dfa")),
                sparse.to_bytes_little_endian(),
            )
            .expect("OUT_DIR is writable");
        }
    }

    /// The TKV1 frame of `data/{name}.tkv.zst`.
    fn decompress(name: &str) -> Vec<u8> {
        let zst = format!("data/{name}.tkv.zst");
        println!("cargo:rerun-if-changed={zst}");
        let file = fs::File::open(Path::new(&zst)).unwrap_or_else(|e| panic!("{zst}: {e}"));
        let mut decoder = ruzstd::decoding::StreamingDecoder::new(file).expect("a zstd stream");
        let mut raw = Vec::new();
        decoder
            .read_to_end(&mut raw)
            .expect("the vocabulary decompresses");
        raw
    }

    /// A TKV1 frame's first rank, its tokens in rank order, and where the token bytes start
    /// in it (the frame's head read by `src/tkv1.rs`, as the vocabulary reads it at run time).
    fn tkv1_tokens(data: &[u8]) -> (u32, Vec<&[u8]>, usize) {
        let Tkv1 {
            rank0,
            lengths,
            mut starts,
        } = tkv1(data, 0..data.len());
        let body = starts.iter().copied().min().unwrap_or(data.len());
        let tokens = lengths
            .iter()
            .map(|&len| {
                let len = len as usize;
                let start = starts[len];
                starts[len] += len;
                &data[start..start + len]
            })
            .collect();
        (rank0, tokens, body)
    }

    /// `derived` as a TKR1 frame over `base` (a TKV1 frame). Header: "TKR1", token count,
    /// first rank, base token count, where the base's token bytes start in the base frame,
    /// and the number `g` of base length groups followed by `g` counts: base tokens of
    /// length 0, 1, … `g - 1`. Then one little-endian `REF_BITS`-bit code per rank, packed
    /// (plus 3 zero bytes, so that every code is one unaligned u32 read). A code below the
    /// base token count is the position of the same bytes among the base's, as they lie in
    /// the base frame (by length, then rank): so a reader finds them from the counts alone,
    /// without reading the base's lengths. Any other code `c` is a token of its own of
    /// length `c - base count + 1`, whose bytes follow the codes, in rank order.
    fn tkr1(base: &[u8], derived: &[u8]) -> Vec<u8> {
        let (base_rank0, base_tokens, base_body) = tkv1_tokens(base);
        let (rank0, tokens, _) = tkv1_tokens(derived);
        assert_eq!(base_rank0, 0, "base ranks start at 0");
        let base_n = base_tokens.len() as u32;
        let groups = base_tokens.iter().map(|t| t.len()).max().unwrap_or(0) + 1;
        let mut counts = vec![0u32; groups];
        for token in &base_tokens {
            counts[token.len()] += 1;
        }
        let mut first: Vec<u32> = counts
            .iter()
            .scan(0, |at, &count| {
                *at += count;
                Some(*at - count)
            })
            .collect();
        let mut position: HashMap<&[u8], u32> = HashMap::new();
        for &token in &base_tokens {
            let p = first[token.len()];
            first[token.len()] += 1;
            assert!(
                position.insert(token, p).is_none(),
                "base tokens are distinct"
            );
        }

        let n = tokens.len();
        let mut frame = Vec::new();
        frame.extend_from_slice(b"TKR1");
        for word in [n as u32, rank0, base_n, base_body as u32, groups as u32] {
            frame.extend_from_slice(&word.to_le_bytes());
        }
        for count in counts {
            frame.extend_from_slice(&count.to_le_bytes());
        }
        let codes_at = frame.len();
        frame.resize(codes_at + (n * REF_BITS as usize).div_ceil(8) + 3, 0);
        let mut own = Vec::new();
        for (i, token) in tokens.iter().enumerate() {
            let code = match position.get(token) {
                Some(&p) => p,
                None => {
                    assert!(!token.is_empty(), "no empty tokens");
                    own.extend_from_slice(token);
                    base_n + token.len() as u32 - 1
                }
            };
            assert!(code < 1 << REF_BITS, "a code fits in REF_BITS");
            let bit = i * REF_BITS as usize;
            let at = codes_at + bit / 8;
            let word =
                u32::from_le_bytes(frame[at..at + 4].try_into().unwrap()) | code << (bit % 8);
            frame[at..at + 4].copy_from_slice(&word.to_le_bytes());
        }
        frame.extend_from_slice(&own);
        frame
    }
}
