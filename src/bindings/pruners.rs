//! `ContextPruner` ([3_MCP-TAS-024]) and `ToolOutputPruner` ([8_RISKS-REQ-012]).

use js_sys::{Array, Date, JsString, Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::budget::read_total_budget;
use super::handoff::summarization_error;
use super::js::{self, JsResult, js};
use super::text::{cut, js_string};
use super::window::array;
use crate::rules::args::non_negative;
use crate::rules::pruner::{DEFAULT_SATURATION_RATIO, checked_ratio, prune_prompt, should_prune};
use crate::rules::tool_output::{
    DEFAULT_RAW_LOCATION, SUMMARY_CHARS, should_truncate, truncation_marker,
};

/// Summarizes the conversation once it reaches `saturationRatio` (default 0.90) of the
/// budget, keeping the Plan, the TAS and the current failing Observation verbatim.
#[wasm_bindgen]
pub struct ContextPruner {
    summarizer: JsValue,
    ratio: f64,
}

#[wasm_bindgen]
impl ContextPruner {
    /// @throws {TypeError} when `summarizer.summarize` is not a function.
    /// @throws {RangeError} when `saturationRatio` is not in (0, 1].
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "SummarizerClient")] summarizer: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ContextPrunerOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> JsResult<ContextPruner> {
        js(js::object("summarizer", &summarizer))?;
        js::method(&summarizer, "summarize", "summarizer.summarize")?;
        let options = options.unwrap_or_default();
        let ratio = if options.is_undefined() {
            DEFAULT_SATURATION_RATIO
        } else {
            js(js::object("options", &options))?;
            match js(js::optional_number(
                "options.saturationRatio",
                &js::get(&options, "saturationRatio")?,
            ))? {
                None => DEFAULT_SATURATION_RATIO,
                Some(r) => js(checked_ratio("options.saturationRatio", r))?,
            }
        };
        Ok(Self { summarizer, ratio })
    }

    #[wasm_bindgen(getter, js_name = saturationRatio)]
    pub fn saturation_ratio(&self) -> f64 {
        self.ratio
    }

    /// `tokens >= budget.totalBudget * saturationRatio`.
    #[wasm_bindgen(js_name = shouldPrune)]
    pub fn should_prune(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] tokens: JsValue,
        #[wasm_bindgen(unchecked_param_type = "WindowBudget")] budget: JsValue,
    ) -> JsResult<bool> {
        let tokens = js(non_negative("tokens", js(js::number("tokens", &tokens))?))?;
        Ok(should_prune(
            tokens,
            read_total_budget("budget", &budget)?,
            self.ratio,
        ))
    }

    /// Asks the summarizer for a summary of `turns`. The prompt tells it to keep the Plan,
    /// the TAS and the current failing Observation verbatim, and gives all three in full.
    /// Rejects with the summarizer's own error if it fails, and with a
    /// `SummarizationError` if it answers with an empty text.
    #[wasm_bindgen(unchecked_return_type = "Promise<PrunedContext>")]
    pub fn prune(
        &self,
        #[wasm_bindgen(unchecked_param_type = "AgentTurn[]")] turns: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] plan: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] tas: JsValue,
        #[wasm_bindgen(js_name = currentObservation, unchecked_param_type = "string")]
        current_observation: JsValue,
    ) -> Promise {
        let prepared = (|| {
            let turns = read_agent_turns("turns", &turns)?;
            let plan_text = js(js::string("plan", &plan))?;
            let tas_text = js(js::string("tas", &tas))?;
            let observation = js(js::string("currentObservation", &current_observation))?;
            let pairs: Vec<(&str, &str)> = turns
                .iter()
                .map(|(r, c)| (r.as_str(), c.as_str()))
                .collect();
            let prompt = prune_prompt(&pairs, &plan_text, &tas_text, &observation);
            let called = js::call_method(
                &self.summarizer,
                "summarize",
                "summarizer.summarize",
                &[prompt.into()],
            );
            Ok::<_, JsValue>((turns.len(), called))
        })();
        let (count, called) = match prepared {
            Ok(v) => v,
            Err(err) => return Promise::reject(&err),
        };
        future_to_promise(async move {
            let answer = js::settle(called?).await?;
            let summary = js(js::string("summarizer.summarize()", &answer))?;
            if summary.trim().is_empty() {
                return Err(summarization_error(
                    "the summarizer returned an empty summary while pruning",
                    None,
                ));
            }
            let out = Object::new();
            js::set(&out, "summary", &summary.into());
            js::set(&out, "plan", &plan);
            js::set(&out, "tas", &tas);
            js::set(&out, "currentObservation", &current_observation);
            js::set(&out, "originalTurnCount", &(count as f64).into());
            js::set(&out, "prunedAt", &Date::now().into());
            Ok(out.into())
        })
    }
}

