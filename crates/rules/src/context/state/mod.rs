//! A manager's state between builds, encoded: what a snapshot holds, and a session's
//! checkpoint, so that restoring costs the state's size, not the session's age (its
//! journal only since the last checkpoint is applied after it).
//!
//! Messages folded away keep only what a later decision reads of them (their role, group
//! and size); the live ones, and the kept opening message, keep every part. The encoding is
//! versioned ([`VERSION`]) and checked whole on the way in: a field out of range, cut short
//! or of a newer version is refused naming it, and nothing is made of it.

mod decode;

use super::codec::{amount, float, text, uint};
use super::history::{Shown, Stored};
use super::index::Entry;
use super::ledger::Warning;
use super::{Key, Manager};

/// The state's encoding, as written by this version. 2: the pinned messages are a range
/// (the group of the provider's compaction, as well as the opening message), and the
/// compaction they hold (`anchor`) is kept; version 1 is still read.
pub const VERSION: u8 = 2;

fn stored(s: Stored) -> u8 {
    match s {
        Stored::No => 0,
        Stored::Yes => 1,
        Stored::Failed => 2,
    }
}

fn entry(out: &mut Vec<u8>, e: &Entry) {
    text(out, &e.id);
    float(out, e.tokens);
    match e.span {
        None => out.push(0),
        Some((from, to)) => {
            out.push(1);
            uint(out, from as u64);
            uint(out, to as u64);
        }
    }
    out.push(u8::from(e.merged));
}

