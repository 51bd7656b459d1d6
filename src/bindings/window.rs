//! Seed 001: `SlidingRelevanceWindow` and `SpecRefreshProtocol`.

use js_sys::{Array, Date, Object};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use super::js::{self, JsResult, js};
use crate::rules::args::{FieldError, whole_number};
use crate::rules::window::{
    DEFAULT_MAX_TURNS, injection_content, should_inject_spec, window_start,
};

/// Keeps the newest `maxTurns` turns (default 20) of a conversation.
#[wasm_bindgen]
pub struct SlidingRelevanceWindow {
    max_turns: usize,
}

#[wasm_bindgen]
impl SlidingRelevanceWindow {
    /// @throws {RangeError} when `config.maxTurns` is not a whole number >= 1.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Partial<SlidingRelevanceWindowConfig> | undefined")]
        config: Option<JsValue>,
    ) -> JsResult<SlidingRelevanceWindow> {
        let config = config.unwrap_or_default();
        let max_turns = if config.is_undefined() {
            None
        } else {
            Some(js::get(&config, "maxTurns")?)
        };
        Ok(Self {
            max_turns: max_turns_option("config.maxTurns", max_turns.unwrap_or_default())?,
        })
    }

    #[wasm_bindgen(getter, js_name = maxTurns)]
    pub fn max_turns(&self) -> usize {
        self.max_turns
    }

    /// `{ taskGoal, turns, specInjected: false }` where `turns` is a new array holding the
    /// last `maxTurns` entries of `turns` (most recent first priority). The input array
    /// is never mutated.
    #[wasm_bindgen(unchecked_return_type = "ContextWindow")]
    pub fn compose(
        &self,
        #[wasm_bindgen(unchecked_param_type = "TurnEntry[]")] turns: JsValue,
        #[wasm_bindgen(js_name = taskGoal, unchecked_param_type = "string")] task_goal: JsValue,
    ) -> JsResult<JsValue> {
        compose_window(self.max_turns, &turns, &task_goal)
    }

    /// `true` on turn counts 10, 20, 30…: when the specs are due again.
    #[wasm_bindgen(js_name = shouldInjectSpec)]
    pub fn should_inject_spec(
        &self,
        #[wasm_bindgen(js_name = turnCount, unchecked_param_type = "number")] turn_count: JsValue,
    ) -> JsResult<bool> {
        spec_due(&turn_count)
    }
}

/// `true` on turn counts 10, 20, 30…: when the specs are due again. Also available as
/// the static `SlidingRelevanceWindow.shouldInjectSpec`, which the seed calls.
#[wasm_bindgen(js_name = shouldInjectSpec)]
pub fn should_inject_spec_static(
    #[wasm_bindgen(js_name = turnCount, unchecked_param_type = "number")] turn_count: JsValue,
) -> JsResult<bool> {
    spec_due(&turn_count)
}

/// Reads an optional `maxTurns`: `undefined` gives the default of 20.
pub fn max_turns_option(field: &str, value: JsValue) -> JsResult<usize> {
    match js(js::optional_number(field, &value))? {
        None => Ok(DEFAULT_MAX_TURNS),
        Some(n) => Ok(js(whole_number(field, n, 1))? as usize),
    }
}

pub fn spec_due(turn_count: &JsValue) -> JsResult<bool> {
    let n = js(js::number("turnCount", turn_count))?;
    if n.is_finite() && n.fract() == 0.0 && n <= 0.0 {
        return Ok(false);
    }
    Ok(should_inject_spec(js(whole_number("turnCount", n, 0))?))
}

pub fn compose_window(max_turns: usize, turns: &JsValue, task_goal: &JsValue) -> JsResult<JsValue> {
    let turns = js(array("turns", turns))?;
    let task_goal = js(js::string("taskGoal", task_goal))?;
    let start = window_start(turns.length() as usize, max_turns);
    Ok(context_window(
        &task_goal.into(),
        &turns.slice(start as u32, turns.length()),
        false,
    ))
}

fn context_window(task_goal: &JsValue, turns: &Array, spec_injected: bool) -> JsValue {
    let window = Object::new();
    js::set(&window, "taskGoal", task_goal);
    js::set(&window, "turns", turns);
    js::set(&window, "specInjected", &spec_injected.into());
    window.into()
}

