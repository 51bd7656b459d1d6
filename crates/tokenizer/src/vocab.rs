//! Vocabulary storage tuned for the BPE merge's access pattern.
//!
//! The merge loop is lookup-bound: on Unicode-dense input it performs ~2.4
//! vocabulary probes per emitted token, 77% of them misses, and 96.7% of the
//! keys are 8 bytes or shorter (59% are exactly 2 — the initial adjacent-pair
//! scan). The layout serves those classes directly:
//!
//! - **2-byte keys** — a direct-indexed table of 65,536 ranks. No hash, no
//!   probe, no byte comparison; one access into 256 KB.
//! - **1-byte keys** — a direct-indexed table of 256 ranks.
//! - **3–8-byte keys** — open addressing with the key bytes inlined into the
//!   16-byte slot. A probe is one memory access and one `u64` compare; a miss
//!   terminates at the first empty slot without ever touching the arena.
//! - **longer keys** — open addressing with an arena reference plus an 8-bit
//!   hash tag in the slot, so a mismatched slot is rejected without loading
//!   the arena bytes.
//!
//! Decoding is unchanged: direct indexing by rank into a contiguous arena.

use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// Longest key stored inline in a slot. Above this, the slot holds an arena
/// offset and a hash tag instead of the bytes themselves.
const INLINE_MAX: usize = 8;

/// Rank sentinel for "absent" in the direct-indexed tables.
const ABSENT: u32 = u32::MAX;

pub struct Vocab {
    // all token bytes: the TKV body itself (static, zero-copy); spill slots
    // reference it by offset
    arena: &'static [u8],
    // rank by first byte, for 1-byte keys; ABSENT if missing
    single: Box<[u32]>,
    // rank by (first byte << 8 | second byte), for 2-byte keys
    pair: Box<[u32]>,
    // open addressing, linear probing, for keys of 3+ bytes
    table: Box<[Slot]>,
    mask: usize,
}

/// One 16-byte slot.
///
/// `len == 0` marks an empty slot. For `3..=INLINE_MAX`, `key` holds the token
/// bytes little-endian, zero-padded — equality is a single integer compare.
/// For longer keys, `key`'s low 32 bits hold the arena offset and bits 32..40
/// an 8-bit tag from the unused high hash bits; the tag rejects most
/// mismatched slots without an arena load.
#[derive(Clone, Copy)]
#[repr(C)]
struct Slot {
    key: u64,
    rank: u32,
    len: u32,
}

const EMPTY: Slot = Slot {
    key: 0,
    rank: 0,
    len: 0,
};

/// Load 3..=8 bytes as a zero-padded little-endian u64 with two overlapping
/// word reads instead of a variable-length copy.
#[inline]
fn load_inline_key(bytes: &[u8]) -> u64 {
    let len = bytes.len();
    debug_assert!((3..=INLINE_MAX).contains(&len));
    if len >= 4 {
        let lo = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as u64;
        let hi = u32::from_le_bytes(bytes[len - 4..].try_into().unwrap()) as u64;
        // the reads overlap on 8 - len bytes; identical bits, so OR is exact
        lo | (hi << ((len - 4) * 8))
    } else {
        (bytes[0] as u64) | ((bytes[1] as u64) << 8) | ((bytes[2] as u64) << 16)
    }
}

/// Hash for inline keys: multiply–xorshift over the padded key with the
/// length folded in (tokens may contain NUL bytes, so "ab" and "ab\0" share a
/// padded key and must not share a bucket chain shape).
#[inline]
fn hash_inline(key: u64, len: usize) -> u64 {
    let x = key.wrapping_add((len as u64).wrapping_mul(0xA24B_AED4_963E_E407));
    let h = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ (h >> 32)
}

/// Hash for spill (> 8-byte) keys.
#[inline]
fn hash_spill(bytes: &[u8]) -> u64 {
    let mut hasher = FxHasher::default();
    bytes.hash(&mut hasher);
    let h = hasher.finish();
    h ^ (h >> 32)
}

#[inline]
fn spill_tag(hash: u64) -> u64 {
    (hash >> 56) & 0xFF
}

