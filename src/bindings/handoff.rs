//! `SummarizationHandoff`: a window of turns becomes a `MediumTermSummary`.

use js_sys::{Array, Date, Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::js::{self, JsResult, js};
use super::window::array;
use crate::rules::args::FieldError;
use crate::rules::handoff::{Role, TurnView, build_prompt, turn_range};

#[wasm_bindgen(raw_module = "../../src/errors.js")]
extern "C" {
    #[wasm_bindgen(js_name = SummarizationError)]
    type SummarizationError;

    #[wasm_bindgen(constructor, js_class = "SummarizationError")]
    fn new(message: &str, options: &JsValue) -> SummarizationError;
}

/// Summarizes an agent's recent turns through the host's LLM client, for re-injection as
/// a `[CONTEXT REFRESH]` turn ([4_USER_FEATURES-REQ-083]).
#[wasm_bindgen]
pub struct SummarizationHandoff {
    llm_client: JsValue,
    store: JsValue,
}

#[wasm_bindgen]
impl SummarizationHandoff {
    /// @throws {TypeError} when `llmClient.summarize` (or a given `store.save`) is not a function.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "SummarizationHandoffOptions")] options: JsValue,
    ) -> JsResult<SummarizationHandoff> {
        js(js::object("options", &options))?;
        let llm_client = js::get(&options, "llmClient")?;
        js(js::object("options.llmClient", &llm_client))?;
        js::method(&llm_client, "summarize", "options.llmClient.summarize")?;
        let store = js::get(&options, "store")?;
        if !store.is_undefined() {
            js(js::object("options.store", &store))?;
            js::method(&store, "save", "options.store.save")?;
        }
        Ok(Self { llm_client, store })
    }

    /// Asks `llmClient.summarize(prompt)` for a summary of `turns`: each cut to 1500
    /// UTF-16 units, `tool` turns left out. Resolves `null`, without calling the LLM, when
    /// there is nothing to summarize. Saves the summary to `store` when one was given.
    /// @throws {SummarizationError} (as a rejection) when the LLM answers with an empty text.
    #[wasm_bindgen(unchecked_return_type = "Promise<MediumTermSummary | null>")]
    pub fn transfer(
        &self,
        #[wasm_bindgen(js_name = agentId, unchecked_param_type = "string")] agent_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "TurnEntry[]")] turns: JsValue,
    ) -> Promise {
        let prepared = (|| {
            let agent_id = js(js::non_empty_string("agentId", &agent_id))?;
            let turns = read_turns("turns", &turns)?;
            let views: Vec<TurnView> = turns.iter().map(|t| t.view()).collect();
            let prompt = build_prompt(&agent_id, &views);
            let range = turn_range(&views);
            // Called now, as the seed's async function would before its first await.
            let called = prompt.map(|p| {
                js::call_method(
                    &self.llm_client,
                    "summarize",
                    "llmClient.summarize",
                    &[p.into()],
                )
            });
            Ok::<_, JsValue>((agent_id, range, called))
        })();
        let (agent_id, range, called) = match prepared {
            Ok(v) => v,
            Err(err) => return Promise::reject(&err),
        };
        let store = self.store.clone();
        future_to_promise(async move {
            let (Some(called), Some((start, end))) = (called, range) else {
                return Ok(JsValue::NULL);
            };
            let answer = js::settle(called?).await?;
            let text = js(js::string("llmClient.summarize()", &answer))?;
            if text.trim().is_empty() {
                return Err(empty_summary(&agent_id));
            }
            let summary = medium_term_summary(&agent_id, &text, start, end);
            if !store.is_undefined() {
                js::settle(js::call_method(
                    &store,
                    "save",
                    "store.save",
                    std::slice::from_ref(&summary),
                )?)
                .await?;
            }
            Ok(summary)
        })
    }
}

fn empty_summary(agent_id: &str) -> JsValue {
    summarization_error(
        &format!("the summarizer returned an empty summary for agent {agent_id}"),
        Some(agent_id),
    )
}

/// A `SummarizationError` with code `ERR_EMPTY_SUMMARY`.
pub fn summarization_error(message: &str, agent_id: Option<&str>) -> JsValue {
    let options = Object::new();
    if let Some(agent_id) = agent_id {
        js::set(&options, "agentId", &agent_id.into());
    }
    js::set(&options, "code", &"ERR_EMPTY_SUMMARY".into());
    SummarizationError::new(message, &options).into()
}

fn medium_term_summary(agent_id: &str, text: &str, start: f64, end: f64) -> JsValue {
    let summary = Object::new();
    js::set(&summary, "agentId", &agent_id.into());
    js::set(&summary, "summaryText", &text.into());
    js::set(&summary, "turnRangeStart", &start.into());
    js::set(&summary, "turnRangeEnd", &end.into());
    js::set(&summary, "createdAt", &Date::new_0());
    summary.into()
}

/// A `TurnEntry` read into Rust, fields checked.
pub struct OwnedTurn {
    pub turn_index: f64,
    pub role: Role,
    pub content: String,
}

impl OwnedTurn {
    pub fn view(&self) -> TurnView<'_> {
        TurnView {
            turn_index: self.turn_index,
            role: self.role,
            content: &self.content,
        }
    }
}

pub fn read_turns(field: &str, value: &JsValue) -> JsResult<Vec<OwnedTurn>> {
    let turns: Array = js(array(field, value))?;
    turns
        .iter()
        .enumerate()
        .map(|(i, turn)| read_turn(&format!("{field}[{i}]"), &turn))
        .collect()
}

pub fn read_turn(at: &str, turn: &JsValue) -> JsResult<OwnedTurn> {
    js(js::object(at, turn))?;
    let turn_index = js(js::number(
        &format!("{at}.turnIndex"),
        &js::get(turn, "turnIndex")?,
    ))?;
    let role = read_role(at, turn)?;
    let content = js(js::string(
        &format!("{at}.content"),
        &js::get(turn, "content")?,
    ))?;
    Ok(OwnedTurn {
        turn_index,
        role,
        content,
    })
}

/// `turn.role`, checked to be one of the three roles.
pub fn read_role(at: &str, turn: &JsValue) -> JsResult<Role> {
    let role_name = js(js::string(&format!("{at}.role"), &js::get(turn, "role")?))?;
    Role::parse(&role_name).ok_or_else(|| {
        js::IntoJs::into_js(FieldError::type_error(
            format!("{at}.role"),
            format!("must be 'user', 'assistant' or 'tool', got {role_name:?}"),
        ))
    })
}
