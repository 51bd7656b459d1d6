//! JS strings seen through the rules' UTF-16 view, so large texts (a repository map, a
//! 400 KB tool output) are measured and cut where they live, without copying into wasm.

use js_sys::JsString;
use wasm_bindgen::{JsCast, JsValue};

use super::js::{self, JsResult};
use crate::rules::args::FieldError;
use crate::rules::cut::{Utf16Text, cut_point};

pub struct JsText<'a>(pub &'a JsString);

impl Utf16Text for JsText<'_> {
    fn units(&self) -> usize {
        self.0.length() as usize
    }
    fn unit_at(&self, index: usize) -> u16 {
        self.0.char_code_at(index as u32) as u16
    }
    fn last_space_before(&self, end: usize) -> Option<usize> {
        if end == 0 {
            return None;
        }
        let found = self.0.last_index_of(" ", end as i32 - 1);
        usize::try_from(found).ok()
    }
}

/// `text` cut to at most `max_units` (at the last space, with `at_space`); `true` when cut.
pub fn cut(text: &JsString, max_units: usize, at_space: bool) -> (JsString, bool) {
    match cut_point(&JsText(text), max_units, at_space) {
        None => (text.clone(), false),
        Some(end) => (text.slice(0, end as u32), true),
    }
}

/// `value` as a JS string, or a `TypeError` naming `field`.
pub fn js_string(field: &str, value: &JsValue) -> JsResult<JsString> {
    value.dyn_ref::<JsString>().cloned().ok_or_else(|| {
        js::IntoJs::into_js(FieldError::type_error(
            field,
            format!("must be a string, got {}", js::describe(value)),
        ))
    })
}