impl Vocab {
    /// Build the lookup tables straight from an uncompressed, static TKV1
    /// frame (layout: see tiktoken 4.1.2 `encoding.rs`): no per-token
    /// allocation, no intermediate hash map, no arena copy, no decoder.
    pub(crate) fn from_tkv(data: &'static [u8]) -> Self {
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
        let mut cursors = vec![0usize; max_len + 1];
        for &len in &lengths {
            cursors[len as usize] += 1;
        }
        let mut at = pos;
        for (len, cursor) in cursors.iter_mut().enumerate() {
            let count = *cursor;
            *cursor = at;
            at += len * count;
        }
        assert_eq!(at, data.len(), "vocabulary frame body length mismatch");

        let arena = data;
        let mut single = vec![ABSENT; 256];
        let mut pair = vec![ABSENT; 1 << 16];
        let table_size = (n_tokens * 2).next_power_of_two();
        let mask = table_size - 1;
        let mut table = vec![EMPTY; table_size];
        for (i, &len) in lengths.iter().enumerate() {
            let len = len as usize;
            let offset = cursors[len];
            cursors[len] = offset + len;
            let rank = rank0 + i as u32;
            let token = &arena[offset..offset + len];
            match len {
                0 => {}
                1 => single[token[0] as usize] = rank,
                2 => pair[(token[0] as usize) << 8 | token[1] as usize] = rank,
                l if l <= INLINE_MAX => {
                    let key = load_inline_key(token);
                    let mut idx = hash_inline(key, l) as usize & mask;
                    while table[idx].len != 0 {
                        idx = (idx + 1) & mask;
                    }
                    table[idx] = Slot {
                        key,
                        rank,
                        len: l as u32,
                    };
                }
                l => {
                    let hash = hash_spill(token);
                    let mut idx = hash as usize & mask;
                    while table[idx].len != 0 {
                        idx = (idx + 1) & mask;
                    }
                    table[idx] = Slot {
                        key: (offset as u64) | (spill_tag(hash) << 32),
                        rank,
                        len: l as u32,
                    };
                }
            }
        }
        Self {
            arena,
            single: single.into_boxed_slice(),
            pair: pair.into_boxed_slice(),
            table: table.into_boxed_slice(),
            mask,
        }
    }

    /// Look up the rank for a token byte sequence.
    #[inline]
    pub(crate) fn get(&self, token: &[u8]) -> Option<u32> {
        // empty vocab ⇔ empty table (a non-empty build always allocates it)
        if self.table.is_empty() {
            return None;
        }
        match token.len() {
            0 => None,
            1 => {
                let rank = self.single[token[0] as usize];
                (rank != ABSENT).then_some(rank)
            }
            2 => {
                let rank = self.pair[(token[0] as usize) << 8 | token[1] as usize];
                (rank != ABSENT).then_some(rank)
            }
            len if len <= INLINE_MAX => {
                let key = load_inline_key(token);
                let mut idx = hash_inline(key, len) as usize & self.mask;
                loop {
                    let slot = self.table[idx];
                    if slot.len == 0 {
                        return None;
                    }
                    if slot.len == len as u32 && slot.key == key {
                        return Some(slot.rank);
                    }
                    idx = (idx + 1) & self.mask;
                }
            }
            len => {
                let hash = hash_spill(token);
                let tag = spill_tag(hash);
                let mut idx = hash as usize & self.mask;
                loop {
                    let slot = self.table[idx];
                    if slot.len == 0 {
                        return None;
                    }
                    if slot.len == len as u32 && (slot.key >> 32) & 0xFF == tag {
                        let offset = (slot.key & 0xFFFF_FFFF) as usize;
                        if &self.arena[offset..offset + len] == token {
                            return Some(slot.rank);
                        }
                    }
                    idx = (idx + 1) & self.mask;
                }
            }
        }
    }

    /// Look up the rank of a 2-byte key without slicing: the merge loop's
    /// initial adjacent-pair scan, which is the single hottest lookup class.
    #[inline]
    pub(crate) fn get_pair(&self, a: u8, b: u8) -> Option<u32> {
        if self.pair.is_empty() {
            return None;
        }
        let rank = self.pair[(a as usize) << 8 | b as usize];
        (rank != ABSENT).then_some(rank)
    }

    /// Check if a token byte sequence exists in the vocabulary.
    #[inline]
    pub(crate) fn contains_key(&self, token: &[u8]) -> bool {
        self.get(token).is_some()
    }
}
