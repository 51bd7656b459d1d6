//! Decoding a manager's state: everything read and checked before anything is made of it.

use std::collections::VecDeque;

use super::VERSION;
use crate::context::calibration::{Calibration, Sample};
use crate::context::codec::Reader;
use crate::context::gapped::Gapped;
use crate::context::history::{Call, Message, Part, Role, Shown, Stored};
use crate::context::index::{Entry, Index};
use crate::context::journal::{DecodeError, fail};
use crate::context::ledger::{Cost, Warning};
use crate::context::recall::Answered;
use crate::context::{Key, Manager, Need, Sent};

impl Manager {
    /// This manager (new, made with the options the state was taken with) made the one
    /// `bytes` encodes. Everything is read and checked first; on an error nothing changed.
    pub fn decode_state(&mut self, bytes: &[u8]) -> Result<(), DecodeError> {
        let mut d = Decoder {
            r: Reader { bytes, at: 0 },
        };
        let version = d.byte("state.version")?;
        if version > VERSION {
            return Err(fail(
                "state.version",
                &format!(
                    "is {version}, newer than this package's {VERSION}: read it with the version of @devs/context that wrote it, or a newer one"
                ),
            ));
        }
        if version == 0 {
            return Err(fail("state.version", "is 0: not a state"));
        }
        let mut m = Manager::new_like(self);
        m.first_live = d.whole("state.firstLive")?;
        m.summary_tokens = d.size("state.summaryTokens")?;
        m.summary_version = d.small("state.summaryVersion")?;
        m.fixed_version = d.small("state.fixedVersion")?;
        m.tail_tokens = d.size("state.tailTokens")?;
        m.tail_version = d.small("state.tailVersion")?;
        let n = d.count("state.calibration")?;
        let mut obs = Vec::with_capacity(n.min(64));
        for i in 0..n {
            let f = format!("state.calibration[{i}]");
            // Version 1 kept our count and the provider's; 2, our text's and media's apart.
            let text = d.size(&f)?;
            let media = if version >= 2 { d.size(&f)? } else { 0.0 };
            obs.push(Sample {
                text,
                media,
                reported: d.size(&f)?,
            });
        }
        let overhead = d.number("state.calibration.overhead")?;
        // No usage report reads a billion tokens: a fit that far off was not made from any.
        if overhead.abs() > 1e9
            || obs
                .iter()
                .any(|s| s.text > 1e9 || s.media > 1e9 || s.reported > 1e9)
        {
            return Err(fail(
                "state.calibration",
                "is out of range: no usage report fits it",
            ));
        }
        let ratio = d.number("state.calibration.ratio")?;
        let media_ratio = if version >= 2 {
            d.number("state.calibration.mediaRatio")?
        } else {
            1.0
        };
        m.calibration = Calibration::from_parts(obs, overhead, ratio, media_ratio);
        m.sent = d.whole("state.sent")?;
        let n = d.count("state.last")?;
        let mut keys = Vec::with_capacity(n.min(1 << 16));
        for i in 0..n {
            let f = format!("state.last[{i}]");
            let key = match d.byte(&f)? {
                0 => Key::Fixed(d.small(&f)?),
                1 => Key::Summary(d.small(&f)?),
                2 => Key::Message(d.whole(&f)?, d.small(&f)?),
                3 => Key::Unanswered(d.whole(&f)?, d.small(&f)?),
                4 => Key::Tail(d.small(&f)?),
                5 => Key::LeftOut(d.whole(&f)?),
                k => return Err(fail(&f, &format!("is of kind {k}, which no key is"))),
            };
            keys.push((key, d.size(&f)?));
        }
        m.last = Sent { keys };
        let n = d.count("state.growth")?;
        m.growth = (0..n)
            .map(|i| d.size(&format!("state.growth[{i}]")))
            .collect::<Result<VecDeque<_>, _>>()?;
        m.last_raw = d.size("state.lastRaw")?;
        m.rendered_raw = d.size("state.renderedRaw")?;
        if version >= 2 {
            m.rendered_media = d.size("state.renderedMedia")?;
        }
        let n = d.whole("state.history.messages")?;
        if n < m.first_live || u32::try_from(n).is_err() {
            return Err(fail(
                "state.history.messages",
                "is fewer than the messages folded away, or out of range",
            ));
        }
        // Version 1 kept the opening message or none; 2, a range of pinned messages.
        let head = if version == 1 {
            let n = usize::from(d.byte("state.history.opening")?);
            if n > 1 || n > m.first_live {
                return Err(fail(
                    "state.history.opening",
                    "is neither 0 nor 1 message kept",
                ));
            }
            0..n
        } else {
            let start = d.whole("state.history.pinned")?;
            let len = d.whole("state.history.pinned")?;
            if start.saturating_add(len) > m.first_live || (len == 0 && start != 0) {
                return Err(fail(
                    "state.history.pinned",
                    "names messages that are not before the first live one",
                ));
            }
            let anchor = d.whole("state.anchor")?.checked_sub(1);
            if anchor.is_some_and(|c| c > m.first_live || (len > 0 && c != start)) {
                return Err(fail(
                    "state.anchor",
                    "names a message past the first live one, or not the pinned ones",
                ));
            }
            m.anchor = anchor;
            start..start + len
        };
        if n - m.first_live > d.r.bytes.len() - d.r.at {
            return Err(fail(
                "state.history.messages",
                "is cut short: the state was altered or cut short",
            ));
        }
        let mut kept: Vec<Message> = Vec::with_capacity(head.len() + n - m.first_live);
        for i in head.clone().chain(m.first_live..n) {
            let f = |x: &str| format!("state.history.messages[{i}].{x}");
            let role = Role::from_code(d.byte(&f("role"))?)
                .ok_or_else(|| fail(&f("role"), "is not a role"))?;
            let group = d.whole(&f("group"))?;
            // A group begins at or after the first live message (the pinned ones are theirs).
            if group > i
                || (i >= m.first_live && group < m.first_live)
                || (i < m.first_live && group < head.start)
            {
                return Err(fail(
                    &f("group"),
                    "names a message before its group, or folded away",
                ));
            }
            let version = d.small(&f("version"))?;
            let framing = d.size(&f("framing"))?;
            let count = d.count(&f("parts"))?;
            let mut parts = Vec::with_capacity(count.min(1024));
            for k in 0..count {
                let pf = |x: &str| format!("state.history.messages[{i}].parts[{k}].{x}");
                let (kind, protected) = Part::read_kind_byte(d.byte(&pf("kind"))?)
                    .ok_or_else(|| fail(&pf("kind"), "is not a part kind"))?;
                let units = d.whole(&pf("units"))?;
                let tokens = d.size(&pf("tokens"))?;
                let shown = match d.byte(&pf("shown"))? {
                    0 => Shown::Whole,
                    1 => Shown::Cut {
                        head: d.whole(&pf("shown"))?,
                        tail: d.whole(&pf("shown"))?,
                    },
                    2 => Shown::Placeholder,
                    3 => Shown::Dropped,
                    s => {
                        return Err(fail(
                            &pf("shown"),
                            &format!("is {s}, not a way to show a part"),
                        ));
                    }
                };
                let shown_tokens = d.size(&pf("shownTokens"))?;
                let call = match d.whole(&pf("call"))? {
                    0 => None,
                    c => Some(
                        u32::try_from(c - 1).map_err(|_| fail(&pf("call"), "is out of range"))?,
                    ),
                };
                let stored = match d.byte(&pf("stored"))? {
                    0 => Stored::No,
                    1 => Stored::Yes,
                    2 => Stored::Failed,
                    s => return Err(fail(&pf("stored"), &format!("is {s}, not a store state"))),
                };
                parts.push(Part {
                    kind,
                    units,
                    tokens,
                    shown,
                    shown_tokens,
                    call,
                    stored,
                    protected,
                });
            }
            if parts.is_empty() {
                return Err(fail(&f("parts"), "must hold at least one part"));
            }
            kept.push(Message {
                role,
                parts,
                group,
                framing,
                version,
            });
        }
        let tail = kept.split_off(head.len());
        let messages = Gapped::from_parts(head.start, kept, m.first_live, tail, Message::STAND_IN);
        let total = d.whole("state.history.calls")?;
        let folded = d.whole("state.history.foldedCalls")?;
        if folded > total
            || u32::try_from(total).is_err()
            || total - folded > d.r.bytes.len() - d.r.at
        {
            return Err(fail(
                "state.history.calls",
                "is out of range, or cut short: the state was altered or cut short",
            ));
        }
        let mut calls = Vec::with_capacity(total - folded);
        for c in folded..total {
            let f = format!("state.history.calls[{c}]");
            let message = d.whole(&f)?;
            let part = d.whole(&f)?;
            let answer = match d.byte(&f)? {
                0 => None,
                1 => Some((d.whole(&f)?, d.whole(&f)?)),
                _ => return Err(fail(&f, "has an answer that is neither none nor a place")),
            };
            for (mi, pi) in std::iter::once((message, part)).chain(answer) {
                if mi < m.first_live {
                    return Err(fail(&f, "names a message folded away"));
                }
                if messages.get(mi).is_none_or(|msg| pi >= msg.parts.len()) {
                    return Err(fail(&f, "names a part the conversation does not have"));
                }
            }
            calls.push(Call {
                message,
                part,
                answer,
            });
        }
        let calls = Gapped::from_parts(0, Vec::new(), folded, calls, Call::STAND_IN);
        // The pinned messages before the first live one keep their parts' calls, which were
        // let go with the folded messages' calls (`History::forget`): below `folded`.
        for (i, msg) in messages.kept() {
            for (k, p) in msg.parts.iter().enumerate() {
                if let Some(c) = p.call
                    && ((c as usize) >= total || ((c as usize) < folded && i >= m.first_live))
                {
                    return Err(fail(
                        &format!("state.history.messages[{i}].parts[{k}].call"),
                        "names a call the conversation does not have, or one folded away",
                    ));
                }
            }
        }
        m.history.messages = messages;
        m.history.calls = calls;
        if !head.is_empty() && m.pinned() != head {
            return Err(fail(
                "state.history.opening",
                "keeps messages the options and the conversation do not pin: not a user's text, keepFirstMessage off, or not the provider's compaction",
            ));
        }
        let n = d.count("state.storeIds")?;
        for i in 0..n {
            let f = format!("state.storeIds[{i}]");
            let (mi, pi) = (d.whole(&f)?, d.whole(&f)?);
            let id = d.text(&f)?;
            if m.history
                .messages
                .get(mi)
                .is_none_or(|msg| pi >= msg.parts.len())
            {
                return Err(fail(&f, "names a part the conversation does not have"));
            }
            m.store_ids.insert((mi, pi), id);
        }
        let n = d.count("state.lines")?;
        let mut prev: Vec<u8> = Vec::new();
        for i in 0..n {
            let f = format!("state.lines[{i}]");
            let shared = d.whole(&f)?;
            if shared > prev.len() {
                return Err(fail(&f, "shares more than the id before it has"));
            }
            let rest =
                d.r.raw()
                    .map_err(|_| fail(&f, "is cut short: the state was altered or cut short"))?;
            prev.truncate(shared);
            prev.extend_from_slice(rest);
            let id = String::from_utf8(prev.clone()).map_err(|_| fail(&f, "is not UTF-8"))?;
            let tokens = d.r.amount().map_err(|_| fail(&f, "is not a size"))?;
            if !tokens.is_finite() || tokens < 0.0 {
                return Err(fail(&f, "must be a number >= 0"));
            }
            m.lines.insert(id, tokens);
        }
        let mut index = Index::default();
        for (name, list) in [("spans", &mut index.spans), ("outputs", &mut index.outputs)] {
            let n = d.count(&format!("state.index.{name}"))?;
            for i in 0..n {
                list.push(d.entry(&format!("state.index.{name}[{i}]"))?);
            }
        }
        if d.byte("state.index.group")? == 1 {
            let e = d.entry("state.index.group")?;
            index.group = Some((e, d.whole("state.index.group")?));
        }
        m.index = index;
        let n = d.count("state.recalls")?;
        for i in 0..n {
            let f = format!("state.recalls[{i}]");
            let call = match d.whole(&f)? {
                0 => None,
                c => Some(u32::try_from(c - 1).map_err(|_| fail(&f, "is out of range"))?),
            };
            m.recalls.push(Answered {
                call,
                key: d.text(&f)?,
                id: d.text(&f)?,
            });
        }
        let n = d.count("state.warnings")?;
        for i in 0..n {
            let f = format!("state.warnings[{i}]");
            let w = d.byte(&f)?;
            m.set_aside.push(
                *Warning::ALL
                    .get(usize::from(w))
                    .ok_or_else(|| fail(&f, "is not a warning"))?,
            );
        }
        m.rearm_above = d.size("state.rearmAbove")?;
        let flags = d.byte("state.forced")?;
        if flags > 7 {
            return Err(fail("state.forced", "is not a flag"));
        }
        m.forced = flags & 1 != 0;
        m.last_compacted = flags & 2 != 0;
        m.requests =
            d.r.uint()
                .map_err(|_| fail("state.requests", "is cut short"))?;
        m.cost = Cost {
            units: d.size("state.cost")?,
            tokens: d.size("state.cost")?,
        };
        if version >= 2 && d.byte("state.migrated")? == 1 {
            let from = d.small("state.migrated.from")?;
            let why = crate::context::migrate::Why::from_code(d.byte("state.migrated.why")?)
                .ok_or_else(|| fail("state.migrated.why", "is not a reason"))?;
            m.migrated = Some((from, why));
        }
        if flags & 4 != 0 {
            m.clock.now =
                d.r.float()
                    .map_err(|_| fail("state.clock", "is cut short"))?;
            m.clock.last =
                d.r.float()
                    .map_err(|_| fail("state.clock", "is cut short"))?;
        }
        if d.r.at != bytes.len() {
            return Err(fail("state", "goes on past its end: it was altered"));
        }
        if m.requests > 0 {
            m.pending = Some(Need::Done);
        }
        *self = m;
        Ok(())
    }

