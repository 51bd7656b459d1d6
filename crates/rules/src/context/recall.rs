//! The recall tool: the agent reads back, by its store id, a text the request no longer
//! holds whole (a masked or cut output, the transcript of turns folded away, a listing of
//! the index). The rules say what the tool is, which ids it may read (only this manager's
//! own), how a text is paged or searched so that no answer passes its share of the
//! budget, and when the same page asked again is answered with a note instead of the text,
//! so the agent cannot loop on it.

use super::Manager;
use super::history::{Kind, Shown, Stored};
use crate::base::args::show_number;
use crate::base::cut::Units;
use crate::base::frame::Pieces;

/// The tool's name, as the agent calls it.
pub const TOOL: &str = "recall";
/// What the tool does, as the agent reads it.
pub const DESCRIPTION: &str = "Read back a text this conversation stored whole: an output or \
message shown as a placeholder or cut (\"stored as 17\"), or a transcript or listing named in \
the index of stored texts. Give the id. Long texts come a page at a time: the answer says \
which characters it holds and the offset to ask for next. With query, you get the lines that \
contain it instead, with their line numbers.";
/// The tool's parameters, as JSON Schema.
pub const PARAMETERS: &str = r#"{"type":"object","properties":{"id":{"type":"string","description":"The store id, as the conversation names it"},"offset":{"type":"integer","minimum":0,"description":"The first character to read (default 0)"},"length":{"type":"integer","minimum":1,"description":"How many characters to read at most (default: as many as one answer holds)"},"query":{"type":"string","description":"Only the lines that contain this text (case-insensitive)"}},"required":["id"],"additionalProperties":false}"#;

/// Tokens an answer's heading and framing take, beyond its text.
const HEADING_TOKENS: f64 = 80.0;
/// UTF-16 units per token assumed for a page, low: most texts hold more.
const UNITS_PER_TOKEN: f64 = 3.0;
/// A matching line is shown up to this many units.
const MAX_LINE: usize = 300;
/// What an answer echoes of the model's own input (an unknown id, a query, an error) is cut
/// to this many units: a recall of a 1 MB query is not answered with the query.
pub const MAX_ECHO: usize = 300;
/// A query is read up to this many units: no line of a stored text holds a longer one.
pub const MAX_QUERY: usize = 1_000;

/// A query as the search reads it: its first [`MAX_QUERY`] characters.
pub fn capped_query(query: &str) -> String {
    query.chars().take(MAX_QUERY).collect()
}

/// Host text `host` of `units` units, cut to [`MAX_ECHO`] with a mark when it is longer.
fn echo(p: &mut Pieces<'_>, host: usize, units: usize) {
    if units <= MAX_ECHO {
        p.host(host);
    } else {
        p.host_range(host, 0, Some(MAX_ECHO))
            .lit(&format!("… ({} characters)", show_number(units as f64)));
    }
}

/// What a recall asks for: a page (`offset`, `length`), or the lines holding `query`.
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    pub offset: usize,
    pub length: Option<usize>,
    pub query: Option<String>,
}

impl Ask {
    fn key(&self, id: &str) -> String {
        format!(
            "{id}\u{0}{}\u{0}{}\u{0}{}",
            self.offset,
            self.length.map_or(String::new(), |l| l.to_string()),
            self.query.as_deref().unwrap_or("")
        )
    }
}

crate::codes! {
    /// A [`Check`]'s kind, as the shell reads it: the first number of its encoding.
    pub enum CheckCode {
        Unknown = 0,
        Repeat = 1,
        Read = 2,
    }
}

/// What to do with a recall before the store is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Not an id of this manager's: refused, the store is not read.
    Unknown,
    /// The same page is in the request already, as the result of call `call`.
    Repeat { call: u32 },
    /// Read it.
    Read,
}

impl Check {
    pub fn code(self) -> CheckCode {
        match self {
            Check::Unknown => CheckCode::Unknown,
            Check::Repeat { .. } => CheckCode::Repeat,
            Check::Read => CheckCode::Read,
        }
    }
}

