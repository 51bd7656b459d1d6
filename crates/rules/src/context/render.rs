//! The request, as a plan the host follows to write its provider's messages: the fixed
//! texts, the summary, then each live message with the parts shown differently, and the
//! marked results of calls left unanswered. Also where the cache breakpoints go, and how
//! much of the request repeats the previous one.

use super::config::REARM_GROWTH;
use super::history::{Kind, Part, Shown};
use super::ledger::{self, CalibrationFigures, Sections, Span};
use super::{Key, Manager, Sent};
use crate::base::args::show_number;
use crate::base::cut::Utf16Text;
use crate::base::frame::Pieces;
use crate::base::text::{Probe, cut_end};

/// A marked result for an unanswered call, with its framing.
pub const UNANSWERED_TOKENS: f64 = 16.0;
/// The note that opens a conversation whose earliest turns were dropped, with its framing.
pub const LEFT_OUT_TOKENS: f64 = 28.0;
/// Breakpoints a provider takes at most (Anthropic's `cache_control`).
pub const MAX_BREAKPOINTS: usize = 4;

crate::codes! {
    /// How a part is shown, as the plan says it.
    pub enum ShownCode {
        Whole = 0,
        Cut = 1,
        Placeholder = 2,
        Dropped = 3,
    }
}

/// How a part is shown, as the plan says it.
pub fn shown_code(s: Shown) -> u8 {
    match s {
        Shown::Whole => ShownCode::Whole,
        Shown::Cut { .. } => ShownCode::Cut,
        Shown::Placeholder => ShownCode::Placeholder,
        Shown::Dropped => ShownCode::Dropped,
    }
    .code()
}

crate::codes! {
    /// What a step of an encoded plan is ([`Plan::encode`]): one per [`Emit`].
    pub enum Op {
        Fixed = 0,
        Summary = 1,
        Message = 2,
        Tail = 3,
        LeftOut = 4,
    }
}

/// One thing in the request, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Emit {
    Fixed,
    Summary,
    /// The note that the earliest turns were dropped (with no summary in their place).
    LeftOut,
    /// A live message; `changed` lists `(part, shown code)` of the parts not shown whole;
    /// `unanswered` the calls of this message that get a marked result.
    Message {
        index: usize,
        changed: Vec<(usize, u8)>,
        unanswered: Vec<u32>,
    },
    /// The host's text after the conversation.
    Tail,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    pub emits: Vec<Emit>,
    /// Indices into `emits` whose last block carries a breakpoint.
    pub breakpoints: Vec<usize>,
    /// What this request holds, for the next one's comparison.
    pub sent: Sent,
    /// Tokens this request shares with the previous one, by our counter.
    pub prefix: f64,
}

impl Plan {
    /// The plan as numbers, read in one pass (`pkg/src/context/plan.ts`): `[breakpoints,
    /// emit index*, emits, (op …)*]`, where an op is an [`Op`] code, and a message's is
    /// followed by `index, changed, (part, shown code)*, unanswered, call*`. The
    /// breakpoints come first, ascending, so a reader knows each step's mark when it
    /// reaches it.
    /// `pkg/test/fixtures/plan/golden.json` holds one, read by both decoders.
    pub fn encode(&self) -> Vec<f64> {
        let mut out = vec![self.breakpoints.len() as f64];
        out.extend(self.breakpoints.iter().map(|&b| b as f64));
        out.push(self.emits.len() as f64);
        for e in &self.emits {
            let op = match e {
                Emit::Fixed => Op::Fixed,
                Emit::Summary => Op::Summary,
                Emit::Tail => Op::Tail,
                Emit::LeftOut => Op::LeftOut,
                Emit::Message { .. } => Op::Message,
            };
            out.push(f64::from(op.code()));
            if let Emit::Message {
                index,
                changed,
                unanswered,
            } = e
            {
                out.extend([*index as f64, changed.len() as f64]);
                for &(p, c) in changed {
                    out.extend([p as f64, f64::from(c)]);
                }
                out.push(unanswered.len() as f64);
                out.extend(unanswered.iter().map(|&c| f64::from(c)));
            }
        }
        out
    }

