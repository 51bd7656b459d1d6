//! `WindowComposer`: Goal, Map and Recent Past under a token budget ([3_MCP-TAS-047]).

use js_sys::{Array, Date, JSON, JsString, Object};
use wasm_bindgen::prelude::*;

use super::budget::{budget_object, read_budget};
use super::js::{self, JsNode, JsResult, js};
use super::saop::INVALID_ENVELOPE;
use super::text::{cut, js_string};
use super::tokens::Counter;
use super::window::array;
use crate::js_errors::with_code;
use crate::rules::budget::WindowBudget;
use crate::rules::composer::{
    Candidate, DEFAULT_MAX_RECENT_ENVELOPES, clamp_max_recent, newest_first, select_recent,
};
use crate::rules::saop::validate_envelope;

#[wasm_bindgen(raw_module = "../../src/runtime.js")]
extern "C" {
    #[wasm_bindgen(js_name = readNumbers)]
    fn read_numbers(items: &Array, key: &str) -> js_sys::Float64Array;
}

/// Between envelopes in the Recent Past slot.
const SEPARATOR: &str = "\n";

/// Composes the window in a fixed order on every turn: Goal, then Map, then Recent Past.
#[wasm_bindgen]
pub struct WindowComposer {
    budget: WindowBudget,
    max_recent: usize,
    counter: Counter,
}

#[wasm_bindgen]
impl WindowComposer {
    /// `maxRecentEnvelopes` defaults to 10 and is clamped to 1..10.
    /// @throws {TypeError|RangeError} naming the budget share or option at fault.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "WindowBudget")] budget: JsValue,
        #[wasm_bindgen(unchecked_param_type = "WindowComposerOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> JsResult<WindowComposer> {
        let budget = read_budget("budget", &budget)?;
        let options = options.unwrap_or_default();
        let (max_recent, counter) = if options.is_undefined() {
            (DEFAULT_MAX_RECENT_ENVELOPES, Counter::Approx)
        } else {
            js(js::object("options", &options))?;
            let max = match js(js::optional_number(
                "options.maxRecentEnvelopes",
                &js::get(&options, "maxRecentEnvelopes")?,
            ))? {
                None => DEFAULT_MAX_RECENT_ENVELOPES,
                Some(n) => js(clamp_max_recent("options.maxRecentEnvelopes", n))?,
            };
            (
                max,
                Counter::from_option(js::get(&options, "countTokens")?, "options.countTokens")?,
            )
        };
        Ok(Self {
            budget,
            max_recent,
            counter,
        })
    }

    #[wasm_bindgen(getter, unchecked_return_type = "WindowBudget")]
    pub fn budget(&self) -> JsValue {
        budget_object(&self.budget)
    }

    #[wasm_bindgen(getter, js_name = maxRecentEnvelopes)]
    pub fn max_recent_envelopes(&self) -> usize {
        self.max_recent
    }

    /// Slots in order `goal`, `map`, `recent_past`. A Goal or Map over its budget is cut to
    /// `budget * 4` characters, at the last space where there is one, and marked
    /// `truncated`. Recent Past takes envelopes newest first by `turn_index`, at most
    /// `maxRecentEnvelopes`, greedily while they fit, and lists them oldest first as JSON,
    /// one per line; if even the newest does not fit, it goes in with its
    /// `observation.output` cut, so an action is never shown without its observation.
    /// @throws {TypeError} naming the bad field, e.g. `envelopes[2].observation.status`.
    #[wasm_bindgen(unchecked_return_type = "ComposedWindow")]
    pub fn compose(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] goal: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] map: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SaopEnvelope[]")] envelopes: JsValue,
    ) -> JsResult<JsValue> {
        let goal = js_string("goal", &goal)?;
        let map = js_string("map", &map)?;
        let envelopes = js(array("envelopes", &envelopes))?;
        let now = Date::now();
        let slots = [
            self.text_slot("goal", &goal, self.budget.goal, now)?,
            self.text_slot("map", &map, self.budget.map, now)?,
            self.recent_past_slot(&envelopes, now)?,
        ];
        let total: f64 = slots.iter().map(|(_, tokens)| tokens).sum();
        let window = Object::new();
        js::set(
            &window,
            "slots",
            &slots
                .iter()
                .map(|(slot, _)| slot.clone())
                .collect::<Array>(),
        );
        js::set(&window, "totalTokensUsed", &total.into());
        js::set(
            &window,
            "budgetExceeded",
            &(total > self.budget.total).into(),
        );
        Ok(window.into())
    }
}

