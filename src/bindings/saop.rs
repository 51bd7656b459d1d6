//! The SAOP envelope validator, exposed to hosts.

use wasm_bindgen::prelude::*;

use super::js::JsNode;
use crate::js_errors::with_code;
use crate::rules::saop::validate_envelope;

/// The `code` of every SAOP validation error.
pub const INVALID_ENVELOPE: &str = "ERR_INVALID_SAOP_ENVELOPE";

/// Returns `envelope` unchanged when it is a valid SAOP 1.x envelope.
/// @throws {TypeError} whose `field` (and message) name the JSON path of the first bad
/// field, e.g. `observation.status`; its `code` is `ERR_INVALID_SAOP_ENVELOPE`.
#[wasm_bindgen(js_name = validateSaopEnvelope, unchecked_return_type = "SaopEnvelope")]
pub fn validate_saop_envelope(
    #[wasm_bindgen(unchecked_param_type = "unknown")] envelope: JsValue,
) -> Result<JsValue, JsValue> {
    match validate_envelope(&JsNode(envelope.clone())) {
        Ok(()) => Ok(envelope),
        Err(err) => Err(with_code(err, INVALID_ENVELOPE)),
    }
}

/// `true` when `value` is a valid SAOP 1.x envelope.
#[wasm_bindgen(js_name = isSaopEnvelope, unchecked_return_type = "value is SaopEnvelope")]
pub fn is_saop_envelope(#[wasm_bindgen(unchecked_param_type = "unknown")] value: JsValue) -> bool {
    validate_envelope(&JsNode(value)).is_ok()
}