impl Manager {
    /// The state between builds, encoded. Taken during a build, it would hold the build's
    /// half-made changes: the caller takes it between builds.
    pub fn encode_state(&self) -> Vec<u8> {
        let mut out = vec![VERSION];
        let o = &mut out;
        uint(o, self.first_live as u64);
        float(o, self.summary_tokens);
        uint(o, u64::from(self.summary_version));
        uint(o, u64::from(self.fixed_version));
        float(o, self.tail_tokens);
        uint(o, u64::from(self.tail_version));
        let obs: Vec<_> = self.calibration.observations().collect();
        uint(o, obs.len() as u64);
        for s in obs {
            float(o, s.text);
            float(o, s.media);
            float(o, s.reported);
        }
        float(o, self.calibration.overhead);
        float(o, self.calibration.ratio);
        float(o, self.calibration.media_ratio);
        uint(o, self.sent as u64);
        uint(o, self.last.keys.len() as u64);
        for &(key, tokens) in &self.last.keys {
            match key {
                Key::Fixed(v) => {
                    o.push(0);
                    uint(o, u64::from(v));
                }
                Key::Summary(v) => {
                    o.push(1);
                    uint(o, u64::from(v));
                }
                Key::Message(i, v) => {
                    o.push(2);
                    uint(o, i as u64);
                    uint(o, u64::from(v));
                }
                Key::Unanswered(i, n) => {
                    o.push(3);
                    uint(o, i as u64);
                    uint(o, u64::from(n));
                }
                Key::Tail(v) => {
                    o.push(4);
                    uint(o, u64::from(v));
                }
                Key::LeftOut(i) => {
                    o.push(5);
                    uint(o, i as u64);
                }
            }
            float(o, tokens);
        }
        uint(o, self.growth.len() as u64);
        for &g in &self.growth {
            float(o, g);
        }
        float(o, self.last_raw);
        float(o, self.rendered_raw);
        float(o, self.rendered_media);
        // Messages folded away are not written: nothing of them is read again. The opening
        // message, when a request still sends it, is.
        let h = &self.history;
        let head = self.opening();
        uint(o, h.messages.len() as u64);
        uint(o, head.start as u64);
        uint(o, head.len() as u64);
        uint(o, self.anchor.map_or(0, |c| c as u64 + 1));
        for i in head.clone().chain(self.first_live..h.messages.len()) {
            let m = &h.messages[i];
            o.push(m.role.code());
            uint(o, m.group as u64);
            uint(o, u64::from(m.version));
            float(o, m.framing);
            uint(o, m.parts.len() as u64);
            for p in &m.parts {
                o.push(p.kind_byte());
                uint(o, p.units as u64);
                float(o, p.tokens);
                match p.shown {
                    Shown::Whole => o.push(0),
                    Shown::Cut { head, tail } => {
                        o.push(1);
                        uint(o, head as u64);
                        uint(o, tail as u64);
                    }
                    Shown::Placeholder => o.push(2),
                    Shown::Dropped => o.push(3),
                }
                float(o, p.shown_tokens);
                uint(o, p.call.map_or(0, |c| u64::from(c) + 1));
                o.push(stored(p.stored));
            }
        }
        // So are their calls: the first ones.
        let folded_calls = h.folded_calls(self.first_live);
        uint(o, h.calls.len() as u64);
        uint(o, folded_calls as u64);
        for c in folded_calls..h.calls.len() {
            let c = &h.calls[c];
            uint(o, c.message as u64);
            uint(o, c.part as u64);
            match c.answer {
                None => o.push(0),
                Some((m, p)) => {
                    o.push(1);
                    uint(o, m as u64);
                    uint(o, p as u64);
                }
            }
        }
        // Store ids of the parts still shown: those folded away are in the index.
        let live: Vec<_> = self
            .store_ids
            .iter()
            .filter(|((m, _), _)| *m >= self.first_live || head.contains(m))
            .collect();
        uint(o, live.len() as u64);
        for ((m, p), id) in live {
            uint(o, *m as u64);
            uint(o, *p as u64);
            text(o, id);
        }
        // Every id stored stays the manager's own (recall reads only those): in order, each
        // as the bytes it shares with the one before and the rest, most a few bytes.
        uint(o, self.lines.len() as u64);
        let mut prev: &[u8] = &[];
        for (id, tokens) in &self.lines {
            let id = id.as_bytes();
            let shared = prev.iter().zip(id).take_while(|(a, b)| a == b).count();
            uint(o, shared as u64);
            uint(o, (id.len() - shared) as u64);
            o.extend_from_slice(&id[shared..]);
            amount(o, *tokens);
            prev = id;
        }
        for list in [&self.index.spans, &self.index.outputs] {
            uint(o, list.len() as u64);
            for e in list {
                entry(o, e);
            }
        }
        match &self.index.group {
            None => o.push(0),
            Some((e, n)) => {
                o.push(1);
                entry(o, e);
                uint(o, *n as u64);
            }
        }
        uint(o, self.recalls.len() as u64);
        for r in &self.recalls {
            uint(o, r.call.map_or(0, |c| u64::from(c) + 1));
            text(o, &r.key);
            text(o, &r.id);
        }
        uint(o, self.set_aside.len() as u64);
        for w in &self.set_aside {
            o.push(Warning::ALL.iter().position(|x| x == w).unwrap_or(0) as u8);
        }
        float(o, self.rearm_above);
        // Bit 1: the last build compacted, so the commits until the next build take no
        // growth sample (`commit`). A free bit of the byte: a state without it is byte for
        // byte what it was, and an older reader refuses the byte rather than misread it.
        // Bit 2: the host gave times (`clock.rs`), written after the rest; likewise free.
        let timed = !(self.clock.now.is_nan() && self.clock.last.is_nan());
        o.push(u8::from(self.forced) | u8::from(self.last_compacted) << 1 | u8::from(timed) << 2);
        uint(o, self.requests);
        float(o, self.cost.units);
        float(o, self.cost.tokens);
        match self.migrated {
            None => o.push(0),
            Some((from, why)) => {
                o.push(1);
                uint(o, u64::from(from));
                o.push(why as u8);
            }
        }
        if timed {
            float(o, self.clock.now);
            float(o, self.clock.last);
        }
        out
    }
}
