//! The head of a TKV1 vocabulary frame (layout: tiktoken 4.1.2 `encoding.rs`): "TKV1",
//! token count, first rank, each token's length as a LEB128 varint, then the token bytes
//! grouped by length, ascending, in rank order within a length. The build script (which
//! includes this file) and the vocabulary at run time read it with this one reader.

use std::ops::Range;

/// A TKV1 frame's first rank, each token's length in rank order, and the offset in the
/// blob where the tokens of each length start.
pub(crate) struct Tkv1 {
    pub(crate) rank0: u32,
    pub(crate) lengths: Vec<u16>,
    pub(crate) starts: Vec<usize>,
}

/// Parses the head of the TKV1 frame at `frame` in `blob`.
pub(crate) fn tkv1(blob: &[u8], frame: Range<usize>) -> Tkv1 {
    let data = &blob[frame.clone()];
    assert_eq!(&data[..4], b"TKV1", "bad vocabulary frame magic");
    let n_tokens = u32::from_le_bytes(data[4..8].try_into().unwrap()) as usize;
    let rank0 = u32::from_le_bytes(data[8..12].try_into().unwrap());
    let mut pos = 12;
    let mut lengths: Vec<u16> = Vec::with_capacity(n_tokens);
    let mut max_len = 0usize;
    for _ in 0..n_tokens {
        let mut len = 0usize;
        let mut shift = 0;
        loop {
            let byte = data[pos];
            pos += 1;
            len |= ((byte & 0x7F) as usize) << shift;
            if byte & 0x80 == 0 {
                break;
            }
            shift += 7;
        }
        max_len = max_len.max(len);
        lengths.push(len as u16);
    }
    let mut starts = vec![0usize; max_len + 1];
    for &len in &lengths {
        starts[len as usize] += 1;
    }
    let mut at = frame.start + pos;
    for (len, start) in starts.iter_mut().enumerate() {
        let count = *start;
        *start = at;
        at += len * count;
    }
    assert_eq!(at, frame.end, "vocabulary frame body length mismatch");
    Tkv1 {
        rank0,
        lengths,
        starts,
    }
}