/// One recall answered: the call that asked (if the host named it), what it asked, and
/// the id it read.
#[derive(Debug, Clone, PartialEq)]
pub struct Answered {
    pub call: Option<u32>,
    pub key: String,
    pub id: String,
}

impl Manager {
    /// Whether an image or a document of `tokens` may be given back whole: an answer stays
    /// within a part's share of the budget.
    pub fn recall_media_fits(&self, tokens: f64) -> bool {
        tokens + HEADING_TOKENS <= self.config.part_cap()
    }

    /// Units a page holds at most: an answer stays within a part's share of the budget.
    pub fn recall_units(&self) -> usize {
        ((self.config.part_cap() - HEADING_TOKENS).max(100.0) * UNITS_PER_TOKEN) as usize
    }

    /// A page of `units` came to `tokens` by the host's count: `None` when it keeps within a
    /// part's share of the budget, else the units to try instead, fewer in proportion.
    pub fn recall_fit(&self, units: usize, tokens: f64) -> Option<usize> {
        let cap = self.config.part_cap();
        (tokens > cap && units > 1)
            .then(|| ((units as f64) * (cap / tokens) * 0.9).max(1.0) as usize)
    }

    /// Whether to read `id` for `ask`.
    pub fn recall_check(&self, id: &str, ask: &Ask) -> Check {
        if !self.owns(id) {
            return Check::Unknown;
        }
        let key = ask.key(id);
        for a in self.recalls.iter().rev().filter(|a| a.key == key) {
            let Some(call) = a.call else { continue };
            if self.answer_shown(call) {
                return Check::Repeat { call };
            }
        }
        Check::Read
    }

    /// Whether the result of call `call` is in the request, its text shown.
    fn answer_shown(&self, call: u32) -> bool {
        let Some((m, p)) = self.history.calls.get(call as usize).and_then(|c| c.answer) else {
            return false;
        };
        m >= self.first_live
            && matches!(
                self.history.messages[m].parts[p].shown,
                Shown::Whole | Shown::Cut { .. }
            )
    }

    /// A recall was answered with the text of `id`: its result, once appended, is that
    /// text (a page of it), stored already under `id`, so a later compaction masks it
    /// naming `id` and stores nothing again.
    pub fn recalled(&mut self, call: Option<u32>, id: &str, ask: &Ask) {
        self.recalls.push(Answered {
            call,
            key: ask.key(id),
            id: id.to_string(),
        });
        // A result appended already (the host answered before it told us).
        if let Some(c) = call {
            self.mark_recalled(c);
        }
    }

    /// The call an id-less recall answers (Gemini's `functionCall` may have no id): the first
    /// of `candidates`, the calls of the recall tool, open in the last turn with no result
    /// and no recall told yet, so calls answered in order are told apart.
    pub fn open_recall(&self, candidates: &[u32]) -> Option<u32> {
        let untold: Vec<u32> = candidates
            .iter()
            .copied()
            .filter(|&c| !self.recalls.iter().any(|a| a.call == Some(c)))
            .collect();
        self.history.first_open(&untold, &[], 0)
    }

    /// Marks the result of call `call`, if it is in, as the stored text its recall read.
    pub(super) fn mark_recalled(&mut self, call: u32) {
        let Some(id) = self
            .recalls
            .iter()
            .rev()
            .find(|a| a.call == Some(call))
            .map(|a| a.id.clone())
        else {
            return;
        };
        // A call let go (folded away, or of a pinned turn) reads as answered by message 0,
        // which may be let go too: its result is not in the request to mark.
        let h = &self.history;
        let Some((m, p)) = h
            .calls
            .get(call as usize)
            .filter(|_| call as usize >= h.calls.gap_to())
            .and_then(|c| c.answer)
        else {
            return;
        };
        let Some(part) = h.messages.get(m).and_then(|msg| msg.parts.get(p)) else {
            return;
        };
        if part.kind == Kind::Result && part.stored == Stored::No {
            self.touch(m);
            self.history.messages[m].parts[p].stored = Stored::Yes;
            self.give_store_id(m, p, id);
        }
    }
}

