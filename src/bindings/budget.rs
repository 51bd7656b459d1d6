//! `WindowBudget` and `createDefaultWindowBudget`.

use js_sys::Object;
use wasm_bindgen::prelude::*;

use super::js::{self, JsResult, js};
use crate::rules::args::non_negative;
use crate::rules::budget::{DEFAULT_TOTAL_BUDGET, WindowBudget};

/// Splits `total` (default 800,000) into Goal 30%, Map 20% and Recent Past 50%, each
/// share rounded down ([3_MCP-TAS-047]).
/// @throws {RangeError} when `total` is not a whole number >= 1.
#[wasm_bindgen(js_name = createDefaultWindowBudget, unchecked_return_type = "WindowBudget")]
pub fn create_default_window_budget(
    #[wasm_bindgen(unchecked_param_type = "number | undefined")] total: Option<JsValue>,
) -> JsResult<JsValue> {
    let total = match js(js::optional_number("total", &total.unwrap_or_default()))? {
        None => DEFAULT_TOTAL_BUDGET,
        Some(n) => js(WindowBudget::checked_total("total", n))?,
    };
    Ok(budget_object(&WindowBudget::split(total)))
}

pub fn budget_object(budget: &WindowBudget) -> JsValue {
    let out = Object::new();
    js::set(&out, "totalBudget", &budget.total.into());
    js::set(&out, "goalBudget", &budget.goal.into());
    js::set(&out, "mapBudget", &budget.map.into());
    js::set(&out, "recentPastBudget", &budget.recent_past.into());
    out.into()
}

/// Reads one share of a budget: a finite number >= 0.
fn share(field: &str, budget: &JsValue, key: &str) -> JsResult<f64> {
    let at = format!("{field}.{key}");
    let n = js(js::number(&at, &js::get(budget, key)?))?;
    js(non_negative(&at, n))
}

pub fn read_budget(field: &str, value: &JsValue) -> JsResult<WindowBudget> {
    js(js::object(field, value))?;
    Ok(WindowBudget {
        total: share(field, value, "totalBudget")?,
        goal: share(field, value, "goalBudget")?,
        map: share(field, value, "mapBudget")?,
        recent_past: share(field, value, "recentPastBudget")?,
    })
}

/// Only `totalBudget`, for rules that need no more (`shouldPrune`).
pub fn read_total_budget(field: &str, value: &JsValue) -> JsResult<f64> {
    js(js::object(field, value))?;
    share(field, value, "totalBudget")
}
