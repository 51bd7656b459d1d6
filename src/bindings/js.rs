//! Small, checked accessors for host values. Every failure is a `FieldError` naming the
//! path the host would recognise, never a panic.

use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::rules::args::FieldError;
use crate::rules::saop::{Kind, Node};

pub type JsResult<T> = Result<T, JsValue>;

/// `value[key]`; a throwing getter's error is passed through untouched.
pub fn get(value: &JsValue, key: &str) -> JsResult<JsValue> {
    Reflect::get(value, &key_of(key))
}

pub fn set(target: &JsValue, key: &str, value: &JsValue) {
    // Only ever used on objects this module just created, where a set cannot fail.
    let _ = Reflect::set(target, &key_of(key), value);
}

/// Property names are few and reused on every call: interned, each crosses into JS once.
fn key_of(key: &str) -> JsValue {
    JsValue::from_str(wasm_bindgen::intern(key))
}

/// What a host passed, in words, for error messages.
pub fn describe(value: &JsValue) -> String {
    let kind = JsNode(value.clone()).kind();
    match kind {
        Kind::Missing => "undefined".into(),
        Kind::Null => "null".into(),
        Kind::Number(n) => format!("the number {}", crate::rules::args::show_number(n)),
        Kind::String => match value.as_string() {
            Some(s) if s.chars().count() <= 40 => format!("the string {s:?}"),
            _ => "a string".into(),
        },
        Kind::Bool => format!("the boolean {}", value.is_truthy()),
        Kind::Array => "an array".into(),
        Kind::Object => "an object".into(),
        Kind::Other(what) => format!("a {what}"),
    }
}

fn wrong_type(field: &str, expected: &str, value: &JsValue) -> FieldError {
    FieldError::type_error(
        field,
        format!("must be {expected}, got {}", describe(value)),
    )
}

pub fn object(field: &str, value: &JsValue) -> Result<(), FieldError> {
    if value.is_object() && !Array::is_array(value) {
        Ok(())
    } else {
        Err(wrong_type(field, "an object", value))
    }
}

pub fn string(field: &str, value: &JsValue) -> Result<String, FieldError> {
    value
        .as_string()
        .ok_or_else(|| wrong_type(field, "a string", value))
}

pub fn non_empty_string(field: &str, value: &JsValue) -> Result<String, FieldError> {
    match value.as_string() {
        Some(s) if !s.is_empty() => Ok(s),
        _ => Err(wrong_type(field, "a non-empty string", value)),
    }
}

pub fn number(field: &str, value: &JsValue) -> Result<f64, FieldError> {
    value
        .as_f64()
        .ok_or_else(|| wrong_type(field, "a number", value))
}

/// `value` is a number, or `undefined` for the default.
pub fn optional_number(field: &str, value: &JsValue) -> Result<Option<f64>, FieldError> {
    if value.is_undefined() {
        Ok(None)
    } else {
        number(field, value).map(Some)
    }
}

/// The function at `target[key]`, checked; `field` names it in errors.
pub fn method(target: &JsValue, key: &str, field: &str) -> JsResult<Function> {
    let value = get(target, key)?;
    value
        .dyn_into::<Function>()
        .map_err(|v| wrong_type(field, "a function", &v).into_js())
}

/// Calls `target[key](...args)`, passing through whatever the host throws.
pub fn call_method(
    target: &JsValue,
    key: &str,
    field: &str,
    args: &[JsValue],
) -> JsResult<JsValue> {
    let f = method(target, key, field)?;
    f.apply(target, &args.iter().collect::<Array>())
}

/// Awaits a host callback's result, whether it returned a promise, a thenable or a plain
/// value. A rejection comes back as the very value the host rejected with.
pub async fn settle(value: JsValue) -> JsResult<JsValue> {
    JsFuture::from(Promise::resolve(&value)).await
}

pub fn shallow_copy(value: &JsValue) -> Object {
    Object::assign(&Object::new(), value.unchecked_ref())
}

pub trait IntoJs {
    fn into_js(self) -> JsValue;
}

impl IntoJs for FieldError {
    fn into_js(self) -> JsValue {
        crate::js_errors::to_js(self)
    }
}

/// Lets `?` turn a rule error into the matching JS error.
pub fn js<T>(result: Result<T, FieldError>) -> JsResult<T> {
    result.map_err(IntoJs::into_js)
}

/// A live JS value seen through the rules' document view.
pub struct JsNode(pub JsValue);

impl Node for JsNode {
    fn kind(&self) -> Kind {
        let v = &self.0;
        if v.is_undefined() {
            Kind::Missing
        } else if v.is_null() {
            Kind::Null
        } else if v.is_string() {
            Kind::String
        } else if let Some(n) = v.as_f64() {
            Kind::Number(n)
        } else if v.as_bool().is_some() {
            Kind::Bool
        } else if Array::is_array(v) {
            Kind::Array
        } else if v.is_function() {
            Kind::Other("function")
        } else if v.is_bigint() {
            Kind::Other("bigint")
        } else if v.is_symbol() {
            Kind::Other("symbol")
        } else {
            Kind::Object
        }
    }

    fn text(&self) -> Option<String> {
        self.0.as_string()
    }

    fn get(&self, key: &str) -> Option<Self> {
        // A throwing getter reads as absent: the validator then names that field.
        get(&self.0, key)
            .ok()
            .filter(|v| !v.is_undefined())
            .map(JsNode)
    }

    fn keys(&self) -> Vec<String> {
        match self.0.dyn_ref::<Object>() {
            Some(obj) => Object::keys(obj)
                .iter()
                .filter_map(|k| k.as_string())
                .collect(),
            None => Vec::new(),
        }
    }
}
