//! Seed 000: `ContextRefresher` and `OrchestratorContextInjector`.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::js::{self, IntoJs, JsResult, js};
use crate::rules::args::FieldError;
use crate::rules::refresh::{
    DEFAULT_THRESHOLD, RefreshCounter, Tick, format_injected_summary, prepend_to_reasoning,
};

/// Re-injects the TAS and PRD summaries every `threshold` turns (default 5) within one
/// orchestrator node ([3_MCP-TAS-089]). Call `resetNode()` when the orchestrator moves
/// to another node.
#[wasm_bindgen]
pub struct ContextRefresher {
    counter: Rc<RefCell<RefreshCounter>>,
    provider: JsValue,
}

#[wasm_bindgen]
impl ContextRefresher {
    /// @throws {TypeError} when `summaryProvider.getSummary` is not a function.
    /// @throws {RangeError} when `threshold` is not a whole number >= 1.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "ContextRefresherOptions")] options: JsValue,
    ) -> Result<ContextRefresher, JsValue> {
        js(js::object("options", &options))?;
        let provider = js::get(&options, "summaryProvider")?;
        js(js::object("options.summaryProvider", &provider))?;
        js::method(
            &provider,
            "getSummary",
            "options.summaryProvider.getSummary",
        )?;
        let threshold = match js(js::optional_number(
            "options.threshold",
            &js::get(&options, "threshold")?,
        ))? {
            None => DEFAULT_THRESHOLD,
            Some(n) => js(RefreshCounter::checked_threshold("options.threshold", n))?,
        };
        Ok(Self {
            counter: Rc::new(RefCell::new(RefreshCounter::new(threshold))),
            provider,
        })
    }

    /// Turns counted in the current node since the last refresh.
    #[wasm_bindgen(getter, js_name = turnsInCurrentNode)]
    pub fn turns_in_current_node(&self) -> u32 {
        self.counter.borrow().turns_in_current_node()
    }

    /// The number of turns between refreshes.
    #[wasm_bindgen(getter)]
    pub fn threshold(&self) -> u32 {
        self.counter.borrow().threshold()
    }

    /// Counts one turn. On the `threshold`-th turn it awaits `summaryProvider.getSummary()`
    /// and resolves `{ refreshed: true, injectedSummary }`; otherwise `{ refreshed: false }`.
    ///
    /// If the provider throws or rejects, the promise rejects with that same error and the
    /// turn is undone, so the next turn retries the refresh.
    #[wasm_bindgen(js_name = onTurn, unchecked_return_type = "Promise<RefreshResult>")]
    pub fn on_turn(
        &self,
        #[wasm_bindgen(js_name = turnIndex, unchecked_param_type = "number")] turn_index: JsValue,
    ) -> Promise {
        if let Err(err) = check_turn_index("turnIndex", &turn_index) {
            return Promise::reject(&err.into_js());
        }
        let ticket = match self.counter.borrow_mut().on_turn() {
            Tick::Quiet => return Promise::resolve(&refresh_result(None)),
            Tick::Refresh(ticket) => ticket,
        };
        // Called now, not on a later microtask, as the seed's `async onTurn` would.
        let called = js::call_method(
            &self.provider,
            "getSummary",
            "summaryProvider.getSummary",
            &[],
        );
        let counter = Rc::clone(&self.counter);
        future_to_promise(async move {
            match fetch_summary(called).await {
                Ok(text) => Ok(refresh_result(Some(&text))),
                Err(err) => {
                    counter.borrow_mut().rollback(ticket);
                    Err(err)
                }
            }
        })
    }

    /// Starts a new node: the turn count goes back to 0 and no refresh is triggered.
    #[wasm_bindgen(js_name = resetNode)]
    pub fn reset_node(&self) {
        self.counter.borrow_mut().reset_node();
    }
}

async fn fetch_summary(called: JsResult<JsValue>) -> JsResult<String> {
    let value = js::settle(called?).await?;
    let field = "summaryProvider.getSummary()";
    js(js::object(field, &value))?;
    let tas = js(js::string(
        &format!("{field}.tasSummary"),
        &js::get(&value, "tasSummary")?,
    ))?;
    let prd = js(js::string(
        &format!("{field}.prdSummary"),
        &js::get(&value, "prdSummary")?,
    ))?;
    Ok(format_injected_summary(&tas, &prd))
}

fn refresh_result(injected: Option<&str>) -> JsValue {
    let result = js_sys::Object::new();
    js::set(&result, "refreshed", &injected.is_some().into());
    if let Some(text) = injected {
        js::set(&result, "injectedSummary", &text.into());
    }
    result.into()
}

/// Turn indexes are whole numbers >= 0; the refresher does not use them otherwise.
fn check_turn_index(field: &str, value: &JsValue) -> Result<(), FieldError> {
    let n = js::number(field, value)?;
    crate::rules::args::whole_number(field, n, 0).map(drop)
}

/// Prepends the refresher's summary to `thought.reasoning` whenever it fires.
#[wasm_bindgen]
pub struct OrchestratorContextInjector {
    refresher: JsValue,
}

#[wasm_bindgen]
impl OrchestratorContextInjector {
    /// Takes a `ContextRefresher`, or any object with the same `onTurn`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Pick<ContextRefresher, 'onTurn'>")]
        refresher: JsValue,
    ) -> Result<OrchestratorContextInjector, JsValue> {
        js(js::object("refresher", &refresher))?;
        js::method(&refresher, "onTurn", "refresher.onTurn")?;
        Ok(Self { refresher })
    }

    /// Resolves `envelope` itself when no refresh is due, otherwise a new envelope (the
    /// input is never mutated) whose `thought.reasoning` starts with the refresh.
    #[wasm_bindgen(js_name = injectIfNeeded, unchecked_return_type = "Promise<SaopEnvelope>")]
    pub fn inject_if_needed(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SaopEnvelope")] envelope: JsValue,
        #[wasm_bindgen(js_name = turnIndex, unchecked_param_type = "number")] turn_index: JsValue,
    ) -> Promise {
        // A bad envelope is refused before it can use up a turn of the refresher.
        if let Err(err) = reasoning_of(&envelope) {
            return Promise::reject(&err);
        }
        let called = js::call_method(&self.refresher, "onTurn", "refresher.onTurn", &[turn_index]);
        future_to_promise(async move {
            let result = js::settle(called?).await?;
            js(js::object("refresher.onTurn()", &result))?;
            if !js::get(&result, "refreshed")?.is_truthy() {
                return Ok(envelope);
            }
            let field = "refresher.onTurn().injectedSummary";
            let injected = js(js::string(field, &js::get(&result, "injectedSummary")?))?;
            let (thought, reasoning) = reasoning_of(&envelope)?;
            let new_thought = js::shallow_copy(&thought);
            js::set(
                &new_thought,
                "reasoning",
                &prepend_to_reasoning(&injected, &reasoning).into(),
            );
            let new_envelope = js::shallow_copy(&envelope);
            js::set(&new_envelope, "thought", &new_thought);
            Ok(new_envelope.into())
        })
    }
}

fn reasoning_of(envelope: &JsValue) -> JsResult<(JsValue, String)> {
    js(js::object("envelope", envelope))?;
    let thought = js::get(envelope, "thought")?;
    js(js::object("envelope.thought", &thought))?;
    let reasoning = js(js::string(
        "envelope.thought.reasoning",
        &js::get(&thought, "reasoning")?,
    ))?;
    Ok((thought, reasoning))
}
