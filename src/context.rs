//! The context manager's machine (`ContextManager`): plain data in and out. The codes the
//! shell reads (a need's kind, a plan's ops, a part's kind and role, a recall's check) are
//! the rules' own (`devs_context_rules::base::codes`), which `crates/protocol` writes into
//! the shell's `pkg/src/core/protocol.ts`; a need and a plan are encoded by the rules too.

use devs_context_errors::FieldError;
use devs_context_rules::base::text::split_texts;
use devs_context_rules::context::config::{Config, Options};
use devs_context_rules::context::{Kind, Manager, Rejection, index, recall, render};
use wasm_bindgen::prelude::*;

use crate::{Out, frame, probe, report};
use devs_context_rules::base::frame::Frame;

/// The manager, and the journal of what changed it (see `context_events.rs`).
#[wasm_bindgen]
pub struct ManagerCore {
    pub(crate) m: Manager,
    pub(crate) journal: crate::journal_out::JournalOut,
}

#[wasm_bindgen]
impl ManagerCore {
    /// The options by name: `names` joined, with their UTF-16 lengths (`joinTexts`), and
    /// their `values`, NaN for each default (`config::Options::named` checks them).
    /// `prefix` names the options in errors: `options`, or `options.bounded`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        prefix: &str,
        budget: f64,
        names: &str,
        name_lens: &[u32],
        values: &[f64],
        system_tokens: f64,
        pinned_tokens: f64,
    ) -> Out<ManagerCore> {
        let names = split_texts(names, name_lens);
        if names.len() != values.len() {
            return Err(crate::fail(FieldError::type_error(
                prefix,
                format!(
                    "has {} option names for {} values",
                    names.len(),
                    values.len()
                ),
            )));
        }
        let named: Vec<(&str, f64)> = names.into_iter().zip(values.iter().copied()).collect();
        let options = report(Options::named(prefix, &named))?;
        let config = report(Config::new(prefix, budget, options))?;
        Ok(ManagerCore {
            m: report(Manager::new(prefix, config, system_tokens, pinned_tokens))?,
            journal: crate::journal_out::JournalOut::default(),
        })
    }

    /// The body of the merge of `count` transcripts (`text`, joined), over `[id, label]`.
    pub fn merged_body(&self, count: usize, text: &str) -> String {
        let (_, from, to) = self.m.index.merged(count);
        let tokens = self.m.fold_tokens(from, to);
        let names = index::names(text, usize::MAX, self.m.names_chars(true));
        frame(|f| {
            f.text(|p| index::body(p, index::What::Span { from, to }, tokens, "", &names));
        })
    }

    /// What part `part` of message `message`, stored, is in one line (`index::body`) over
    /// `[id, label]`: `text` is its whole text (its names are read from it), `args` its
    /// call's arguments for a result ("" otherwise), `media` an image's `[width, height]`
    /// or a document's `[pages]` as measured (empty otherwise).
    pub fn index_body(
        &self,
        message: usize,
        part: usize,
        text: &str,
        args: &str,
        media: &[f64],
    ) -> String {
        let p = *self.m.part(message, part);
        let names = if p.kind.media() {
            Vec::new()
        } else {
            index::names(text, index::MAX_NAMES, self.m.names_chars(false))
        };
        let (what, description) = what_of(p.kind, args, media, || index::one_line(text, 100));
        frame(|f| {
            f.text(|pieces| index::body(pieces, what, p.tokens, &description, &names));
        })
    }

    /// The body a placeholder of part `part` of message `message` shows, over `[id,
    /// label]`: what `index_body` says but the names, so a masked output stays one short
    /// line. `args`: its call's arguments for a result ("" otherwise); `media` as for
    /// `index_body`.
    pub fn placeholder_body(
        &self,
        message: usize,
        part: usize,
        args: &str,
        media: &[f64],
    ) -> String {
        let p = *self.m.part(message, part);
        let (what, description) = what_of(p.kind, args, media, String::new);
        frame(|f| {
            f.text(|pieces| index::body(pieces, what, p.tokens, &description, &[]));
        })
    }

    /// The error a build is refused with when nothing more can go (`Need::TooLarge`):
    /// `field` names the part as the host wrote it.
    pub fn too_large(&self, message: usize, part: usize, field: &str) -> Out<()> {
        Err(crate::fail(self.m.too_large(message, part, field)))
    }

    /// The body of the transcript of messages `from..to`, over `[id, label]`.
    pub fn span_body(&self, from: usize, to: usize, text: &str) -> String {
        let tokens = self.m.fold_tokens(from, to);
        let names = index::names(text, usize::MAX, self.m.names_chars(true));
        frame(|f| {
            f.text(|p| index::body(p, index::What::Span { from, to }, tokens, "", &names));
        })
    }

    /// The store ids the index names, in the order it lists them, one text each.
    pub fn index_ids(&self) -> String {
        frame(|f| {
            for id in self.m.index.ids() {
                f.text(|p| {
                    p.lit(id);
                });
            }
        })
    }

    /// What to do with a recall of `id` (`offset`, `length`, `query`: NaN, NaN, "" for
    /// none), opening with a `recall::CheckCode`: `[Unknown]` refuse it (not this
    /// manager's id), `[Repeat, call]` the same page is the result of `call` already,
    /// `[Read, units]` read it, a page of at most `units`.
    pub fn recall_check(&self, id: &str, offset: f64, length: f64, query: &str) -> Vec<f64> {
        let check = self.m.recall_check(id, &ask(offset, length, query));
        let code = f64::from(check.code().code());
        match check {
            recall::Check::Unknown => vec![code],
            recall::Check::Repeat { call } => vec![code, f64::from(call)],
            recall::Check::Read => vec![code, self.m.recall_units() as f64],
        }
    }

    /// Whether an image or a document of `tokens` may be given back whole by a recall.
    pub fn recall_media_fits(&self, tokens: f64) -> bool {
        self.m.recall_media_fits(tokens)
    }

    /// An answer of a page of at most `units` came to `tokens`: 0 when it fits a part's
    /// share of the budget, else the units to try instead.
    pub fn recall_fit(&self, units: usize, tokens: f64) -> usize {
        self.m.recall_fit(units, tokens).unwrap_or(0)
    }

    /// The record of the build in flight, as JSON.
    pub fn ledger(&mut self, ms: f64, counter: &str) -> String {
        self.m.record.ms = ms;
        self.m.record.counter = counter.into();
        self.m.record.to_json()
    }

    /// Whether a build planned now would compact (`Manager::compaction_due`): what the
    /// host's `beforeCompaction` is asked before.
    /// Its trigger's name (`highWater`, `asked`), or `''`.
    pub fn compaction_due(&self) -> String {
        self.m.compaction_due().map_or("", |t| t.name()).into()
    }

    /// Of the protected texts a summary would carry (their tokens, newest first), how many
    /// it carries; fewer than all is warned in the build's record.
    pub fn carried(&mut self, tokens: &[f64]) -> usize {
        self.m.carried(tokens)
    }

    /// Of what the user wrote in the turns a summary folds (their tokens, newest first), how
    /// many texts it carries in the room its share leaves beside its own `used` tokens.
    pub fn user_carried(&self, tokens: &[f64], used: f64) -> usize {
        self.m.user_carried(tokens, used)
    }

    /// `[overhead, ratio, samples]`.
    pub fn calibration(&self) -> Vec<f64> {
        let c = &self.m.calibration;
        vec![c.overhead, c.ratio, c.samples() as f64, c.media_ratio]
    }

    /// The figures the shell reads after a step, in the order `statusOf` in
    /// `pkg/src/context/history.ts` names them: first live message, the pinned opening
    /// `[start, end)` (never let go), calls folded away (their ids let go; not those of the
    /// pinned messages, `Manager::kept_call_ids`), 1 if a summary is held, messages, calls,
    /// tokens. `commit` returns them too, so a build reads them in the crossing that ends it.
    pub fn status(&self) -> Vec<f64> {
        let o = self.m.opening();
        vec![
            self.m.first_live as f64,
            o.start as f64,
            o.end as f64,
            self.m.kept_call_ids() as f64,
            f64::from(u8::from(self.m.summary_tokens > 0.0)),
            self.m.history.messages.len() as f64,
            self.m.history.calls.len() as f64,
            self.m.tokens(),
        ]
    }

    /// Each message kept, as `index, role, parts`, then `kind, call + 1 (0: none)` per
    /// part, in order: what the shell checks its own copy against once restored.
    pub fn shapes(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for (i, m) in self.m.history.messages.kept() {
            out.extend([i as u32, m.role as u32, m.parts.len() as u32]);
            for p in &m.parts {
                out.extend([p.kind as u32, p.call.map_or(0, |c| c + 1)]);
            }
        }
        out
    }
}

