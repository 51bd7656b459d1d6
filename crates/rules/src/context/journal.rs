//! The journal: what changes a manager, as a versioned encoding of its own. Each change
//! (an append, an answer to what a build needed, the tail, a usage observed, …) is an
//! [`Event`]; [`Manager::apply`](super::Manager::apply) is the one entry point that takes them, live or replayed.
//! The manager is deterministic, so the same events in the same order make the same
//! manager: a snapshot or a session stores its events, and restoring applies them again,
//! with no host asked anything (a store's ids and a summary's size are in the events).
//!
//! The encoding names no method of any binding: a tag byte per event, then its fields
//! (LEB128 whole numbers, f64 little-endian, strings as a length and UTF-8). A journal
//! starts with its version, [`VERSION`]; a later version reads every earlier one. Decoding
//! checks everything before anything is applied: an unknown event, a field cut short, a
//! newer version is refused naming where; an event out of place (an answer to a need the
//! manager does not have) is refused by `apply`.

use super::codec::{Reader, float, floats, optional_text, text, uint};
use super::history::{NewMessage, Part, Refused, Role};
use super::recall::Ask;
use devs_context_errors::FieldError;

/// The journal's encoding, as written by this version.
/// 3: the host's time of a request ([`Event::Time`]); version 2 is still read.
pub const VERSION: u8 = 3;

/// One change of a manager.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Messages appended, all or none.
    Append(Vec<NewMessage>),
    /// A build starts; its events until [`Event::Commit`] are taken back if it fails.
    Begin,
    Commit,
    /// The build plans the request.
    Plan,
    /// A part was stored as `id` (none: the store failed), its index line `line` tokens.
    Stored {
        id: Option<String>,
        line: f64,
    },
    /// A span's transcript was stored.
    SpanStored {
        id: Option<String>,
        line: f64,
    },
    /// The index's oldest entries were listed in a stored text.
    Listed {
        id: Option<String>,
        line: f64,
    },
    /// The index's oldest transcripts were merged into a stored text.
    Merged {
        id: Option<String>,
        line: f64,
    },
    /// A placeholder or a cut the build asked for is `tokens` long.
    Measured(f64),
    /// The summary came, `tokens` long as sent.
    Summarized(f64),
    SummaryFailed,
    /// The host has no summarizer.
    NoSummarizer,
    /// The build was rendered (`has_fixed`: the host sends a system prompt or pinned texts).
    Render {
        has_fixed: bool,
    },
    /// The host's text after the conversation is `tokens` long.
    Tail(f64),
    /// The next build compacts, whatever the request's size.
    Compact,
    /// The provider counted the request last rendered as `tokens`.
    Observed(f64),
    CalibrationReset,
    /// A recall by call `call` was answered with the text of `id`.
    Recalled {
        call: Option<u32>,
        id: String,
        ask: Ask,
    },
    /// The host's message list was taken in anew.
    HistoryRebuilt,
    /// Old data was rebuilt (`migrate`): the opening message pinned when it was, the summary
    /// it had, the texts it stored; `from` its decisions, `why` the reason.
    Migrated {
        opening: bool,
        summary: f64,
        ids: Vec<(String, f64)>,
        from: u32,
        why: u8,
    },
    /// The host's `beforeCompaction` deferred this build's compaction while the request
    /// still fits the budget.
    Defer,
    /// Said on the way to an answer, never kept ([`Event::kept`]): the texts only the shell
    /// holds that say what a text stored or shown as a placeholder is (`text`, the `args` of
    /// the call a result answers, an image's `[width, height]` or a document's `[pages]`);
    /// the rules reply `Need::Measure` with the body to count.
    Described {
        text: String,
        args: String,
        media: Vec<f64>,
    },
    /// Said on the way to a summary, never kept: the tokens of the protected texts it would
    /// carry, newest first; the rules reply `Need::Fit` with how many it carries.
    Carried {
        tokens: Vec<f64>,
    },
    /// The host's time of the next request, in ms since the epoch ([`super::clock`]).
    Time(f64),
}

