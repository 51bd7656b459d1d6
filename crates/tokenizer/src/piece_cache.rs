//! Thread-local memoisation of whole pre-token pieces → token ids.
//!
//! Real text repeats its pieces: chat templates, quoted context, function
//! words, and — especially — CJK prose, where the same particles and stems
//! recur every sentence. Memoising the merge turns every repeat into one hash
//! and one byte-compare instead of a full BPE merge.
//!
//! The cache is direct-mapped with fixed-size byte keys, so a hit costs tens
//! of nanoseconds, and thread-local, so no locking taxes the miss path.
//!
//! Correctness containment:
//! - the key is the exact piece bytes plus a per-[`Bpe`](super::Bpe)
//!   nonce, so two encodings never share entries — including a new instance
//!   allocated at a dropped instance's address;
//! - a slot is filled only by a completed merge, and eviction is overwrite;
//! - pieces longer than [`KEY_MAX`] bytes or merging into more than
//!   [`TOKENS_MAX`] tokens bypass storage entirely.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

/// Longest piece the cache will key. Sized for CJK prose clauses — Japanese
/// in particular runs kana+kanji clauses of 20-30 chars between punctuation
/// (60-90 bytes); longer pieces are rare enough to just merge.
pub(crate) const KEY_MAX: usize = 96;
/// Most tokens a stored piece may merge into.
const TOKENS_MAX: usize = 48;
/// Direct-mapped slot count. Power of two. 4,096 slots × ~300 B ≈ 1.2 MB per
/// thread that tokenizes — sized so that working sets of a few hundred
/// distinct pieces keep conflict evictions negligible.
const SLOTS: usize = 4096;

/// Per-instance nonce source. Address reuse after a drop must not let a new
/// instance read a dead instance's entries, so identity is a counter, never a
/// pointer. Starts at 1; 0 marks an empty slot.
static NEXT_CACHE_ID: AtomicU64 = AtomicU64::new(1);

pub(crate) fn new_cache_id() -> u64 {
    NEXT_CACHE_ID.fetch_add(1, Ordering::Relaxed)
}

#[derive(Clone, Copy)]
struct Slot {
    owner: u64, // cache id, 0 = empty
    len: u8,
    n_tokens: u8,
    key: [u8; KEY_MAX],
}

const EMPTY: Slot = Slot {
    owner: 0,
    len: 0,
    n_tokens: 0,
    key: [0; KEY_MAX],
};

thread_local! {
    static CACHE: RefCell<Box<[Slot; SLOTS]>> = RefCell::new(Box::new([EMPTY; SLOTS]));
}

#[inline]
fn slot_index(owner: u64, piece: &[u8]) -> usize {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    owner.hash(&mut h);
    piece.hash(&mut h);
    let x = h.finish();
    ((x ^ (x >> 32)) as usize) & (SLOTS - 1)
}

/// Count-only memo: stores the token count of a piece, not its ids.
#[inline]
pub(crate) fn count_piece(owner: u64, piece: &[u8], compute: impl FnOnce() -> usize) -> usize {
    debug_assert!(piece.len() <= KEY_MAX);
    CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        let slot = &mut cache[slot_index(owner, piece)];
        if slot.owner == owner
            && slot.len as usize == piece.len()
            && &slot.key[..piece.len()] == piece
        {
            return slot.n_tokens as usize;
        }
        let n = compute();
        if n <= TOKENS_MAX {
            slot.owner = owner;
            slot.len = piece.len() as u8;
            slot.n_tokens = n as u8;
            slot.key[..piece.len()].copy_from_slice(piece);
        }
        n
    })
}
