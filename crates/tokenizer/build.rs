//! Build-time tables for the tokenizers: decompress the vocabularies in data/ so they are embedded raw and indexed in place,
//! and compile each encoding's pre-tokenizer pattern to an anchored, minimized sparse DFA.
//! This is the work the `tiktoken` crate does on first use, moved out of start-up.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    tables::build();
}

mod tables {
    use regex_automata::MatchKind;
    use regex_automata::dfa::{StartKind, dense};
    use regex_automata::nfa::thompson;
    use regex_automata::util::syntax;
    use std::io::Read;
    use std::path::PathBuf;
    use std::{env, fs};

    // Copied verbatim from tiktoken 4.1.2 src/encoding.rs. The `\s+(?!\S)` lookahead is
    // emulated in src/pretokenize.rs (adjust_whitespace_end).
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

    pub fn build() {
        let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
        for (name, pattern) in [("o200k_base", O200K), ("cl100k_base", CL100K)] {
            let zst = format!("data/{name}.tkv.zst");
            println!("cargo:rerun-if-changed={zst}");
            let file = fs::File::open(&zst).unwrap_or_else(|e| panic!("{zst}: {e}"));
            let mut decoder = ruzstd::decoding::StreamingDecoder::new(file).expect("a zstd stream");
            let mut raw = Vec::new();
            decoder
                .read_to_end(&mut raw)
                .expect("the vocabulary decompresses");
            fs::write(out.join(format!("{name}.tkv")), raw).expect("OUT_DIR is writable");

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
}
