//! Turns rule errors into real JS errors, shaped like Node's own argument errors:
//! a `TypeError`/`RangeError` with a `code` and the `field` at fault. Shared by both wasm
//! modules (the rules and the tokenizers).

use js_sys::{RangeError, Reflect, TypeError};
use wasm_bindgen::JsValue;

use crate::rules::args::{ErrorKind, FieldError};

pub const INVALID_ARG_TYPE: &str = "ERR_INVALID_ARG_TYPE";
pub const OUT_OF_RANGE: &str = "ERR_OUT_OF_RANGE";

/// The JS error for `err`, with Node's code for its kind.
pub fn to_js(err: FieldError) -> JsValue {
    let code = match err.kind {
        ErrorKind::Type => INVALID_ARG_TYPE,
        ErrorKind::Range => OUT_OF_RANGE,
    };
    with_code(err, code)
}

/// The JS error for `err`, with a specific `code`.
pub fn with_code(err: FieldError, code: &str) -> JsValue {
    let message = err.to_string();
    let error: JsValue = match err.kind {
        ErrorKind::Type => TypeError::new(&message).into(),
        ErrorKind::Range => RangeError::new(&message).into(),
    };
    // Setting a property on a fresh Error cannot fail.
    let _ = Reflect::set(&error, &"code".into(), &code.into());
    let _ = Reflect::set(&error, &"field".into(), &err.field.into());
    error
}
