//! The bounded prompt's machine and its texts (`AgentRunner`'s `bounded` option).

use devs_context_rules::bound::{self, Bound, Config, Kind, Need, Part, Which};
use devs_context_rules::frame::Frame;
use devs_context_rules::text::cut_end;
use wasm_bindgen::prelude::*;

use crate::{Out, frame, probe, report};

#[wasm_bindgen]
pub struct BoundCore(Bound);

/// `[code, a, b, c]`: see `pkg/src/bounded.ts` for the codes.
fn need(n: Need) -> Vec<f64> {
    match n {
        Need::Persist { item } => vec![0.0, item as f64],
        Need::Placeholder { item } => vec![1.0, item as f64],
        Need::Cut {
            item,
            which,
            head,
            tail,
        } => {
            vec![
                2.0 + f64::from(u8::from(which == Which::Output)),
                item as f64,
                head as f64,
                tail as f64,
            ]
        }
        Need::Summarize { from, to } => vec![4.0, from as f64, to as f64],
        Need::Done => vec![5.0],
    }
}

#[wasm_bindgen]
impl BoundCore {
    #[wasm_bindgen(constructor)]
    pub fn new(
        budget: f64,
        recent_items: Option<f64>,
        part_share: Option<f64>,
        summarizer_share: Option<f64>,
        pinned_tokens: f64,
    ) -> Out<BoundCore> {
        let config = report(Config::new(
            budget,
            recent_items,
            part_share,
            summarizer_share,
        ))?;
        Ok(BoundCore(report(Bound::new(config, pinned_tokens))?))
    }

    pub fn repin(&mut self, pinned_tokens: f64) -> Out<()> {
        report(self.0.repin(pinned_tokens))
    }

    /// Adds an item (`kind` 0 user, 1 assistant, 2 tool); returns its index.
    #[allow(clippy::too_many_arguments)]
    pub fn add(
        &mut self,
        kind: u8,
        turn: u32,
        text_units: usize,
        text_tokens: f64,
        has_output: bool,
        output_units: usize,
        output_tokens: f64,
    ) -> usize {
        let output = has_output.then(|| Part::new(output_units, output_tokens));
        self.0.add(
            Kind::from_code(kind),
            turn,
            Part::new(text_units, text_tokens),
            output,
        )
    }

    pub fn begin(&mut self) {
        self.0.begin();
    }

    pub fn commit(&mut self) {
        self.0.commit();
    }

    pub fn rollback(&mut self) {
        self.0.rollback();
    }

    pub fn plan(&mut self) -> Out<Vec<f64>> {
        Ok(need(report(self.0.plan())?))
    }

    pub fn persisted(&mut self, ok: bool) -> Vec<f64> {
        need(self.0.persisted(ok))
    }

    pub fn measured(&mut self, tokens: f64) -> Vec<f64> {
        need(self.0.measured(tokens))
    }

    pub fn summarized(&mut self, tokens: f64) -> Vec<f64> {
        need(self.0.summarized(tokens))
    }

    pub fn summary_failed(&mut self) -> Vec<f64> {
        need(self.0.summary_failed())
    }

    /// No summarizer: the history that does not fit is dropped.
    pub fn no_summarizer(&mut self) -> Vec<f64> {
        need(self.0.no_summarizer())
    }

    #[wasm_bindgen(getter)]
    pub fn first_live(&self) -> usize {
        self.0.first_live
    }

    #[wasm_bindgen(getter)]
    pub fn len(&self) -> usize {
        self.0.items.len()
    }

    #[wasm_bindgen(getter)]
    pub fn has_summary(&self) -> bool {
        self.0.summary_tokens > 0.0
    }

    #[wasm_bindgen(getter)]
    pub fn prompt_tokens(&self) -> f64 {
        self.0.prompt_tokens()
    }

    #[wasm_bindgen(getter)]
    pub fn raw_tokens(&self) -> f64 {
        self.0.raw_tokens()
    }

    /// The whole tokens of item `i`'s output (what a placeholder stands for).
    pub fn output_tokens(&self, i: usize) -> f64 {
        self.0
            .items
            .get(i)
            .and_then(|it| it.output)
            .map_or(0.0, |o| o.tokens)
    }

    /// `[overhead, ratio, samples]`.
    pub fn calibration(&self) -> Vec<f64> {
        let c = &self.0.calibration;
        vec![c.overhead, c.ratio, c.samples() as f64]
    }

    /// Forgets what the provider reported: the next prompts are counted as ours.
    pub fn reset_calibration(&mut self) {
        self.0.calibration.reset();
    }

    /// Learns from the provider's count of the prompt we counted as `raw`.
    pub fn observe(&mut self, raw: f64, reported: f64) -> Out<()> {
        report(self.0.calibration.observe(raw, reported))
    }

    /// The prompt over `[goal, plan, pins, summary, (text, output, tool) per live item]`.
    pub fn render(&self, has_pins: bool) -> String {
        frame(|f| {
            f.text(|p| self.0.render(p, has_pins));
        })
    }

    /// The summarizer's prompt for items `from..to` over
    /// `[summary so far, (text, output, tool) per item]`.
    pub fn summarizer_prompt(&self, from: usize, to: usize) -> String {
        frame(|f| {
            f.text(|p| bound::summarizer_prompt(p, &self.0, from, to));
        })
    }

    pub fn ledger(&self) -> String {
        self.0.ledger_json()
    }
}

/// A placeholder over `[toolName, call, storeId, status]`; the call's probe is units
/// `call_start..` of it (see `text::Probe`).
#[wasm_bindgen(js_name = placeholderText)]
pub fn placeholder_text(output_tokens: f64, call_window: &str, call_start: usize) -> String {
    let end = cut_end(
        &probe(call_window, call_start),
        bound::PLACEHOLDER_CALL_CHARS,
        false,
    );
    frame(|f| {
        f.text(|p| bound::placeholder(p, output_tokens, end));
    })
}

/// A head-and-tail cut over `[text, storeId]`, off surrogate pairs: `head_window` holds
/// units `head - 1 ..= head`, `tail_window` units `units - tail - 1 ..= units - tail`.
#[allow(clippy::too_many_arguments)]
#[wasm_bindgen(js_name = cutText)]
pub fn cut_text(
    units: usize,
    head: usize,
    head_window: &str,
    tail: usize,
    tail_window: &str,
    stored: bool,
) -> String {
    let head_probe = probe(head_window, head.saturating_sub(1));
    let tail_probe = probe(tail_window, units.saturating_sub(tail).saturating_sub(1));
    let (head, tail) = bound::cut_bounds(head, &head_probe, tail, &tail_probe, units);
    let mut f = Frame::new();
    f.num(head as f64).num(tail as f64);
    f.text(|p| bound::cut_text(p, units, head, tail, stored));
    f.into_string()
}

/// The bound's defaults: `[recentItems, partShare, summarizerShare, summaryShare]`.
#[wasm_bindgen(js_name = boundDefaults)]
pub fn bound_defaults() -> Vec<f64> {
    vec![
        bound::DEFAULT_RECENT_ITEMS as f64,
        bound::DEFAULT_PART_SHARE,
        bound::DEFAULT_SUMMARIZER_SHARE,
        bound::DEFAULT_SUMMARY_SHARE,
    ]
}