/// The words after a refused part's field name.
/// What a stored part is, for its line: an output (with its call's arguments described),
/// an image or a document (its size as measured), or a text (`text()` described).
fn what_of(
    kind: Kind,
    args: &str,
    media: &[f64],
    text: impl FnOnce() -> String,
) -> (index::What, String) {
    let at = |i: usize| media.get(i).copied().unwrap_or(0.0);
    match kind {
        Kind::Result => (index::What::Output, index::describe(args)),
        Kind::Image => (
            index::What::Image {
                width: at(0) as u32,
                height: at(1) as u32,
            },
            String::new(),
        ),
        Kind::Document => (
            index::What::Document {
                pages: at(0) as u64,
            },
            String::new(),
        ),
        _ => (index::What::Text, text()),
    }
}

/// Where the first event out of a build's shape is, among `tags` (a journal's events' tags,
/// or a call log's as events), -1 for none (`migrate::misshapen`).
#[wasm_bindgen(js_name = misshapen)]
pub fn misshapen(tags: &[u8]) -> i32 {
    devs_context_rules::context::migrate::misshapen(tags).map_or(-1, |i| i as i32)
}

/// Whether data that failed to replay is rebuilt: written by earlier rules (`decisions`,
/// NaN when it says none) and shaped as builds (`migrate::migratable`).
#[wasm_bindgen(js_name = migratable)]
pub fn migratable(decisions: f64, shaped: bool) -> bool {
    let d = (decisions.is_finite() && decisions >= 0.0).then_some(decisions as u32);
    devs_context_rules::context::migrate::migratable(d, shaped)
}

