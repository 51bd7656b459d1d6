//! What a build asks of the host ([`Need`]), declared once: each need's fields (what the
//! rules track) and what it carries (what the shell needs to answer it without asking
//! back: store ids, frames, the pinned messages). `crates/protocol` writes the shell's
//! named union of needs and its decoder from [`NEEDS`] into `pkg/src/core/protocol.ts`;
//! the need crosses as the journal's own encoding ([`Wire`]), and its answer comes back as
//! a journal event (`journal::decode_answer`).

use super::Manager;
use super::codec::{Codec, Wire};
use super::index;
use super::transcript;
use crate::base::frame::Frame;

/// One need as the shell reads it: its name, its kind's code, and its fields then what it
/// carries, in the order they cross, each with its codec.
#[derive(Debug)]
pub struct NeedRow {
    pub name: &'static str,
    pub code: u8,
    pub fields: &'static [(&'static str, Codec)],
}

/// Declares [`Need`], its kind's codes ([`NeedKind`]), [`NEEDS`] and [`Need::encode`]:
/// `Variant = code { field: type, … } carries { name: type = expression over the fields
/// and the manager, … }`. A field or a carried value of a type that cannot cross does not
/// compile ([`Wire`]).
macro_rules! needs {
    (
        manager: $m:ident;
        $(
            $(#[$vmeta:meta])*
            $variant:ident = $code:literal $({ $($field:ident: $fty:ty),* $(,)? })?
            carries { $($extra:ident: $ety:ty = $value:expr),* $(,)? },
        )+
    ) => {
        /// What the host must do next.
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub enum Need {
            $($(#[$vmeta])* $variant $({ $($field: $fty),* })?,)+
        }

        crate::codes! {
            /// A [`Need`]'s kind: the first byte of its encoding ([`Need::encode`]).
            pub enum NeedKind {
                $($variant = $code,)+
            }
        }

        /// Every need as it crosses, in declaration order.
        pub const NEEDS: &[NeedRow] = &[$(NeedRow {
            name: stringify!($variant),
            code: $code,
            fields: &[
                $($((stringify!($field), <$fty as Wire>::CODEC),)*)?
                $((stringify!($extra), <$ety as Wire>::CODEC),)*
            ],
        },)+];

        impl Need {
            pub fn kind(&self) -> NeedKind {
                match self {
                    $(Need::$variant { .. } => NeedKind::$variant,)+
                }
            }

            /// The need as the shell reads it (`decodeNeed` in `pkg/src/core/protocol.ts`):
            /// its kind's code, its fields, then what it carries, read from `manager`.
            #[allow(unused_variables, clippy::redundant_locals)]
            pub fn encode(&self, $m: &Manager) -> Vec<u8> {
                let mut out = Vec::new();
                match *self {
                    $(Need::$variant $({ $($field),* })? => {
                        out.push($code);
                        $($(Wire::wire(&$field, &mut out);)*)?
                        $({
                            let $extra: $ety = $value;
                            Wire::wire(&$extra, &mut out);
                        })*
                    })+
                }
                out
            }
        }
    };
}

needs! {
    manager: m;
    /// Store the whole text of part `part` of message `message` (`call`: where the call a
    /// result answers is, `[message, part]`, or none); answered by `Event::Stored`.
    Persist = 0 { message: usize, part: usize } carries {
        call: Vec<usize> = call_of(m, message, part),
    },
    /// Show the part as a placeholder naming `id` (`call` as for `Persist`); answered by
    /// `Event::Measured` with its tokens.
    Placeholder = 1 { message: usize, part: usize } carries {
        id: Option<String> = m.store_id(message, part).map(String::from),
        call: Vec<usize> = call_of(m, message, part),
    },
    /// Show the part cut to `head` and `tail` UTF-16 units, naming `id`; answered by
    /// `Event::Measured`.
    Cut = 2 { message: usize, part: usize, head: usize, tail: usize } carries {
        id: Option<String> = m.store_id(message, part).map(String::from),
    },
    /// Summarize messages `from..to` with the summary so far: `prompt` is the summarizer's
    /// prompt and `instruction` the end of a request made of the last one (frames,
    /// `transcript::summarizer_prompt`), `ids` the store id of each part of the messages,
    /// in order, and `opening_start..opening_end` the pinned messages; answered by
    /// `Event::Summarized`, `Event::SummaryFailed` or `Event::NoSummarizer`. After a failure
    /// the same turns are asked once again (`Manager::summary_failed`); the user texts among
    /// them are stored first (`working::store`).
    Summarize = 3 { from: usize, to: usize } carries {
        prompt: String = framed(|p| transcript::summarizer_prompt(p, m, from, to)),
        instruction: String = framed(|p| transcript::summarizer_instruction(p, m, from, to)),
        ids: Vec<Option<String>> = part_ids(m, from, to),
        opening_start: usize = m.opening().start,
        opening_end: usize = m.opening().end,
    },
    /// The request fits: render it ([`super::render`]); `index` the store ids the index
    /// names, in the order it lists them.
    Done = 4 carries {
        index: Vec<String> = m.index.ids().map(String::from).collect(),
    },
    /// Messages `from..to` left the request: store their `transcript` (a frame, as shown,
    /// its parts' store ids `ids`) and write its index line; answered by `Event::SpanStored`.
    PersistSpan = 5 { from: usize, to: usize } carries {
        transcript: String = framed(|p| transcript::transcript(p, m, from, to)),
        ids: Vec<Option<String>> = part_ids(m, from, to),
    },
    /// The index passed its share: store the listing of its oldest `count` entries (after
    /// the listing before them, if any: `ids`, in order; `listing` its heading and body
    /// frames) and write its line; answered by `Event::Listed`.
    PersistGroup = 6 { count: usize } carries {
        ids: Vec<String> = m.index.grouped_ids(count).map(String::from).collect(),
        listing: String = listing(m, count),
    },
    /// The index is past its share with its outputs listed away: store the oldest `count`
    /// transcripts not merged yet (`ids`, `index.merged`), read back and joined, as one,
    /// and write its line; answered by `Event::Merged`.
    MergeSpans = 7 { count: usize } carries {
        ids: Vec<String> = m.index.merged(count).0.into_iter().map(String::from).collect(),
    },
    /// Nothing more can be taken out of the request without making it invalid, and it is
    /// still over the budget: the build fails, naming part `part` of message `message`, the
    /// largest it holds ([`Manager::too_large`]), and is taken back.
    TooLarge = 8 { message: usize, part: usize } carries {},
    /// The reply to `Event::Described`: `body`, over `[id, label]`, is the index line's body
    /// of the text being stored (`Persist`, `PersistSpan`, `MergeSpans`) or the placeholder's
    /// (`Placeholder`); the shell counts it and answers the need it described.
    Measure = 9 carries { body: String = m.told.0.clone() },
    /// The reply to `Event::Carried`: how many of the texts said the summary carries, from
    /// the first on; the shell then answers `Summarize`.
    Fit = 10 carries { count: usize = m.told.1 },
    /// The provider compacted, and messages `from..to` left with what it compacted: restate
    /// the protected texts among them, newest first, then those the summary carried, after
    /// its compaction (`Event::Carried` says how many fit), in the summary's place, with the
    /// working state (`ids`: the store id of each part of the messages, in order);
    /// answered by `Event::Summarized` with their tokens (0: none). Without the provider's
    /// compaction (`summary` 1: a compaction that only masked, over no messages), the
    /// summary's own words stay, and the working state is written anew after them.
    Restate = 11 { from: usize, to: usize } carries {
        ids: Vec<Option<String>> = part_ids(m, from, to),
        summary: usize = usize::from(m.anchored.is_none()),
    },
}

/// What the rules replied to what the shell said on the way to an answer: the body of
/// `Need::Measure`, the count of `Need::Fit`. Never in the state.
pub type Told = (String, usize);

impl Manager {
    /// What the pending need's text is, said over `[id, label]` (`index::body`): a stored
    /// part's line names what its `text` names, describes its call's `args` (a result) or
    /// gives its `media` size; a placeholder's the same without the names; a transcript's,
    /// stored or merged, names what it names.
    pub fn describe(&self, need: Need, text: &str, args: &str, media: &[f64]) -> String {
        use index::What;
        let at = |i: usize| media.get(i).copied().unwrap_or(0.0);
        let span = |from, to| {
            let names = index::names(text, usize::MAX, self.names_chars(true));
            (
                What::Span { from, to },
                self.fold_tokens(from, to),
                String::new(),
                names,
            )
        };
        let (what, tokens, description, names) = match need {
            Need::Persist { message, part } | Need::Placeholder { message, part } => {
                let p = *self.part(message, part);
                let line = matches!(need, Need::Persist { .. }) && !p.kind.media();
                let (what, description) = match p.kind {
                    super::Kind::Result => (What::Output, index::describe(args)),
                    super::Kind::Image => (
                        What::Image {
                            width: at(0) as u32,
                            height: at(1) as u32,
                        },
                        String::new(),
                    ),
                    super::Kind::Document => (
                        What::Document {
                            pages: at(0) as u64,
                        },
                        String::new(),
                    ),
                    _ if line => (What::Text, index::one_line(text, 100)),
                    _ => (What::Text, String::new()),
                };
                let names = match line {
                    true => index::names(text, index::MAX_NAMES, self.names_chars(false)),
                    false => Vec::new(),
                };
                (what, p.tokens, description, names)
            }
            Need::PersistSpan { from, to } => span(from, to),
            Need::MergeSpans { count } => {
                let (_, from, to) = self.index.merged(count);
                span(from, to)
            }
            _ => return String::new(),
        };
        framed(|p| index::body(p, what, tokens, &description, &names))
    }
}

/// Where the call part `part` of message `message` answers is, `[message, part]`, or `[]`.
fn call_of(m: &Manager, message: usize, part: usize) -> Vec<usize> {
    let h = &m.history;
    h.messages[message].parts[part]
        .call
        .and_then(|c| h.calls.get(c as usize))
        .map_or_else(Vec::new, |c| vec![c.message, c.part])
}

/// One text of a frame.
fn framed(text: impl FnOnce(&mut crate::base::frame::Pieces<'_>)) -> String {
    let mut f = Frame::new();
    f.text(text);
    f.into_string()
}

/// The store id of each part of messages `from..to`, in order.
fn part_ids(m: &Manager, from: usize, to: usize) -> Vec<Option<String>> {
    (from..to)
        .flat_map(|i| {
            (0..m.history.messages[i].parts.len()).map(move |k| m.store_id(i, k).map(String::from))
        })
        .collect()
}

/// The listing of the oldest `count` entries (with those listed before them): its heading,
/// then its body over `[id, label]`.
fn listing(m: &Manager, count: usize) -> String {
    let count = count + m.index.group.as_ref().map_or(0, |g| g.1);
    let mut f = Frame::new();
    f.text(index::listing_header);
    f.text(|p| index::body(p, index::What::Group { count }, 0.0, "", &[]));
    f.into_string()
}
