//! The index of what was folded out of the request. Every stored text whose message left
//! the request is named there by its store id, with what it was, a one-line description,
//! its size and the names it holds, so the agent can still name it and read it back with
//! the recall tool. The engine writes the index, not the summarizer: a summary that keeps
//! nothing, or fails, loses no id.
//!
//! The index is bounded: past [`INDEX_SHARE`] of the budget, its oldest entries are listed
//! in a stored text of their own, which one line names, so they stay recallable too. It
//! changes only at a compaction, which rewrites everything after the summary anyway.

pub use super::names::{describe, names, one_line};
use crate::base::args::show_number;
use crate::base::frame::Pieces;

/// The index may take at most this share of the budget.
pub const INDEX_SHARE: f64 = 0.05;
/// Its heading's tokens, with a message's framing: assumed, never counted short.
pub const HEADER_TOKENS: f64 = 40.0;
/// A line's tokens when the host did not count it (a log written before lines were).
pub const LINE_TOKENS: f64 = 40.0;
/// Names an output's line lists at most, and the characters they take at most.
pub const MAX_NAMES: usize = 12;
pub const MAX_NAMES_CHARS: usize = 360;
/// A transcript's line stands for many messages: it lists more names, in up to this share
/// of the budget (at 3 characters a token), and at most [`SPAN_NAMES_CHARS`]. Kept short,
/// so that the transcripts keep their lines in the index: one recall gives a span back.
pub const SPAN_NAMES_SHARE: f64 = 0.003;
pub const SPAN_NAMES_CHARS: usize = 1_200;
/// An output's names take at most this share of the budget, at small budgets.
pub const NAMES_SHARE: f64 = 0.002;

/// One stored text, named by the line the host wrote for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: String,
    /// Tokens of its line, as the host counted it.
    pub tokens: f64,
    /// For a transcript: the messages it holds, and whether it is the merge of several.
    pub span: Option<(usize, usize)>,
    pub merged: bool,
}

/// The index's entries: the transcripts of the spans folded away, which hold everything
/// of them, then the stored texts of those spans, each oldest first. The transcripts are
/// kept longest: one recall of one gives back a whole span.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Index {
    pub spans: Vec<Entry>,
    pub outputs: Vec<Entry>,
    /// The line naming the stored listing of the entries grouped away, with its count.
    pub group: Option<(Entry, usize)>,
}

impl Index {
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty() && self.outputs.is_empty() && self.group.is_none()
    }

    fn all(&self) -> impl Iterator<Item = &Entry> {
        self.group
            .iter()
            .map(|g| &g.0)
            .chain(&self.spans)
            .chain(&self.outputs)
    }

    /// The ids in the order the request lists them: the listing, transcripts, outputs.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.all().map(|e| e.id.as_str())
    }

    /// Tokens the index takes in the request.
    pub fn tokens(&self) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        HEADER_TOKENS + self.all().map(|e| e.tokens).sum::<f64>()
    }

    /// Adds an entry unless the index names its id already (one text stored for two
    /// parts). `span`: a transcript of those messages.
    pub fn add(&mut self, id: &str, tokens: f64, span: Option<(usize, usize)>) -> bool {
        if self.names(id) {
            return false;
        }
        let entry = Entry {
            id: id.to_string(),
            tokens,
            span,
            merged: false,
        };
        if span.is_some() {
            self.spans.push(entry);
        } else {
            self.outputs.push(entry);
        }
        true
    }

    /// How many of the oldest outputs to list in a stored text of their own, so that the
    /// index keeps within `cap`: none while it does, or when it has no output left.
    pub fn outputs_to_group(&self, cap: f64) -> usize {
        if self.tokens() <= cap {
            return 0;
        }
        let mut tokens = self.tokens();
        let mut n = 0;
        for e in &self.outputs {
            if tokens <= cap / 2.0 {
                break;
            }
            tokens -= e.tokens;
            n += 1;
        }
        n
    }

    /// How many of the oldest transcripts not merged yet to merge into one, so that the
    /// index keeps within `cap`; none when fewer than two are left to merge. A merged one
    /// is not merged again: each text is stored twice at most.
    pub fn spans_to_merge(&self, cap: f64, merged_line: f64) -> usize {
        if self.tokens() <= cap {
            return 0;
        }
        let from = self.spans.iter().take_while(|e| e.merged).count();
        let mut tokens = self.tokens() + merged_line;
        let mut n = 0;
        for e in &self.spans[from..] {
            if n >= 2 && tokens <= cap / 2.0 {
                break;
            }
            tokens -= e.tokens;
            n += 1;
        }
        if n < 2 { 0 } else { n }
    }

    /// The transcripts a merge of `n` takes: their ids, and the messages they hold.
    pub fn merged(&self, n: usize) -> (Vec<&str>, usize, usize) {
        let from = self.spans.iter().take_while(|e| e.merged).count();
        let taken = &self.spans[from..(from + n).min(self.spans.len())];
        let ids = taken.iter().map(|e| e.id.as_str()).collect();
        let first = taken.first().and_then(|e| e.span).map_or(0, |s| s.0);
        let last = taken.last().and_then(|e| e.span).map_or(0, |s| s.1);
        (ids, first, last)
    }

    /// The `n` transcripts [`Index::spans_to_merge`] chose are now one, stored as `id`.
    pub fn merge(&mut self, n: usize, id: String, tokens: f64) {
        let (_, first, last) = self.merged(n);
        let from = self.spans.iter().take_while(|e| e.merged).count();
        let end = (from + n).min(self.spans.len());
        self.spans.splice(
            from..end,
            [Entry {
                id,
                tokens,
                span: Some((first, last)),
                merged: true,
            }],
        );
    }

    /// The entries a listing of `n` takes, in order: the oldest outputs, then the oldest
    /// transcripts.
    fn taken(&self, n: usize) -> impl Iterator<Item = &Entry> {
        self.outputs.iter().chain(&self.spans).take(n)
    }

    /// How many entries to list in a stored text of their own so that the index keeps
    /// within `cap`: none while it does. Enough to bring it to half the cap, so the next
    /// compactions add lines without grouping again.
    pub fn to_group(&self, cap: f64) -> usize {
        let total = self.outputs.len() + self.spans.len();
        if self.tokens() <= cap || total == 0 {
            return 0;
        }
        let mut tokens = self.tokens();
        let mut n = 0;
        for e in self.taken(total) {
            if tokens <= cap / 2.0 {
                break;
            }
            tokens -= e.tokens;
            n += 1;
        }
        n.max(1)
    }

    /// What a listing of `n` holds, in order: the listing before it, then the entries.
    pub fn grouped_ids(&self, n: usize) -> impl Iterator<Item = &str> {
        self.group
            .iter()
            .map(|g| g.0.id.as_str())
            .chain(self.taken(n).map(|e| e.id.as_str()))
    }

    /// The `n` entries [`Index::to_group`] chose, and the group before them, are now
    /// listed in stored text `id`, named by a line of `tokens`.
    pub fn group(&mut self, n: usize, id: String, tokens: f64) {
        let from_outputs = n.min(self.outputs.len());
        let from_spans = (n - from_outputs).min(self.spans.len());
        self.outputs.drain(..from_outputs);
        self.spans.drain(..from_spans);
        let before = self.group.as_ref().map_or(0, |g| g.1);
        self.group = Some((
            Entry {
                id,
                tokens,
                span: None,
                merged: false,
            },
            before + from_outputs + from_spans,
        ));
    }

    /// Whether the index names `id`.
    pub fn names(&self, id: &str) -> bool {
        self.all().any(|e| e.id == id)
    }
}

