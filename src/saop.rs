//! The SAOP validator over a host's skeleton of its envelopes.
//!
//! The TS shell walks an envelope once and writes what the validator may read as JSON:
//! `{"s":len,"t":text}` a string (`t` only for short ones), `{"n":x}` a finite number,
//! `{"f":"NaN"}` a non-finite one, `{"b":x}`, `{"z":1}` null, `{"u":1}` undefined,
//! `{"a":[…]}` an array, `{"o":[[key,…],…]}` an object, `{"x":"bigint"}` anything JSON
//! cannot hold (a bigint, function, symbol, circular reference).

use devs_context_rules::args::FieldError;
use devs_context_rules::saop::{Kind, Node, validate_envelope};
use serde::Deserialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::Out;

struct Skeleton<'a>(&'a Value);

impl<'a> Skeleton<'a> {
    fn part(&self, tag: &str) -> Option<&'a Value> {
        self.0.get(tag)
    }
}

impl Node for Skeleton<'_> {
    fn kind(&self) -> Kind {
        if self.part("s").is_some() {
            Kind::String
        } else if let Some(n) = self.part("n").and_then(Value::as_f64) {
            Kind::Number(n)
        } else if let Some(f) = self.part("f").and_then(Value::as_str) {
            Kind::Number(match f {
                "Infinity" => f64::INFINITY,
                "-Infinity" => f64::NEG_INFINITY,
                _ => f64::NAN,
            })
        } else if self.part("b").is_some() {
            Kind::Bool
        } else if self.part("z").is_some() {
            Kind::Null
        } else if self.part("a").is_some() {
            Kind::Array
        } else if self.part("o").is_some() {
            Kind::Object
        } else if let Some(x) = self.part("x").and_then(Value::as_str) {
            Kind::Other(match x {
                "bigint" => "bigint",
                "function" => "function",
                "symbol" => "symbol",
                _ => "circular reference",
            })
        } else {
            Kind::Missing
        }
    }

    fn text(&self) -> Option<String> {
        self.part("t").and_then(Value::as_str).map(str::to_owned)
    }

    fn text_len(&self) -> usize {
        self.part("s").and_then(Value::as_u64).unwrap_or(0) as usize
    }

    fn get(&self, key: &str) -> Option<Self> {
        let entries = self.part("o")?.as_array()?;
        entries
            .iter()
            .find(|e| e.get(0).and_then(Value::as_str) == Some(key))
            .and_then(|e| e.get(1))
            .map(Skeleton)
            .filter(|v| v.kind() != Kind::Missing)
    }

    fn keys(&self) -> Vec<String> {
        self.children().into_iter().map(|(k, _)| k).collect()
    }

    fn children(&self) -> Vec<(String, Self)> {
        if let Some(items) = self.part("a").and_then(Value::as_array) {
            return items
                .iter()
                .enumerate()
                .map(|(i, v)| (i.to_string(), Skeleton(v)))
                .collect();
        }
        let Some(entries) = self.part("o").and_then(Value::as_array) else {
            return Vec::new();
        };
        entries
            .iter()
            .filter_map(|e| Some((e.get(0)?.as_str()?.to_owned(), Skeleton(e.get(1)?))))
            .collect()
    }
}

/// Validates each skeleton in the JSON array `skeletons`. A fault's field is named under
/// `prefix`: `{prefix}[{indexes[k]}].{field}` when `indexes` are given, else
/// `{prefix}.{field}` (the envelope itself is `{prefix}`), or as is when `prefix` is empty.
#[wasm_bindgen(js_name = validateSkeletons)]
pub fn validate_skeletons(skeletons: &str, prefix: &str, indexes: &[u32]) -> Out<()> {
    let mut reader = serde_json::Deserializer::from_str(skeletons);
    // The host's walk stops a few levels past `MAX_ARGUMENT_DEPTH`: the depth is bounded.
    reader.disable_recursion_limit();
    let all = Value::deserialize(&mut reader).map_err(|e| {
        FieldError::type_error("envelope", format!("could not be read ({e})")).report()
    })?;
    for (k, skeleton) in all.as_array().into_iter().flatten().enumerate() {
        if let Err(mut err) = validate_envelope(&Skeleton(skeleton)) {
            let at = match indexes.get(k) {
                Some(i) => format!("{prefix}[{i}]"),
                None => prefix.to_owned(),
            };
            if !at.is_empty() {
                err.field = if err.field == "envelope" {
                    at
                } else {
                    format!("{at}.{}", err.field)
                };
            }
            return Err(err.report());
        }
    }
    Ok(())
}