    /// The emits and breakpoints of an encoded plan ([`Plan::encode`]), or what is wrong
    /// with it: the reader the shell's must agree with.
    pub fn decode(encoded: &[f64]) -> Result<Plan, String> {
        let mut at = 0;
        let mut next = |what: &str| -> Result<usize, String> {
            let v = *encoded
                .get(at)
                .ok_or_else(|| format!("ends before {what}, at {at}"))?;
            if v.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&v) {
                return Err(format!("{what} at {at} is {v}, not a count or an index"));
            }
            at += 1;
            Ok(v as usize)
        };
        let mut plan = Plan::default();
        for _ in 0..next("the breakpoints")? {
            let b = next("a breakpoint")?;
            if plan.breakpoints.last().is_some_and(|&last| last >= b) {
                return Err(format!("breakpoint {b} is not after the one before it"));
            }
            plan.breakpoints.push(b);
        }
        for _ in 0..next("the emits")? {
            let code = next("an op")?;
            let op = u8::try_from(code)
                .ok()
                .and_then(Op::from_code)
                .ok_or_else(|| format!("op {code} is not a plan's"))?;
            plan.emits.push(match op {
                Op::Fixed => Emit::Fixed,
                Op::Summary => Emit::Summary,
                Op::Tail => Emit::Tail,
                Op::LeftOut => Emit::LeftOut,
                Op::Message => {
                    let index = next("a message")?;
                    let mut changed = Vec::new();
                    for _ in 0..next("the changed parts")? {
                        let part = next("a part")?;
                        let code = next("a shown code")?;
                        let code = u8::try_from(code)
                            .ok()
                            .filter(|&c| ShownCode::from_code(c).is_some())
                            .ok_or_else(|| format!("shown code {code} is not a plan's"))?;
                        changed.push((part, code));
                    }
                    let mut unanswered = Vec::new();
                    for _ in 0..next("the unanswered calls")? {
                        unanswered.push(next("a call")? as u32);
                    }
                    Emit::Message {
                        index,
                        changed,
                        unanswered,
                    }
                }
            });
        }
        if at != encoded.len() {
            return Err(format!("{} numbers after the plan", encoded.len() - at));
        }
        if let Some(&b) = plan.breakpoints.iter().find(|&&b| b >= plan.emits.len()) {
            return Err(format!("breakpoint {b} is past the last emit"));
        }
        Ok(plan)
    }
}

/// The plan of the request as it stands. `has_fixed`: the host has a system prompt or
/// pinned texts to send.
pub fn plan(m: &Manager, has_fixed: bool) -> Plan {
    let mut p = Plan::default();
    let mut keys: Vec<(Key, f64)> = Vec::new();
    // The emit each key belongs to.
    let mut owner: Vec<usize> = Vec::new();
    if has_fixed {
        owner.push(p.emits.len());
        p.emits.push(Emit::Fixed);
        keys.push((
            Key::Fixed(m.fixed_version),
            m.system_tokens + m.pinned_tokens,
        ));
    }
    // Each message, with the marked results of its calls left unanswered after it.
    let message = |p: &mut Plan, keys: &mut Vec<(Key, f64)>, owner: &mut Vec<usize>, i: usize| {
        let msg = &m.history.messages[i];
        let emit = message_emit(m, i);
        keys.push((Key::Message(i, msg.version), msg.tokens()));
        owner.push(p.emits.len());
        if let Emit::Message { unanswered, .. } = &emit
            && !unanswered.is_empty()
        {
            owner.push(p.emits.len());
            keys.push((
                Key::Unanswered(i, unanswered.len() as u32),
                UNANSWERED_TOKENS * unanswered.len() as f64,
            ));
        }
        p.emits.push(emit);
    };
    // Before the summary, where they were first sent, so the cache keeps them: the pinned
    // messages. The group of the provider's compaction comes first even while it is live:
    // nothing may come before it (Anthropic's on-demand compaction is refused otherwise).
    let opening = m.opening();
    let lead = if !opening.is_empty() {
        opening
    } else if m.anchor == Some(m.first_live) {
        m.pinned()
    } else {
        0..0
    };
    for i in lead.clone() {
        message(&mut p, &mut keys, &mut owner, i);
    }
    if m.summary_tokens > 0.0 || !m.index.is_empty() {
        // The summary and the index of what was folded away: they change together.
        owner.push(p.emits.len());
        p.emits.push(Emit::Summary);
        keys.push((
            Key::Summary(m.summary_version),
            m.summary_tokens + m.index.tokens(),
        ));
    }
    if m.left_out() {
        owner.push(p.emits.len());
        p.emits.push(Emit::LeftOut);
        keys.push((Key::LeftOut(m.first_live), LEFT_OUT_TOKENS));
    }
    for i in m.first_live.max(lead.end)..m.history.messages.len() {
        message(&mut p, &mut keys, &mut owner, i);
    }
    if m.tail_tokens > 0.0 {
        owner.push(p.emits.len());
        p.emits.push(Emit::Tail);
        keys.push((Key::Tail(m.tail_version), m.tail_tokens));
    }
    // The prefix shared with the previous request.
    let mut prefix = 0.0;
    for (a, b) in keys.iter().zip(m.last.keys.iter()) {
        if a.0 != b.0 {
            break;
        }
        prefix += a.1;
    }
    p.prefix = prefix;
    p.breakpoints = breakpoints(&p.emits, &keys, &owner, &m.last);
    p.sent = Sent { keys };
    p
}