/// What a line names.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum What {
    /// A tool's output (host text: the tool's name).
    Output,
    /// A text of a message (host text: the role).
    Text,
    /// Messages `from..to`, as a transcript.
    Span { from: usize, to: usize },
    /// The listing of `count` earlier entries.
    Group { count: usize },
    /// An image of `width` × `height` pixels (0: not read), host text: its media type.
    Image { width: u32, height: u32 },
    /// A document of `pages` pages (0: not read), host text: its media type.
    Document { pages: u64 },
}

/// Host texts of a line: the store id, and what the text was (a tool's name or a role).
pub const ID: usize = 0;
pub const LABEL: usize = 1;

/// The index's heading. `recall`: the agent has the recall tool.
pub fn header(p: &mut Pieces<'_>, recall: bool) {
    p.lit(if recall {
        "[Texts folded out of this conversation, stored whole. Read one back with the recall tool, by its id:]"
    } else {
        "[Texts folded out of this conversation, stored whole, by id:]"
    });
}

/// The heading of a stored listing of grouped entries.
pub fn listing_header(p: &mut Pieces<'_>) {
    p.lit("[Entries of the index of stored texts, grouped out of the request to keep it within its share]");
}

/// What a stored text is, in one line, naming its id: `output of bash `cargo test`,
/// 18,342 tokens, stored as 17; names: …`. The index lists it (`- ` before it, [`line`])
/// and a placeholder shows it (in brackets, [`placeholder`]), so what the agent reads of a
/// masked output is what it reads of one folded away. `description` and `names` are the
/// rules' own reading of the text ([`describe`], [`names`]).
pub fn body(p: &mut Pieces<'_>, what: What, tokens: f64, description: &str, names: &[String]) {
    match what {
        What::Output => {
            p.lit("output of ").host(LABEL);
        }
        What::Text => {
            p.host(LABEL).lit(" message");
        }
        What::Span { from, to } => {
            p.lit(&format!("conversation, messages {}–{}", from + 1, to));
        }
        What::Image { width, height } => {
            p.lit("image ").host(LABEL);
            if width > 0 && height > 0 {
                p.lit(&format!(
                    " {}×{}",
                    show_number(f64::from(width)),
                    show_number(f64::from(height))
                ));
            }
        }
        What::Document { pages } => {
            p.lit("document ").host(LABEL);
            if pages > 0 {
                p.lit(&format!(
                    " of {} page{}",
                    show_number(pages as f64),
                    if pages == 1 { "" } else { "s" }
                ));
            }
        }
        What::Group { count } => {
            p.lit(&format!(
                "{} earlier entries of this index, listed in stored text ",
                show_number(count as f64)
            ))
            .host(ID);
            return;
        }
    }
    if !description.is_empty() {
        p.lit(" `").lit(description).lit("`");
    }
    p.lit(&format!(", {} tokens, stored as ", show_number(tokens)))
        .host(ID);
    if !names.is_empty() {
        p.lit("; names: ").lit(&names.join(", "));
    }
}

/// An index line over `[body]`.
pub fn line(p: &mut Pieces<'_>) {
    p.lit("- ").host(0);
}

/// A stored text's placeholder over `[body]`.
pub fn placeholder(p: &mut Pieces<'_>) {
    p.lit("[").host(0).lit("]");
}

/// The body of a text whose line is not known (stored before lines were written), over `[id]`.
pub fn unknown_body(p: &mut Pieces<'_>) {
    p.lit("stored text ").host(ID);
}

#[cfg(test)]
#[path = "tests/index.rs"]
mod tests;