/// The ids a journal's events stored and recalled (`journal`: its bytes), one text each;
/// none for bytes that are not a journal: what a rebuilt session keeps its own (`migrate`).
#[wasm_bindgen(js_name = journalIds)]
pub fn journal_ids(bytes: &[u8]) -> String {
    use devs_context_rules::context::journal::{self, Event};
    let events = journal::decode(bytes).unwrap_or_default();
    frame(|f| {
        for e in &events {
            let id = match e {
                Event::Stored { id, .. }
                | Event::SpanStored { id, .. }
                | Event::Listed { id, .. }
                | Event::Merged { id, .. } => id.as_deref(),
                Event::Recalled { id, .. } => Some(id.as_str()),
                _ => None,
            };
            if let Some(id) = id {
                f.text(|p| {
                    p.lit(id);
                });
            }
        }
    })
}

/// The ids a manager's encoded state (`state`) holds its own, one text each; none for bytes
/// that are not a state.
#[wasm_bindgen(js_name = stateIds)]
pub fn state_ids(bytes: &[u8]) -> String {
    let ids: Vec<String> = Manager::ids_of_state(bytes);
    frame(|f| {
        for id in &ids {
            f.text(|p| {
                p.lit(id);
            });
        }
    })
}

/// The tags of a journal's events (`journal`: its bytes), as `misshapen` reads them; empty
/// for bytes that are not a journal.
#[wasm_bindgen(js_name = journalTags)]
pub fn journal_tags(bytes: &[u8]) -> Vec<u8> {
    use devs_context_rules::context::journal;
    journal::decode(bytes).map_or(Vec::new(), |events| journal::Event::tags(&events))
}

/// What a request's input cost in uncached input tokens (`policy::billed`): a summarizer
/// call's, from its usage.
#[wasm_bindgen(js_name = billedInput)]
pub fn billed_input(input: f64, read: f64, write: f64) -> f64 {
    devs_context_rules::context::policy::billed(input, read, write)
}

