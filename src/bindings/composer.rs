//! `ContextComposer`: seed 001's wiring as a class. The specs are loaded once at startup;
//! each turn slides the window and injects the specs when due.

use js_sys::{Array, Object, Promise};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::js::{self, JsResult, js};
use super::window::{
    compose_window, max_turns_option, spec_documents_of, spec_due, with_injection,
};
use crate::rules::args::FieldError;
use crate::rules::window::injection_content;

#[wasm_bindgen(raw_module = "../../src/runtime.js")]
extern "C" {
    /// Reads `root/relative` as UTF-8, rejecting with an error that names the path.
    #[wasm_bindgen(js_name = readSpecFile)]
    fn read_spec_file(root: &str, relative: &str) -> Promise;
}

pub const TAS_PATH: &str = ".devs/specs/tas_summary.md";
pub const PRD_PATH: &str = ".devs/specs/prd_summary.md";

/// Composes the context window on every turn: the newest `maxTurns` turns, with the TAS
/// and PRD specs prepended every 10 turns ([4_USER_FEATURES-REQ-018]).
#[wasm_bindgen]
pub struct ContextComposer {
    max_turns: usize,
    specs: Vec<(String, String)>,
    /// The `[SPEC REFRESH]` text, built once: the specs never change after startup.
    injection: String,
}

#[wasm_bindgen]
impl ContextComposer {
    /// From documents the host already holds, e.g.
    /// `[{ name: 'TAS', content }, { name: 'PRD', content }]`.
    /// @throws {TypeError} naming the field of a malformed document.
    /// @throws {RangeError} when a document is empty or `maxTurns` is not a whole number >= 1.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "ContextComposerOptions")] options: JsValue,
    ) -> JsResult<ContextComposer> {
        js(js::object("options", &options))?;
        let specs = spec_documents_of("options.specs", &js::get(&options, "specs")?)?;
        Self::build(specs, js::get(&options, "maxTurns")?, "options")
    }

    /// Loads `.devs/specs/tas_summary.md` and `.devs/specs/prd_summary.md` under
    /// `projectRoot` (Node only). A missing or empty file rejects with an error naming its
    /// path: a spec is never silently empty.
    #[wasm_bindgen(js_name = fromProject, unchecked_return_type = "Promise<ContextComposer>")]
    pub fn from_project(
        #[wasm_bindgen(js_name = projectRoot, unchecked_param_type = "string")]
        project_root: JsValue,
        #[wasm_bindgen(unchecked_param_type = "{ maxTurns?: number } | undefined")] options: Option<
            JsValue,
        >,
    ) -> Promise {
        let checked = (|| {
            let root = js(js::non_empty_string("projectRoot", &project_root))?;
            let options = options.unwrap_or_default();
            let max_turns = if options.is_undefined() {
                JsValue::UNDEFINED
            } else {
                js::get(&options, "maxTurns")?
            };
            max_turns_option("options.maxTurns", max_turns.clone())?;
            Ok::<_, JsValue>((root, max_turns))
        })();
        let (root, max_turns) = match checked {
            Ok(v) => v,
            Err(err) => return Promise::reject(&err),
        };
        future_to_promise(async move {
            let tas = js::settle(read_spec_file(&root, TAS_PATH).into()).await?;
            let prd = js::settle(read_spec_file(&root, PRD_PATH).into()).await?;
            let specs = vec![
                ("TAS".to_string(), tas.as_string().unwrap_or_default()),
                ("PRD".to_string(), prd.as_string().unwrap_or_default()),
            ];
            Ok(Self::build(specs, max_turns, "options")?.into())
        })
    }

    fn build(
        specs: Vec<(String, String)>,
        max_turns: JsValue,
        at: &str,
    ) -> JsResult<ContextComposer> {
        if specs.is_empty() {
            return Err(js::IntoJs::into_js(FieldError::range_error(
                format!("{at}.specs"),
                "must hold at least one document",
            )));
        }
        if let Some(i) = specs
            .iter()
            .position(|(_, content)| content.trim().is_empty())
        {
            return Err(js::IntoJs::into_js(FieldError::range_error(
                format!("{at}.specs[{i}].content"),
                "must not be empty",
            )));
        }
        let max_turns = max_turns_option(&format!("{at}.maxTurns"), max_turns)?;
        let injection = injection_content(specs.iter().map(|(n, c)| (n.as_str(), c.as_str())));
        Ok(Self {
            max_turns,
            specs,
            injection,
        })
    }

    #[wasm_bindgen(getter, js_name = maxTurns)]
    pub fn max_turns(&self) -> usize {
        self.max_turns
    }

    /// The spec documents loaded at startup.
    #[wasm_bindgen(getter, unchecked_return_type = "SpecDocument[]")]
    pub fn specs(&self) -> Array {
        self.specs
            .iter()
            .map(|(name, content)| {
                let doc = Object::new();
                js::set(&doc, "name", &name.as_str().into());
                js::set(&doc, "content", &content.as_str().into());
                JsValue::from(doc)
            })
            .collect()
    }

    /// The window for this turn: `slidingWindow.compose(allTurns, taskGoal)`, then
    /// `specRefresh.inject(window, specs, turnCount)`. `allTurns` is never mutated.
    #[wasm_bindgen(unchecked_return_type = "ContextWindow")]
    pub fn compose(
        &self,
        #[wasm_bindgen(js_name = allTurns, unchecked_param_type = "TurnEntry[]")]
        all_turns: JsValue,
        #[wasm_bindgen(js_name = taskGoal, unchecked_param_type = "string")] task_goal: JsValue,
        #[wasm_bindgen(js_name = turnCount, unchecked_param_type = "number")] turn_count: JsValue,
    ) -> JsResult<JsValue> {
        let due = spec_due(&turn_count)?;
        let window = compose_window(self.max_turns, &all_turns, &task_goal)?;
        if !due {
            return Ok(window);
        }
        let turns: Array = js::get(&window, "turns")?.unchecked_into();
        Ok(with_injection(&window, &turns, &self.injection))
    }
}