/// Host texts of an answer: the stored text, its id, and what it was (a tool's name).
pub const TEXT: usize = 0;
pub const ID: usize = 1;
pub const LABEL: usize = 2;

/// The answer to a recall of `text`: a page of it, or the lines holding the query, at most
/// `max` units of it, with a heading that says what it holds and how to go on.
pub fn answer(p: &mut Pieces<'_>, text: &Units, ask: &Ask, max: usize) {
    match ask.query.as_deref().filter(|q| !q.is_empty()) {
        Some(query) => search(p, text, query, ask.offset, max),
        None => page(p, text, ask, max),
    }
}

/// Where a page of `text` from `start` for at most `want` units ends: at a line's end when
/// one is in its last fifth, never inside a surrogate pair.
pub fn page_end(text: &Units, start: usize, want: usize) -> usize {
    let total = text.0.len();
    let mut end = start.saturating_add(want).min(total);
    if end < total {
        let floor = start + want * 4 / 5;
        if let Some(nl) = text.0[start..end]
            .iter()
            .rposition(|&u| u == u16::from(b'\n'))
            && start + nl + 1 > floor
        {
            end = start + nl + 1;
        }
        if end > start && (0xD800..0xDC00).contains(&text.0[end - 1]) {
            end -= 1;
        }
    }
    end
}

fn page(p: &mut Pieces<'_>, text: &Units, ask: &Ask, max: usize) {
    let total = text.0.len();
    let start = ask.offset.min(total);
    let want = ask.length.unwrap_or(max).min(max).max(1);
    let end = page_end(text, start, want);
    p.lit("[Stored text ")
        .host(ID)
        .lit(" (")
        .host(LABEL)
        .lit(&format!(
            "), characters {}–{} of {}",
            show_number(start as f64),
            show_number(end as f64),
            show_number(total as f64)
        ));
    if end < total {
        p.lit(&format!("; for more, recall it with offset {end}"));
    } else {
        p.lit("; the end");
    }
    p.lit("]\n").host_range(TEXT, start, Some(end));
}

fn search(p: &mut Pieces<'_>, text: &Units, query: &str, offset: usize, max: usize) {
    let needle: Vec<u16> = query.to_lowercase().encode_utf16().collect();
    let lower = |u: u16| if (65..=90).contains(&u) { u + 32 } else { u };
    let total = text.0.len();
    let mut lines: Vec<(usize, usize, usize)> = Vec::new(); // number, start, end
    let (mut number, mut start) = (1, 0);
    while start < total {
        let end = text.0[start..]
            .iter()
            .position(|&u| u == u16::from(b'\n'))
            .map_or(total, |n| start + n);
        if end >= offset {
            let line = &text.0[start..end];
            let found = needle.len() <= line.len()
                && line
                    .windows(needle.len())
                    .any(|w| w.iter().zip(&needle).all(|(&a, &b)| lower(a) == b));
            if found {
                lines.push((number, start, end));
            }
        }
        number += 1;
        start = end + 1;
    }
    let mut used = 0;
    let mut shown = 0;
    for &(_, s, e) in &lines {
        let n = (e - s).min(MAX_LINE) + 8;
        if shown > 0 && used + n > max {
            break;
        }
        used += n;
        shown += 1;
    }
    p.lit("[Stored text ")
        .host(ID)
        .lit(" (")
        .host(LABEL)
        .lit(&format!(
            "): {} of {} lines containing ",
            show_number(shown as f64),
            show_number(lines.len() as f64)
        ))
        .lit(&format!("{:?}", one_echo(query)));
    if shown < lines.len() {
        let next = lines[shown].1;
        p.lit(&format!(
            "; for more, recall with this query and offset {next}"
        ));
    }
    p.lit("]");
    for &(n, s, e) in lines.iter().take(shown) {
        let mut cut = (s + MAX_LINE).min(e);
        if cut < e && cut > s && (0xD800..0xDC00).contains(&text.0[cut - 1]) {
            cut -= 1;
        }
        p.lit(&format!("\n{n}: ")).host_range(TEXT, s, Some(cut));
        if cut < e {
            p.lit(" …");
        }
    }
}