    /// A new manager with this one's options and fixed texts, nothing else.
    fn new_like(&self) -> Manager {
        let mut m = self.clone();
        let fresh = Manager::new(
            "options",
            self.config,
            self.system_tokens,
            self.pinned_tokens,
        );
        if let Ok(f) = fresh {
            m = f;
        }
        m
    }
}

struct Decoder<'a> {
    r: Reader<'a>,
}

impl Decoder<'_> {
    fn byte(&mut self, f: &str) -> Result<u8, DecodeError> {
        self.r
            .byte()
            .map_err(|_| fail(f, "is cut short: the state was altered or cut short"))
    }

    fn whole(&mut self, f: &str) -> Result<usize, DecodeError> {
        let v = self
            .r
            .uint()
            .map_err(|_| fail(f, "is cut short: the state was altered or cut short"))?;
        usize::try_from(v).map_err(|_| fail(f, "is out of range"))
    }

    fn small(&mut self, f: &str) -> Result<u32, DecodeError> {
        u32::try_from(self.whole(f)?).map_err(|_| fail(f, "is out of range"))
    }

    fn count(&mut self, f: &str) -> Result<usize, DecodeError> {
        self.r
            .count()
            .map_err(|_| fail(f, "is cut short: the state was altered or cut short"))
    }

    fn number(&mut self, f: &str) -> Result<f64, DecodeError> {
        let v = self
            .r
            .float()
            .map_err(|_| fail(f, "is cut short: the state was altered or cut short"))?;
        if v.is_finite() {
            Ok(v)
        } else {
            Err(fail(f, "must be a finite number"))
        }
    }

    /// A count of tokens, or a size: finite and not negative.
    fn size(&mut self, f: &str) -> Result<f64, DecodeError> {
        let v = self.number(f)?;
        if v >= 0.0 {
            Ok(v)
        } else {
            Err(fail(f, "must be a number >= 0"))
        }
    }

    fn text(&mut self, f: &str) -> Result<String, DecodeError> {
        self.r.text().map_err(|e| fail(f, e))
    }

    fn entry(&mut self, f: &str) -> Result<Entry, DecodeError> {
        let id = self.text(f)?;
        let tokens = self.size(f)?;
        let span = match self.byte(f)? {
            0 => None,
            1 => Some((self.whole(f)?, self.whole(f)?)),
            _ => return Err(fail(f, "has a span that is neither none nor a range")),
        };
        let merged = self.byte(f)? == 1;
        Ok(Entry {
            id,
            tokens,
            span,
            merged,
        })
    }
}
