//! What the shell gives through `advance` ([`ANSWERS`]): the answers to the needs, each its
//! journal event, what the shell says on the way to one, and the host's calls that change
//! the manager; `crates/protocol` writes the shell's `encodeAnswer` from the table.

use super::codec::{Codec, Reader};
use super::journal::{DecodeError, Event, fail, read_event};

/// An event that answers a build's need, as the shell writes it (`encodeAnswer` in
/// `pkg/src/core/protocol.ts`, written by `crates/protocol` from this table): its name,
/// its tag, and its fields in the order [`Event::encode`] writes them (a test checks).
#[derive(Debug)]
pub struct AnswerRow {
    pub name: &'static str,
    pub tag: u8,
    pub fields: &'static [(&'static str, Codec)],
}

const fn row(name: &'static str, tag: u8, fields: &'static [(&'static str, Codec)]) -> AnswerRow {
    AnswerRow { name, tag, fields }
}

const STORED: &[(&str, Codec)] = &[("id", Codec::OptionalText), ("line", Codec::Float)];

const TOKENS: &[(&str, Codec)] = &[("tokens", Codec::Float)];
const DESCRIBED: &[(&str, Codec)] = &[
    ("text", Codec::Text),
    ("args", Codec::Text),
    ("media", Codec::Floats),
];
const CARRIED: &[(&str, Codec)] = &[("tokens", Codec::Floats)];

/// Every event the shell gives through `advance`: the answers to the needs, what it says
/// on the way to one ([`Event::kept`]), and the host's calls that change the manager.
pub const ANSWERS: &[AnswerRow] = &[
    row("Begin", 2, &[]),
    row("Plan", 4, &[]),
    row("Stored", 5, STORED),
    row("SpanStored", 6, STORED),
    row("Listed", 7, STORED),
    row("Merged", 8, STORED),
    row("Measured", 9, TOKENS),
    row("Summarized", 10, TOKENS),
    row("SummaryFailed", 11, &[]),
    row("NoSummarizer", 12, &[]),
    row("Tail", 14, TOKENS),
    row("Compact", 15, &[]),
    row("Observed", 16, TOKENS),
    row("CalibrationReset", 17, &[]),
    row("HistoryRebuilt", 19, &[]),
    row("Defer", 21, &[]),
    row("Described", 22, DESCRIBED),
    row("Carried", 23, CARRIED),
    row("Time", 24, &[("now", Codec::Float)]),
];

/// One event the shell gives (a row of [`ANSWERS`]), checked whole: anything else is refused, naming
/// where (`answer`, `answer.stored.id`).
pub fn decode_answer(bytes: &[u8]) -> Result<Event, DecodeError> {
    let mut r = Reader { bytes, at: 0 };
    let tag = r.byte().map_err(|_| fail("answer", "is empty"))?;
    if !ANSWERS.iter().any(|a| a.tag == tag) {
        return Err(fail(
            "answer",
            &format!("is event {tag}, which the shell does not give"),
        ));
    }
    let event = read_event(&mut r, tag, &|what: &str| format!("answer{what}"))?;
    if r.at < bytes.len() {
        return Err(fail("answer", "has bytes after its last field"));
    }
    Ok(event)
}