#[wasm_bindgen(js_name = rejectionWords)]
pub fn rejection_words(code: u8) -> String {
    Rejection::from_code(code)
        .map_or("is not allowed here", Rejection::words)
        .into()
}

/// A recall as the rules read it: NaN and "" for what was not asked.
pub(crate) fn ask(offset: f64, length: f64, query: &str) -> recall::Ask {
    let whole = |v: f64| (v.is_finite() && v >= 0.0).then_some(v as usize);
    recall::Ask {
        offset: whole(offset).unwrap_or(0),
        length: whole(length).filter(|&l| l > 0),
        query: (!query.is_empty()).then(|| recall::capped_query(query)),
    }
}

/// The answer to a recall of `text`, at most `max` units of it, over `[text, id, label]`.
#[wasm_bindgen(js_name = recallAnswer)]
pub fn recall_answer(text: &str, offset: f64, length: f64, query: &str, max: usize) -> String {
    let units = devs_context_rules::base::cut::Units::of(text);
    frame(|f| {
        f.text(|p| recall::answer(p, &units, &ask(offset, length, query), max));
    })
}

/// A recall that gives no text, over `[id, detail]` of `id_units` and `detail_units`
/// (each echoed only so far), `why` a `recall::Refusal`'s code (an unknown one is read as
/// a bad input).
#[wasm_bindgen(js_name = recallRefusal)]
pub fn recall_refusal(why: u8, id_units: usize, detail_units: usize) -> String {
    let why = recall::Refusal::from_code(why).unwrap_or(recall::Refusal::BadInput);
    frame(|f| {
        f.text(|p| recall::refusal(p, why, id_units, detail_units));
    })
}

/// A call's input `text` shortened as the JSON its tool takes (`shorten::shorten`): cut to
/// about `keep` units, or, for NaN, each long string replaced by a mark naming `id` (the
/// store id of the whole input; `undefined` for none). A frame of one number, 1 when the
/// text is JSON, and then the shortened text over `[text]`.
#[wasm_bindgen(js_name = shortenCall)]
pub fn shorten_call(text: &str, keep: f64, id: Option<String>) -> String {
    use devs_context_rules::context::shorten;
    let units: Vec<u16> = text.encode_utf16().collect();
    let mode = if keep.is_finite() && keep >= 0.0 {
        shorten::Mode::Cut {
            keep: keep as usize,
        }
    } else {
        shorten::Mode::Mask
    };
    let ok = shorten::parses(&units);
    frame(|f| {
        f.flag(ok);
        if ok {
            f.text(|p| {
                shorten::shorten(p, &units, mode, id.as_deref());
            });
        }
    })
}

/// The heading of a recalled image (`image` true) or document, over `[id, media type]`;
/// `carried`: the provider's tool result can hold it.
#[wasm_bindgen(js_name = recallMediaHeading)]
pub fn recall_media_heading(
    image: bool,
    width: f64,
    height: f64,
    pages: f64,
    carried: bool,
) -> String {
    frame(|f| {
        f.text(|p| recall::media_heading(p, image, width, height, pages, carried));
    })
}

/// A head-and-tail cut over `[text, storeId]`, on line breaks where near and off surrogate
/// pairs: `head_window` holds units `head - LINE_WINDOW ..= head`, `tail_window` units
/// `units - tail - 1 ..= units - tail + LINE_WINDOW` (`render::LINE_WINDOW`, `cutWindow()`).
/// The frame holds the head and tail kept, then the text.
#[wasm_bindgen(js_name = cutText)]
pub fn cut_text(
    units: usize,
    head: usize,
    head_window: &str,
    tail: usize,
    tail_window: &str,
    stored: bool,
) -> String {
    let head_probe = probe(head_window, head.saturating_sub(render::LINE_WINDOW));
    let tail_probe = probe(tail_window, units.saturating_sub(tail).saturating_sub(1));
    let (head, tail) = render::cut_bounds(head, &head_probe, tail, &tail_probe, units);
    let mut f = Frame::new();
    f.num(head as f64).num(tail as f64);
    f.text(|p| render::cut_text(p, units, head, tail, stored));
    f.into_string()
}