pub use super::answer::{ANSWERS, AnswerRow, decode_answer};

/// Why an event could not be applied.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// An append that does not fit the conversation.
    Refused(Refused),
    /// A value out of range.
    Field(FieldError),
    /// An answer to a need the manager does not have, or a build's event outside a build.
    OutOfPlace(&'static str),
    /// A replayed build of old data came to another request than the one its version
    /// recorded (`migrate::Recorded`): `what` it came to, `recorded` and `replayed`.
    Recorded {
        why: super::migrate::Why,
        request: u64,
        what: &'static str,
        recorded: f64,
        replayed: f64,
    },
    /// After data of earlier rules: its next request, `tokens` long by today's count, takes
    /// something out or is past the high water `mark` (`Manager::next_as_recorded`).
    Due { tokens: f64, mark: f64 },
}

impl Event {
    /// The event's name, for errors.
    pub fn name(&self) -> &'static str {
        match self {
            Event::Append(_) => "append",
            Event::Begin => "begin",
            Event::Commit => "commit",
            Event::Plan => "plan",
            Event::Stored { .. } => "stored",
            Event::SpanStored { .. } => "span-stored",
            Event::Listed { .. } => "listed",
            Event::Merged { .. } => "merged",
            Event::Measured(_) => "measured",
            Event::Summarized(_) => "summarized",
            Event::SummaryFailed => "summary-failed",
            Event::NoSummarizer => "no-summarizer",
            Event::Render { .. } => "render",
            Event::Tail(_) => "tail",
            Event::Compact => "compact",
            Event::Observed(_) => "observed",
            Event::CalibrationReset => "calibration-reset",
            Event::Recalled { .. } => "recalled",
            Event::HistoryRebuilt => "history-rebuilt",
            Event::Migrated { .. } => "migrated",
            Event::Defer => "defer",
            Event::Described { .. } => "described",
            Event::Carried { .. } => "carried",
            Event::Time(_) => "time",
        }
    }

    /// Whether the journal keeps the event: not what the shell says on the way to an
    /// answer, which the answer sums up.
    pub fn kept(&self) -> bool {
        !matches!(self, Event::Described { .. } | Event::Carried { .. })
    }

    fn tag(&self) -> u8 {
        match self {
            Event::Append(_) => 1,
            Event::Begin => 2,
            Event::Commit => 3,
            Event::Plan => 4,
            Event::Stored { .. } => 5,
            Event::SpanStored { .. } => 6,
            Event::Listed { .. } => 7,
            Event::Merged { .. } => 8,
            Event::Measured(_) => 9,
            Event::Summarized(_) => 10,
            Event::SummaryFailed => 11,
            Event::NoSummarizer => 12,
            Event::Render { .. } => 13,
            Event::Tail(_) => 14,
            Event::Compact => 15,
            Event::Observed(_) => 16,
            Event::CalibrationReset => 17,
            Event::Recalled { .. } => 18,
            Event::HistoryRebuilt => 19,
            Event::Migrated { .. } => 20,
            Event::Defer => 21,
            Event::Described { .. } => 22,
            Event::Carried { .. } => 23,
            Event::Time(_) => 24,
        }
    }

    /// Appends the event's encoding to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.push(self.tag());
        match self {
            Event::Append(batch) => {
                uint(out, batch.len() as u64);
                for m in batch {
                    out.push(m.role.code());
                    float(out, m.framing);
                    uint(out, m.parts.len() as u64);
                    for p in &m.parts {
                        out.push(p.kind_byte());
                        uint(out, p.units as u64);
                        float(out, p.tokens);
                        // The call a result answers: 0 for none, else index + 1.
                        uint(out, p.call.map_or(0, |c| u64::from(c) + 1));
                    }
                }
            }
            Event::Stored { id, line }
            | Event::SpanStored { id, line }
            | Event::Listed { id, line }
            | Event::Merged { id, line } => {
                optional_text(out, id.as_deref());
                float(out, *line);
            }
            Event::Measured(v)
            | Event::Summarized(v)
            | Event::Tail(v)
            | Event::Observed(v)
            | Event::Time(v) => float(out, *v),
            Event::Render { has_fixed } => out.push(u8::from(*has_fixed)),
            Event::Recalled { call, id, ask } => {
                uint(out, call.map_or(0, |c| u64::from(c) + 1));
                text(out, id);
                uint(out, ask.offset as u64);
                uint(out, ask.length.map_or(0, |l| l as u64 + 1));
                optional_text(out, ask.query.as_deref());
            }
            Event::Migrated {
                opening,
                summary,
                ids,
                from,
                why,
            } => {
                out.push(u8::from(*opening));
                float(out, *summary);
                uint(out, ids.len() as u64);
                for (id, tokens) in ids {
                    text(out, id);
                    float(out, *tokens);
                }
                uint(out, u64::from(*from));
                out.push(*why);
            }
            Event::Described {
                text: t,
                args,
                media,
            } => {
                text(out, t);
                text(out, args);
                floats(out, media);
            }
            Event::Carried { tokens } => floats(out, tokens),
            Event::Begin
            | Event::Commit
            | Event::Plan
            | Event::SummaryFailed
            | Event::NoSummarizer
            | Event::Compact
            | Event::CalibrationReset
            | Event::HistoryRebuilt
            | Event::Defer => {}
        }
    }

    /// The tag of each event, as `migrate::misshapen` reads them. Here, beside the
    /// encoding, so the migration reads tags without importing the journal that imports it.
    pub fn tags(events: &[Event]) -> Vec<u8> {
        events
            .iter()
            .map(|e| {
                let mut out = Vec::new();
                e.encode(&mut out);
                out[0]
            })
            .collect()
    }
}