/// `AgentTurn[]` as (role, content) pairs, checked.
pub fn read_agent_turns(field: &str, value: &JsValue) -> JsResult<Vec<(String, String)>> {
    let turns: Array = js(array(field, value))?;
    turns
        .iter()
        .enumerate()
        .map(|(i, turn)| {
            let at = format!("{field}[{i}]");
            js(js::object(&at, &turn))?;
            let role = agent_role(&at, &turn)?;
            let content = js(js::string(
                &format!("{at}.content"),
                &js::get(&turn, "content")?,
            ))?;
            Ok((role, content))
        })
        .collect()
}

/// `turn.role`, which must be `'user'` or `'model'`.
pub fn agent_role(at: &str, turn: &JsValue) -> JsResult<String> {
    let role = js(js::string(&format!("{at}.role"), &js::get(turn, "role")?))?;
    if role != "user" && role != "model" {
        let err = crate::rules::args::FieldError::type_error(
            format!("{at}.role"),
            format!("must be 'user' or 'model', got {role:?}"),
        );
        return Err(js::IntoJs::into_js(err));
    }
    Ok(role)
}

/// Persists large tool outputs raw, then truncates them once they are two turns old.
#[wasm_bindgen]
pub struct ToolOutputPruner {
    location: String,
}

#[wasm_bindgen]
impl ToolOutputPruner {
    /// `rawOutputLocation` is what the truncation marker says about where the raw output
    /// is; default "state.sqlite, table raw_tool_outputs".
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "ToolOutputPrunerOptions | undefined")]
        options: Option<JsValue>,
    ) -> JsResult<ToolOutputPruner> {
        let options = options.unwrap_or_default();
        let mut location = DEFAULT_RAW_LOCATION.to_string();
        if !options.is_undefined() {
            js(js::object("options", &options))?;
            let given = js::get(&options, "rawOutputLocation")?;
            if !given.is_undefined() {
                location = js(js::non_empty_string("options.rawOutputLocation", &given))?;
            }
        }
        Ok(Self { location })
    }

    /// `entry.turnAge >= 2 && entry.byteSize > 51_200`.
    #[wasm_bindgen(js_name = shouldTruncate)]
    pub fn should_truncate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ToolOutputEntry")] entry: JsValue,
    ) -> JsResult<bool> {
        let entry = read_entry("entry", &entry)?;
        Ok(should_truncate(entry.turn_age, entry.byte_size))
    }

    /// The first 500 characters of the output and a marker naming its byte size and where
    /// the raw output is. `rawStoredAt` is the ISO time of the call.
    #[wasm_bindgen(unchecked_return_type = "TruncatedToolOutput")]
    pub fn truncate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ToolOutputEntry")] entry: JsValue,
    ) -> JsResult<JsValue> {
        let entry = read_entry("entry", &entry)?;
        let (head, _) = cut(&entry.raw_content, SUMMARY_CHARS, false);
        let summary = head
            .concat(&truncation_marker(&entry.tool_name, entry.byte_size, &self.location).into());
        let out = Object::new();
        js::set(&out, "toolName", &entry.tool_name.as_str().into());
        js::set(&out, "summary", &summary);
        js::set(&out, "rawStoredAt", &Date::new_0().to_iso_string());
        js::set(&out, "originalByteSize", &entry.byte_size.into());
        Ok(out.into())
    }

    /// Awaits `repo.insertRawToolOutput(entry)`; rejects with the repository's own error.
    #[wasm_bindgen(js_name = persistRaw, unchecked_return_type = "Promise<void>")]
    pub fn persist_raw(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ToolOutputEntry")] entry: JsValue,
        #[wasm_bindgen(unchecked_param_type = "StateRepository")] repo: JsValue,
    ) -> Promise {
        let called = (|| {
            read_entry("entry", &entry)?;
            js(js::object("repo", &repo))?;
            js::call_method(
                &repo,
                "insertRawToolOutput",
                "repo.insertRawToolOutput",
                &[entry],
            )
        })();
        future_to_promise(async move {
            js::settle(called?).await?;
            Ok(JsValue::UNDEFINED)
        })
    }
}

/// A `ToolOutputEntry`, checked; `rawContent` stays a JS string.
pub struct Entry {
    pub tool_name: String,
    pub raw_content: JsString,
    pub byte_size: f64,
    pub turn_age: f64,
}

pub fn read_entry(field: &str, value: &JsValue) -> JsResult<Entry> {
    js(js::object(field, value))?;
    let tool_name = js(js::string(
        &format!("{field}.toolName"),
        &js::get(value, "toolName")?,
    ))?;
    let raw_content = js_string(
        &format!("{field}.rawContent"),
        &js::get(value, "rawContent")?,
    )?;
    let number = |key: &str| -> JsResult<f64> {
        let at = format!("{field}.{key}");
        js(non_negative(
            &at,
            js(js::number(&at, &js::get(value, key)?))?,
        ))
    };
    Ok(Entry {
        tool_name,
        raw_content,
        byte_size: number("byteSize")?,
        turn_age: number("turnAge")?,
    })
}
