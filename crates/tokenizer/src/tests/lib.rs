use super::*;

#[test]
fn counts_like_tiktoken_encode_ordinary() {
    let o200k = Encoding::parse("encoding", "o200k_base").unwrap();
    let cl100k = Encoding::parse("encoding", "cl100k_base").unwrap();
    assert_eq!(o200k.count("hello world"), 2);
    assert_eq!(cl100k.count("hello world"), 2);
    assert_eq!(o200k.count(""), 0);
    // Special-token text is ordinary text: 7 tokens in both, as tiktoken counts it.
    assert_eq!(o200k.count("<|endoftext|>"), 7);
    assert_eq!(cl100k.count("<|endoftext|>"), 7);
}

#[test]
fn whitespace_only_pieces_count_in_linear_time() {
    // The upstream crate is quadratic here; 480k characters took minutes.
    let text = "\u{3000}\u{3000}a".repeat(160_000);
    assert!(Encoding::O200kBase.count(&text) > 0);
}

#[test]
fn long_pieces_count_in_memory_independent_of_their_length() {
    // The heap merge held 20-36 bytes per byte of the piece: 30 MB for 1 MB of
    // letters, 400 MB for 16 MB of `a`. What is left is the long-piece tables.
    let mut rng = 0x2545_f491_4f6c_dd1d_u64;
    let letters: String = (0..1 << 20)
        .map(|_| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (b'a' + (rng % 26) as u8) as char
        })
        .collect();
    for text in [letters, "a".repeat(16 << 20)] {
        let (count, peak) = peak_alloc::during(|| Encoding::O200kBase.count(&text));
        assert!(count > 0);
        assert!(
            peak < 16 << 20,
            "{peak} bytes at most for {} bytes",
            text.len()
        );
    }
}

#[test]
fn unknown_encodings_are_a_range_error() {
    let err = Encoding::parse("encoding", "p50k_base").unwrap_err();
    assert_eq!(err.field, "encoding");
    assert_eq!(err.kind, devs_context_errors::ErrorKind::Range);
}