impl WindowComposer {
    fn text_slot(
        &self,
        kind: &str,
        text: &JsString,
        budget: f64,
        now: f64,
    ) -> JsResult<(JsValue, f64)> {
        let tokens = self.counter.count(text, kind)?;
        if tokens <= budget {
            return Ok((slot(kind, text, tokens, now, false), tokens));
        }
        let (content, _) = cut(text, (budget * 4.0) as usize, true);
        let tokens = self.counter.count(&content, kind)?;
        Ok((slot(kind, &content, tokens, now, true), tokens))
    }

    fn recent_past_slot(&self, envelopes: &Array, now: f64) -> JsResult<(JsValue, f64)> {
        let turn_indexes = read_numbers(envelopes, "turn_index").to_vec();
        if let Some(i) = turn_indexes.iter().position(|n| n.is_nan()) {
            // Not a number: the validator names the exact fault.
            checked(i, &envelopes.get(i as u32))?;
        }
        // Only the newest few can appear: validate and render just those.
        let order = newest_first(&turn_indexes, self.max_recent);
        let mut rendered = Vec::with_capacity(order.len());
        let mut candidates = Vec::with_capacity(order.len());
        for &i in &order {
            let envelope = envelopes.get(i as u32);
            checked(i, &envelope)?;
            let text = render(&envelope)?;
            let tokens = self
                .counter
                .count(&text.concat(&SEPARATOR.into()), "envelope")?;
            candidates.push(Candidate {
                turn_index: turn_indexes[i],
                tokens,
            });
            rendered.push((envelope, text));
        }
        let selection = select_recent(&candidates, self.max_recent, self.budget.recent_past);
        let mut parts: Vec<JsString> = selection
            .taken
            .iter()
            .map(|&i| rendered[i].1.clone())
            .collect();
        if let Some(i) = selection.cut_newest {
            parts.push(self.cut_envelope(&rendered[i].0)?);
        }
        let content = parts
            .iter()
            .enumerate()
            .fold(JsString::from(""), |acc, (n, part)| {
                if n == 0 {
                    part.clone()
                } else {
                    acc.concat(&SEPARATOR.into()).concat(part)
                }
            });
        let tokens = self.counter.count(&content, "recent_past")?;
        Ok((
            slot("recent_past", &content, tokens, now, selection.truncated),
            tokens,
        ))
    }

    /// The envelope with `observation.output` cut so that the whole fits the slot.
    fn cut_envelope(&self, envelope: &JsValue) -> JsResult<JsString> {
        let observation = js::get(envelope, "observation")?;
        let output = js_string("observation.output", &js::get(&observation, "output")?)?;
        let with_output = |text: &JsString| -> JsResult<JsString> {
            let obs = js::shallow_copy(&observation);
            js::set(&obs, "output", text);
            let copy = js::shallow_copy(envelope);
            js::set(&copy, "observation", &obs);
            render(&copy.into())
        };
        let frame = self
            .counter
            .count(&with_output(&JsString::from(""))?.into(), "envelope")?;
        let room = ((self.budget.recent_past - frame).max(0.0) * 4.0) as usize;
        with_output(&cut(&output, room, false).0)
    }
}

/// Validates `envelopes[i]`, naming the field at fault as `envelopes[i].observation.status`.
fn checked(i: usize, envelope: &JsValue) -> JsResult<()> {
    validate_envelope(&JsNode(envelope.clone())).map_err(|mut err| {
        err.field = format!("envelopes[{i}].{}", err.field).replace(".envelope", "");
        with_code(err, INVALID_ENVELOPE)
    })
}

fn render(envelope: &JsValue) -> JsResult<JsString> {
    JSON::stringify(envelope)
}

fn slot(kind: &str, content: &JsString, tokens: f64, now: f64, truncated: bool) -> JsValue {
    let slot = Object::new();
    js::set(&slot, "kind", &kind.into());
    js::set(&slot, "content", content);
    js::set(&slot, "tokenCount", &tokens.into());
    js::set(&slot, "timestampMs", &now.into());
    js::set(&slot, "truncated", &truncated.into());
    slot.into()
}
