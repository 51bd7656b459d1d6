//! Token counting for hosts: `countTokens`, and the counter every counting rule accepts.

use js_sys::{Function, JsString};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::js::{self, js, JsResult};
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

fn checked_count(value: JsValue) -> JsResult<f64> {
    let n = js(js::number("countTokens()", &value))?;
    js(crate::rules::args::non_negative("countTokens()", n))
}