/// A text of the rules' own, cut as [`echo`] cuts a host's.
fn one_echo(text: &str) -> String {
    if text.chars().count() <= MAX_ECHO {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(MAX_ECHO).collect();
    cut.push('…');
    cut
}

crate::codes! {
    /// Why a recall got no text, as the agent reads it: the shell names it by its code.
    pub enum Refusal {
        /// Not an id of this conversation's (host text: the id).
        Unknown = 0,
        /// The same page is in the conversation already.
        Repeat = 1,
        /// The store cannot read texts back.
        Unreadable = 2,
        /// The store has no text by that id.
        Missing = 3,
        /// The store failed (host texts: the id, the error).
        Failed = 4,
        /// The call's input is not what the tool takes (host texts: -, what is wrong).
        BadInput = 5,
        /// An image or a document larger than an answer's share (host texts: the id, what it is).
        TooLarge = 6,
    }
}

/// A recall that gives no text, over `[id, detail]`, each echoed up to [`MAX_ECHO`] of its
/// `id_units` and `detail_units`.
pub fn refusal(p: &mut Pieces<'_>, why: Refusal, id_units: usize, detail_units: usize) {
    p.lit("[recall: ");
    match why {
        Refusal::Unknown => {
            p.lit("\"");
            echo(p, 0, id_units);
            p.lit("\" is not the id of a text stored in this conversation. The ids are in the index of stored texts and in the placeholders and cut markers of stored outputs (\"stored as 17\").]");
        }
        Refusal::Repeat => {
            p.lit("this page of stored text ");
            echo(p, 0, id_units);
            p.lit(" is already in the conversation, as the result of an earlier recall; it is not sent again. Ask for another offset, or a query.]");
        }
        Refusal::Unreadable => {
            p.lit("the store of this conversation cannot read texts back.]");
        }
        Refusal::Missing => {
            p.lit("the store holds no text ");
            echo(p, 0, id_units);
            p.lit(".]");
        }
        Refusal::Failed => {
            p.lit("the store failed to read text ");
            echo(p, 0, id_units);
            p.lit(": ");
            echo(p, 1, detail_units);
            p.lit("]");
        }
        Refusal::BadInput => {
            p.lit("the input is not what the tool takes: ");
            echo(p, 1, detail_units);
            p.lit(". Give {\"id\": \"17\"}, with offset and length for a page, or query for the lines holding a text.]");
        }
        Refusal::TooLarge => {
            p.lit("stored ");
            echo(p, 0, id_units);
            p.lit(" is ");
            echo(p, 1, detail_units);
            p.lit(", more than one answer may take within the context budget: it stays stored, and is not given back.]");
        }
    }
}

/// The heading of a recalled image or document, given back whole, over `[id, media
/// type]`: its size as measured (`width` × `height`, or `pages`; 0 when not read).
/// `carried`: the provider's tool result can hold it (a Chat Completions tool message holds
/// text only, so there it is named and not given).
pub fn media_heading(
    p: &mut Pieces<'_>,
    image: bool,
    width: f64,
    height: f64,
    pages: f64,
    carried: bool,
) {
    p.lit(if image {
        "[Stored image "
    } else {
        "[Stored document "
    })
    .host(0)
    .lit(" (")
    .host(1);
    if image && width > 0.0 && height > 0.0 {
        p.lit(&format!(", {}×{}", show_number(width), show_number(height)));
    }
    if !image && pages > 0.0 {
        p.lit(&format!(
            ", {} page{}",
            show_number(pages),
            if pages == 1.0 { "" } else { "s" }
        ));
    }
    if carried {
        p.lit("), given back whole]");
    } else {
        p.lit("): a tool result of this provider holds text only, so it stays stored; it cannot be shown here]");
    }
}

#[cfg(test)]
#[path = "tests/recall.rs"]
mod tests;