impl Manager {
    /// The request to send, as a plan ([`render::Plan`]), and its ledger record.
    /// `has_fixed`: the host sends a system prompt or pinned texts.
    pub fn render(&mut self, has_fixed: bool) -> Plan {
        let plan = plan(self, has_fixed);
        let tokens = self.tokens();
        let raw = self.raw_tokens();
        self.rendered_raw = raw;
        self.rendered_media = self.media_tokens();
        let read = if plan.prefix > 0.0 {
            self.calibration.predict(plan.prefix).min(tokens)
        } else {
            0.0
        };
        let write = tokens - read;
        let cost = ledger::Cost::of(read, write);
        let so_far = ledger::Cost {
            units: self.cost.units + cost,
            tokens: self.cost.tokens + tokens,
        };
        let sections = self.sections();
        let r = &mut self.record;
        r.request = self.requests + 1;
        r.budget = self.config.budget;
        r.tokens = tokens;
        r.raw_tokens = raw;
        r.cache = ledger::CacheFigures {
            read,
            write,
            observed_read: None,
            observed_write: None,
            cost,
            session_relative_cost: so_far.relative(),
        };
        r.cut = r.cut_parts.len();
        r.calibration = CalibrationFigures {
            overhead: self.calibration.overhead,
            ratio: self.calibration.ratio,
            media_ratio: self.calibration.media_ratio,
            samples: self.calibration.samples(),
        };
        r.sections = sections;
        if let Some(c) = r.compaction.as_mut() {
            self.rearm_above = if tokens > c.high_water {
                tokens + self.config.budget * REARM_GROWTH
            } else {
                0.0
            };
            c.after = tokens;
            c.below_trigger = c.high_water - tokens;
            c.kept = Some(Span {
                from: self.first_live,
                to: self.history.messages.len(),
            });
            c.masked = r
                .masked
                .iter()
                .filter_map(|k| self.store_ids.get(k).cloned())
                .collect();
        }
        self.sent = self.history.messages.len();
        self.pending_plan = Some(plan.clone());
        plan
    }

    /// Tokens per section of the request as planned, adding up to [`Manager::raw_tokens`].
    pub fn sections(&self) -> Sections {
        let (mut history, mut appended, mut framing) = (0.0, 0.0, 0.0);
        let sent_before = self.journal.as_ref().map_or(self.sent, |j| j.sent);
        for i in self.opening().chain(self.live()) {
            let m = &self.history.messages[i];
            let parts: f64 = m.parts.iter().map(Part::visible_tokens).sum();
            framing += m.framing;
            if i >= sent_before {
                appended += parts
            } else {
                history += parts
            }
        }
        framing += self.unanswered_tokens() + self.left_out_tokens();
        Sections {
            system: self.system_tokens,
            // The host's text after the conversation is pinned too: never cut.
            pinned: self.pinned_tokens + self.tail_tokens,
            summary: self.summary_tokens + self.index.tokens(),
            history,
            appended,
            framing,
        }
    }
}

impl Manager {
    /// The calls of message `i` that get a marked result: those with none. A pinned message
    /// before the first live one keeps its calls' parts, but not the calls, let go with the
    /// folded ones: its call has a result if a pinned message holds it (a call and its
    /// result are of one group, and the group is pinned whole).
    pub(crate) fn unanswered_in(&self, i: usize) -> Vec<u32> {
        let h = &self.history;
        let let_go = h.calls.gap_to();
        let pinned = self.opening();
        let answered_pinned = |c: u32| {
            pinned.clone().any(|j| {
                h.messages[j]
                    .parts
                    .iter()
                    .any(|p| p.kind == Kind::Result && p.call == Some(c))
            })
        };
        h.messages[i]
            .parts
            .iter()
            .filter(|part| part.kind == Kind::Call)
            .filter_map(|part| part.call)
            .filter(|&c| {
                if (c as usize) < let_go {
                    pinned.contains(&i) && !answered_pinned(c)
                } else {
                    h.calls[c as usize].answer.is_none()
                }
            })
            .collect()
    }
}