pub fn array(field: &str, value: &JsValue) -> Result<Array, FieldError> {
    if Array::is_array(value) {
        // A cast, not `Array::from`, which would copy the whole array through `Array.from`.
        Ok(value.clone().unchecked_into())
    } else {
        Err(FieldError::type_error(
            field,
            format!("must be an array, got {}", js::describe(value)),
        ))
    }
}

/// Builds and prepends the `[SPEC REFRESH]` turn every 10 turns.
#[wasm_bindgen]
pub struct SpecRefreshProtocol {}

impl Default for SpecRefreshProtocol {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen]
impl SpecRefreshProtocol {
    #[wasm_bindgen(constructor)]
    pub fn new() -> SpecRefreshProtocol {
        Self {}
    }

    /// A `user` turn (`turnIndex: -1`, `agentId: 'system'`) whose content is
    /// `[SPEC REFRESH]\n\n` followed by `## NAME\nCONTENT\n` for each document, each
    /// content cut to 3000 UTF-16 units without splitting a surrogate pair.
    #[wasm_bindgen(js_name = buildInjectionTurn, unchecked_return_type = "TurnEntry")]
    pub fn build_injection_turn(
        &self,
        #[wasm_bindgen(js_name = specDocuments, unchecked_param_type = "SpecDocument[]")]
        spec_documents: JsValue,
    ) -> JsResult<JsValue> {
        let docs = spec_documents_of("specDocuments", &spec_documents)?;
        Ok(injection_turn(&injection_content(
            docs.iter().map(|(n, c)| (n.as_str(), c.as_str())),
        )))
    }

    /// `window` itself when the specs are not due on `turnCount`; otherwise a new window
    /// with the injection turn prepended and `specInjected: true`. Spec content goes
    /// before the history for positional salience. The result may hold `maxTurns + 1`
    /// turns: the spec turn plus the window's own.
    #[wasm_bindgen(unchecked_return_type = "ContextWindow")]
    pub fn inject(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ContextWindow")] window: JsValue,
        #[wasm_bindgen(js_name = specDocuments, unchecked_param_type = "SpecDocument[]")]
        spec_documents: JsValue,
        #[wasm_bindgen(js_name = turnCount, unchecked_param_type = "number")] turn_count: JsValue,
    ) -> JsResult<JsValue> {
        js(js::object("window", &window))?;
        let turns = js(array("window.turns", &js::get(&window, "turns")?))?;
        let docs = spec_documents_of("specDocuments", &spec_documents)?;
        if !spec_due(&turn_count)? {
            return Ok(window);
        }
        let content = injection_content(docs.iter().map(|(n, c)| (n.as_str(), c.as_str())));
        Ok(with_injection(&window, &turns, &content))
    }
}

/// A copy of `window` whose turns start with the injection turn built from `content`.
pub fn with_injection(window: &JsValue, turns: &Array, content: &str) -> JsValue {
    let injected = Array::of1(&injection_turn(content)).concat(turns);
    let out = js::shallow_copy(window);
    js::set(&out, "turns", &injected);
    js::set(&out, "specInjected", &true.into());
    out.into()
}

fn injection_turn(content: &str) -> JsValue {
    turn_entry(-1.0, "system", "user", &content.into())
}

/// A `TurnEntry` created now.
pub fn turn_entry(turn_index: f64, agent_id: &str, role: &str, content: &JsValue) -> JsValue {
    let entry = Object::new();
    js::set(&entry, "turnIndex", &turn_index.into());
    js::set(&entry, "agentId", &agent_id.into());
    js::set(&entry, "role", &role.into());
    js::set(&entry, "content", content);
    js::set(&entry, "createdAt", &Date::new_0());
    entry.into()
}

/// `[{ name, content }]` as Rust strings, each field checked.
pub fn spec_documents_of(field: &str, value: &JsValue) -> JsResult<Vec<(String, String)>> {
    let docs = js(array(field, value))?;
    docs.iter()
        .enumerate()
        .map(|(i, doc)| {
            let at = format!("{field}[{i}]");
            js(js::object(&at, &doc))?;
            let name = js(js::string(&format!("{at}.name"), &js::get(&doc, "name")?))?;
            let content = js(js::string(
                &format!("{at}.content"),
                &js::get(&doc, "content")?,
            ))?;
            Ok((name, content))
        })
        .collect()
}