/// A journal's bytes: the version, how many events, then the events (the count tells a
/// journal cut short at an event's end).
pub fn encode(events: &[Event]) -> Vec<u8> {
    let mut body = Vec::new();
    for e in events {
        e.encode(&mut body);
    }
    frame(events.len(), &body)
}

/// A journal of `count` events whose encodings, in order, are `body`: the head (the
/// version and the count) is written here, so every journal's bytes are the rules'.
pub fn frame(count: usize, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 11);
    out.push(VERSION);
    uint(&mut out, count as u64);
    out.extend_from_slice(body);
    out
}

/// Why a journal could not be read: where, and what.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodeError {
    /// `journal.version`, or `journal[12].append.messages[0].parts[1].kind`.
    pub field: String,
    pub message: String,
}

impl DecodeError {
    pub fn field_error(&self, prefix: &str) -> FieldError {
        FieldError::type_error(format!("{prefix}.{}", self.field), self.message.clone())
    }
}

/// Every event of `bytes`, checked whole before any is applied.
pub fn decode(bytes: &[u8]) -> Result<Vec<Event>, DecodeError> {
    let mut r = Reader { bytes, at: 0 };
    let version = r
        .byte()
        .map_err(|_| fail("journal.version", "is missing: the journal is empty"))?;
    if version > VERSION {
        return Err(fail(
            "journal.version",
            &format!(
                "is {version}, newer than this package's {VERSION}: read it with the version of @devs/context that wrote it, or a newer one"
            ),
        ));
    }
    if version < 2 {
        return Err(fail(
            "journal.version",
            &format!("is {version}: a journal starts at version 2"),
        ));
    }
    let count = r.count().map_err(|_| {
        fail(
            "journal.count",
            "is missing or more than the bytes that follow",
        )
    })?;
    let mut events = Vec::with_capacity(count.min(1 << 16));
    while events.len() < count {
        let n = events.len();
        let at = |what: &str| format!("journal[{n}]{what}");
        let tag = r.byte().map_err(|_| {
            fail(
                &at(""),
                "is cut short: the journal was altered or cut short",
            )
        })?;
        let event = read_event(&mut r, tag, &at)?;
        if version < 3 && matches!(event, Event::Time(_)) {
            return Err(fail(
                &at(""),
                "is a time, which a version 2 journal never holds: the journal was altered",
            ));
        }
        if !event.kept() {
            return Err(fail(&at(""), "is never kept: the journal was altered"));
        }
        events.push(event);
    }
    if r.at < bytes.len() {
        return Err(fail(
            &format!("journal[{count}]"),
            "follows the last event: the journal was altered",
        ));
    }
    Ok(events)
}