/// Message `i` as the plan sends it: the parts shown otherwise than whole, and its calls
/// that get a marked result.
fn message_emit(m: &Manager, i: usize) -> Emit {
    let msg = &m.history.messages[i];
    let changed: Vec<(usize, u8)> = msg
        .parts
        .iter()
        .enumerate()
        .filter(|(_, part)| part.shown != Shown::Whole)
        .map(|(k, part)| (k, shown_code(part.shown)))
        .collect();
    let unanswered = m.unanswered_in(i);
    Emit::Message {
        index: i,
        changed,
        unanswered,
    }
}

/// At most [`MAX_BREAKPOINTS`]: after the fixed texts (or the summary) so they are cached
/// on their own; at the end of what the previous request held, so its cache entry is found
/// however much was appended since; and at the end of this request, for the next one.
fn breakpoints(emits: &[Emit], keys: &[(Key, f64)], owner: &[usize], last: &Sent) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    let mut add = |i: usize| {
        if !out.contains(&i) && out.len() < MAX_BREAKPOINTS {
            out.push(i);
        }
    };
    if let Some(s) = emits
        .iter()
        .rposition(|e| matches!(e, Emit::Fixed | Emit::Summary | Emit::LeftOut))
    {
        add(s);
    }
    let shared = keys
        .iter()
        .zip(last.keys.iter())
        .take_while(|(a, b)| a.0 == b.0)
        .count();
    if shared > 0 && shared == last.keys.len() && shared < keys.len() {
        add(owner[shared - 1]);
    }
    if !emits.is_empty() {
        add(emits.len() - 1);
    }
    out.sort_unstable();
    out
}

/// Units a cut looks back (for its head) or on (for its tail) for a line break to end on.
pub const LINE_WINDOW: usize = 240;

/// Where a head-and-tail cut ends its head and starts its tail: on a line break where one
/// is near (in the last fifth of the head, the first fifth of the tail, at most
/// [`LINE_WINDOW`] units away), never inside a surrogate pair. `head_probe` holds units
/// `head - LINE_WINDOW ..= head`, `tail_probe` units `start - 1 ..= start + LINE_WINDOW`
/// where `start = units - tail` (see `text::Probe`).
pub fn cut_bounds(
    head: usize,
    head_probe: &Probe,
    tail: usize,
    tail_probe: &Probe,
    units: usize,
) -> (usize, usize) {
    let newline = u16::from(b'\n');
    let mut head = cut_end(head_probe, head, false).unwrap_or(head).min(units);
    let reach = LINE_WINDOW.min(head / 5);
    if let Some(nl) = (head.saturating_sub(reach)..head)
        .rev()
        .find(|&i| head_probe.unit_at(i) == newline)
    {
        head = nl + 1;
    }
    let mut start = units.saturating_sub(tail).max(head);
    let low = |u: u16| (0xDC00..0xE000).contains(&u);
    let reach = LINE_WINDOW.min(tail / 5);
    if start > 0
        && start < units
        && tail_probe.unit_at(start - 1) != newline
        && let Some(nl) =
            (start..(start + reach).min(units)).find(|&i| tail_probe.unit_at(i) == newline)
    {
        start = nl + 1;
    }
    if start > 0 && start < units && low(tail_probe.unit_at(start)) {
        start += 1;
    }
    (head, units - start.min(units))
}

/// Host texts of [`cut_text`]: the text, and the store id of the whole text ("" for none).
pub const CUT_TEXT: usize = 0;
pub const CUT_STORE_ID: usize = 1;

/// A part cut to its head and tail, with a marker naming what was left out and where the
/// whole text is. `head` and `tail` are already moved off surrogate pairs ([`cut_bounds`]).
pub fn cut_text(p: &mut Pieces<'_>, units: usize, head: usize, tail: usize, stored: bool) {
    p.host_range(CUT_TEXT, 0, Some(head)).lit(&format!(
        "\n[… {} characters cut",
        show_number((units - head - tail) as f64)
    ));
    if stored {
        p.lit("; the whole output is stored as ").host(CUT_STORE_ID);
    }
    p.lit(" …]\n").host_range(CUT_TEXT, units - tail, None);
}
