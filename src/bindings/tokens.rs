//! Token counting for hosts: `countTokens`, and the counter every counting rule accepts.

use js_sys::{Array, Float64Array, Function, JsString};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use super::js::{self, JsResult, js};
use crate::rules::args::FieldError;
use crate::rules::tokens::approx_tokens;

/// `Math.ceil(text.length / 4)`, with `length` in UTF-16 units exactly as a JS host
/// computes it (an emoji counts 2). A fast approximation of BPE token counts; pass an
/// exact counter wherever a rule takes `countTokens` when the difference matters.
/// @throws {TypeError} when `text` is not a string.
#[wasm_bindgen(js_name = countTokens)]
pub fn count_tokens(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
) -> JsResult<f64> {
    Counter::Approx.count(&text, "text")
}

/// A token counter: the default heuristic, or the host's own `(text) => number`.
#[derive(Clone)]
pub enum Counter {
    Approx,
    Js(Function),
}

impl Counter {
    /// Reads an optional `countTokens` option: `undefined` means the default.
    pub fn from_option(value: JsValue, field: &str) -> JsResult<Counter> {
        if value.is_undefined() {
            return Ok(Counter::Approx);
        }
        value.dyn_into::<Function>().map(Counter::Js).map_err(|v| {
            js::IntoJs::into_js(FieldError::type_error(
                field,
                format!(
                    "must be a function (text: string) => number, got {}",
                    js::describe(&v)
                ),
            ))
        })
    }

    /// Counts a JS string without copying it out of JS when using the default.
    pub fn count(&self, text: &JsValue, field: &str) -> JsResult<f64> {
        let Some(s) = text.dyn_ref::<JsString>() else {
            return Err(js::IntoJs::into_js(FieldError::type_error(
                field,
                format!("must be a string, got {}", js::describe(text)),
            )));
        };
        match self {
            Counter::Approx => Ok(approx_tokens(s.length() as usize) as f64),
            Counter::Js(f) => checked_count(f.call1(&JsValue::UNDEFINED, text)?),
        }
    }
}

#[wasm_bindgen(raw_module = "../../src/runtime.js")]
extern "C" {
    #[wasm_bindgen(js_name = measureTexts)]
    fn measure_texts(items: &Array, key: &str, counter: &JsValue) -> Float64Array;
}

/// Marks from `measureTexts` (pkg/src/runtime.ts).
const NOT_AN_OBJECT: f64 = -1.0;
const NOT_A_STRING: f64 = -2.0;

impl Counter {
    /// Tokens of `item[key]` for every item, measured in one call into JS. `field` names
    /// the array in errors, e.g. `context.turns` → `context.turns[3].content`.
    pub fn count_each(&self, items: &Array, key: &str, field: &str) -> JsResult<Vec<f64>> {
        let counter = match self {
            Counter::Approx => JsValue::UNDEFINED,
            Counter::Js(f) => f.clone().into(),
        };
        let measured = measure_texts(items, key, &counter).to_vec();
        measured
            .into_iter()
            .enumerate()
            .map(|(i, m)| match (self, m) {
                (_, NOT_AN_OBJECT) => Err(js::IntoJs::into_js(FieldError::type_error(
                    format!("{field}[{i}]"),
                    "must be an object",
                ))),
                (_, NOT_A_STRING) => {
                    let value = js::get(&items.get(i as u32), key)?;
                    Err(js::IntoJs::into_js(FieldError::type_error(
                        format!("{field}[{i}].{key}"),
                        format!("must be a string, got {}", js::describe(&value)),
                    )))
                }
                (Counter::Approx, len) => Ok(approx_tokens(len as usize) as f64),
                (Counter::Js(_), n) => checked_count(n.into()),
            })
            .collect()
    }
}

fn checked_count(value: JsValue) -> JsResult<f64> {
    let n = js(js::number("countTokens()", &value))?;
    js(crate::rules::args::non_negative("countTokens()", n))
}