pub(super) fn read_event(
    r: &mut Reader<'_>,
    tag: u8,
    at: &dyn Fn(&str) -> String,
) -> Result<Event, DecodeError> {
    let short = |what: &str| {
        fail(
            &at(what),
            "is cut short: the journal was altered or cut short",
        )
    };
    Ok(match tag {
        1 => {
            let count = r.count().map_err(|_| short(".append.messages"))?;
            let mut batch = Vec::with_capacity(count.min(1024));
            for i in 0..count {
                let field = |f: &str| at(&format!(".append.messages[{i}].{f}"));
                let role = r.byte().map_err(|_| fail(&field("role"), "is cut short"))?;
                let role = Role::from_code(role)
                    .ok_or_else(|| fail(&field("role"), &format!("is {role}, not a role")))?;
                let framing = r
                    .float()
                    .map_err(|_| fail(&field("framing"), "is cut short"))?;
                let parts = r
                    .count()
                    .map_err(|_| fail(&field("parts"), "is cut short"))?;
                let mut list = Vec::with_capacity(parts.min(1024));
                for k in 0..parts {
                    let pf = |f: &str| field(&format!("parts[{k}].{f}"));
                    let kind = r.byte().map_err(|_| fail(&pf("kind"), "is cut short"))?;
                    let (kind, protected) = Part::read_kind_byte(kind)
                        .ok_or_else(|| fail(&pf("kind"), &format!("is {kind}, not a part kind")))?;
                    let units = r.uint().map_err(|_| fail(&pf("units"), "is cut short"))?;
                    let tokens = r.float().map_err(|_| fail(&pf("tokens"), "is cut short"))?;
                    if !(tokens.is_finite() && tokens >= 0.0) {
                        return Err(fail(&pf("tokens"), "must be a finite number >= 0"));
                    }
                    let call = r.uint().map_err(|_| fail(&pf("call"), "is cut short"))?;
                    let call = match call {
                        0 => None,
                        c => Some(
                            u32::try_from(c - 1)
                                .map_err(|_| fail(&pf("call"), "is out of range"))?,
                        ),
                    };
                    let units = usize::try_from(units)
                        .map_err(|_| fail(&pf("units"), "is out of range"))?;
                    list.push(Part {
                        protected,
                        ..Part::new(kind, units, tokens, call)
                    });
                }
                if !(framing.is_finite() && framing >= 0.0) {
                    return Err(fail(&field("framing"), "must be a finite number >= 0"));
                }
                batch.push(NewMessage {
                    role,
                    framing,
                    parts: list,
                });
            }
            Event::Append(batch)
        }
        2 => Event::Begin,
        3 => Event::Commit,
        4 => Event::Plan,
        5..=8 => {
            let name = ["stored", "span-stored", "listed", "merged"][usize::from(tag - 5)];
            let id = r
                .optional_text()
                .map_err(|e| fail(&at(&format!(".{name}.id")), e))?;
            let line = r.float().map_err(|_| short(&format!(".{name}.line")))?;
            match tag {
                5 => Event::Stored { id, line },
                6 => Event::SpanStored { id, line },
                7 => Event::Listed { id, line },
                _ => Event::Merged { id, line },
            }
        }
        9 | 10 | 14 | 16 | 24 => {
            let name = match tag {
                9 => "measured",
                10 => "summarized",
                14 => "tail",
                16 => "observed",
                _ => "time",
            };
            let v = r.float().map_err(|_| short(&format!(".{name}")))?;
            // A time's range is the clock's to check, naming `options.now` (`clock.rs`).
            if !v.is_finite() && tag != 24 {
                return Err(fail(&at(&format!(".{name}")), "must be a finite number"));
            }
            match tag {
                9 => Event::Measured(v),
                10 => Event::Summarized(v),
                14 => Event::Tail(v),
                16 => Event::Observed(v),
                _ => Event::Time(v),
            }
        }
        11 => Event::SummaryFailed,
        12 => Event::NoSummarizer,
        13 => {
            let b = r.byte().map_err(|_| short(".render.hasFixed"))?;
            if b > 1 {
                return Err(fail(
                    &at(".render.hasFixed"),
                    &format!("is {b}, not a flag"),
                ));
            }
            Event::Render { has_fixed: b == 1 }
        }
        15 => Event::Compact,
        17 => Event::CalibrationReset,
        18 => {
            let call = r.uint().map_err(|_| short(".recalled.call"))?;
            let call = match call {
                0 => None,
                c => Some(
                    u32::try_from(c - 1)
                        .map_err(|_| fail(&at(".recalled.call"), "is out of range"))?,
                ),
            };
            let id = r.text().map_err(|e| fail(&at(".recalled.id"), e))?;
            let offset = r.uint().map_err(|_| short(".recalled.offset"))?;
            let length = r.uint().map_err(|_| short(".recalled.length"))?;
            let query = r
                .optional_text()
                .map_err(|e| fail(&at(".recalled.query"), e))?;
            let whole =
                |v: u64, f: &str| usize::try_from(v).map_err(|_| fail(&at(f), "is out of range"));
            Event::Recalled {
                call,
                id,
                ask: Ask {
                    offset: whole(offset, ".recalled.offset")?,
                    length: match length {
                        0 => None,
                        l => Some(whole(l - 1, ".recalled.length")?),
                    },
                    query,
                },
            }
        }
        19 => Event::HistoryRebuilt,
        21 => Event::Defer,
        22 => {
            let text = r.text().map_err(|e| fail(&at(".described.text"), e))?;
            let args = r.text().map_err(|e| fail(&at(".described.args"), e))?;
            let media = r.floats().map_err(|_| short(".described.media"))?;
            Event::Described { text, args, media }
        }
        23 => {
            let tokens = r.floats().map_err(|_| short(".carried.tokens"))?;
            Event::Carried { tokens }
        }
        20 => {
            let opening = r.byte().map_err(|_| short(".migrated.opening"))?;
            let summary = r.float().map_err(|_| short(".migrated.summary"))?;
            if opening > 1 || !(summary.is_finite() && summary >= 0.0) {
                return Err(fail(&at(".migrated"), "is out of range"));
            }
            let n = r.count().map_err(|_| short(".migrated.ids"))?;
            let mut ids = Vec::with_capacity(n.min(4096));
            for i in 0..n {
                let id = r
                    .text()
                    .map_err(|e| fail(&at(&format!(".migrated.ids[{i}]")), e))?;
                let tokens = r
                    .float()
                    .map_err(|_| short(&format!(".migrated.ids[{i}]")))?;
                ids.push((id, tokens));
            }
            let from = r.uint().map_err(|_| short(".migrated.from"))?;
            let why = r.byte().map_err(|_| short(".migrated.why"))?;
            if super::migrate::Why::from_code(why).is_none() {
                return Err(fail(&at(".migrated.why"), "is not a reason"));
            }
            Event::Migrated {
                opening: opening == 1,
                summary,
                ids,
                from: u32::try_from(from)
                    .map_err(|_| fail(&at(".migrated.from"), "is out of range"))?,
                why,
            }
        }
        other => {
            return Err(fail(
                &at(""),
                &format!(
                    "is an unknown event ({other}): the journal was altered, or written by a newer version"
                ),
            ));
        }
    })
}

/// A decoding error at `field` (the journal's or a state's).
pub(super) fn fail(field: &str, message: &str) -> DecodeError {
    DecodeError {
        field: field.to_string(),
        message: message.to_string(),
    }
}
