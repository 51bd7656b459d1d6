//! The context manager's machine (`ContextManager`): plain data in and out. The codes the
//! shell reads (a need's kind, a plan's ops, a part's kind and role, a recall's check) are
//! the rules' own (`devs_context_rules::base::codes`), which `crates/protocol` writes into
//! the shell's `pkg/src/core/protocol.ts`; a need and a plan are encoded by the rules too.

use devs_context_errors::FieldError;
use devs_context_rules::base::text::split_texts;
use devs_context_rules::context::config::{Config, Options};
use devs_context_rules::context::{Manager, journal, migrate, recall, render};
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

    /// The error a build is refused with when nothing more can go (`Need::TooLarge`):
    /// `field` names the part as the host wrote it.
    pub fn too_large(&self, message: usize, part: usize, field: &str) -> Out<()> {
        Err(crate::fail(self.m.too_large(message, part, field)))
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

    /// The heading an image (`image` true) or a document of `tokens` is given back under by
    /// a recall, over `[id, media type]` (`carried`: the provider's tool result can hold it);
    /// none when it may not be given back whole.
    pub fn recall_media(
        &self,
        tokens: f64,
        image: bool,
        width: f64,
        height: f64,
        pages: f64,
        carried: bool,
    ) -> Option<String> {
        self.m.recall_media_fits(tokens).then(|| {
            frame(|f| {
                f.text(|p| recall::media_heading(p, image, width, height, pages, carried));
            })
        })
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

    /// The figures the shell reads after a step, in the order `statusOf` in
    /// `pkg/src/context/history.ts` names them: first live message, the pinned opening
    /// `[start, end)` (never let go), calls folded away (their ids let go; not those of the
    /// pinned messages, `Manager::kept_call_ids`), 1 if a summary is held, messages, calls,
    /// tokens, then the calibration's overhead, ratio, samples and media ratio. `commit`
    /// returns them too, so a build reads them in the crossing that ends it.
    pub fn status(&self) -> Vec<f64> {
        let o = self.m.opening();
        let c = &self.m.calibration;
        vec![
            self.m.first_live as f64,
            o.start as f64,
            o.end as f64,
            self.m.kept_call_ids() as f64,
            f64::from(u8::from(self.m.summary_tokens > 0.0)),
            self.m.history.messages.len() as f64,
            self.m.history.calls.len() as f64,
            self.m.tokens(),
            c.overhead,
            c.ratio,
            c.samples() as f64,
            c.media_ratio,
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

/// What a request's input cost in uncached input tokens (`policy::billed`): a summarizer
/// call's, from its usage.
#[wasm_bindgen(js_name = billedInput)]
pub fn billed_input(input: f64, read: f64, write: f64) -> f64 {
    devs_context_rules::context::policy::billed(input, read, write)
}

/// Each journal of `joined` (their lengths `lens`), decoded; none of one that is not a journal.
fn journals(joined: &[u8], lens: &[u32]) -> Vec<journal::Event> {
    let mut at = 0;
    let mut out = Vec::new();
    for &n in lens {
        let end = (at + n as usize).min(joined.len());
        out.extend(journal::decode(&joined[at..end]).unwrap_or_default());
        at = end;
    }
    out
}

/// Whether data that failed to replay is rebuilt (`migrate::migratable`): written by
/// earlier rules (`decisions`, NaN when it says none) and shaped as builds
/// (`migrate::misshapen`), read from the tags of its format-1 log's calls (`log_tags`),
/// then of its journals' events (`joined`, `lens` each one's length).
#[wasm_bindgen(js_name = migratable)]
pub fn migratable(decisions: f64, log_tags: &[u8], joined: &[u8], lens: &[u32]) -> bool {
    let mut tags = log_tags.to_vec();
    tags.extend(journal::Event::tags(&journals(joined, lens)));
    let shaped = migrate::misshapen(&tags).is_none();
    let d = (decisions.is_finite() && decisions >= 0.0).then_some(decisions as u32);
    migrate::migratable(d, shaped)
}

/// The ids old data holds its own, one text each: those its journals' events stored and
/// recalled (`joined`, `lens` as for `migratable`), then those its encoded `state` holds
/// (none of bytes that are not a journal or a state): what a rebuilt session keeps (`migrate`).
#[wasm_bindgen(js_name = heldIds)]
pub fn held_ids(joined: &[u8], lens: &[u32], state: &[u8]) -> String {
    use journal::Event;
    let stored = journals(joined, lens).into_iter().filter_map(|e| match e {
        Event::Stored { id, .. }
        | Event::SpanStored { id, .. }
        | Event::Listed { id, .. }
        | Event::Merged { id, .. } => id,
        Event::Recalled { id, .. } => Some(id),
        _ => None,
    });
    let ids: Vec<String> = stored.chain(Manager::ids_of_state(state)).collect();
    frame(|f| {
        for id in &ids {
            f.text(|p| {
                p.lit(id);
            });
        }
    })
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
