//! The SAOP envelope (Structured Agent-Orchestrator Protocol) and its validator.
//!
//! The validator walks any document through [`Node`]: the wasm binding reads a skeleton
//! that the host made of its object, and the tests use plain Rust values. Errors name the
//! JSON path of the first bad field, e.g. `observation.status`, and carry the code
//! [`INVALID_ENVELOPE`].

use crate::base::args::MAX_SAFE_INTEGER;
use devs_context_errors::FieldError;

/// The `code` of every SAOP validation error.
pub const INVALID_ENVELOPE: &str = "ERR_INVALID_SAOP_ENVELOPE";

/// `action.arguments` may nest objects and arrays this deep, and no deeper: the envelope
/// is rendered as JSON into prompts, and a host's stack is finite.
pub const MAX_ARGUMENT_DEPTH: usize = 64;

/// What a node of a JSON-like document is.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Missing,
    Null,
    Bool,
    Number(f64),
    String,
    Array,
    Object,
    /// Anything JSON cannot hold: functions, symbols, bigints, a circular reference.
    Other(&'static str),
}

impl Kind {
    fn describe(&self) -> String {
        match self {
            Kind::Missing => "missing".into(),
            Kind::Null => "null".into(),
            Kind::Bool => "a boolean".into(),
            Kind::Number(_) => "a number".into(),
            Kind::String => "a string".into(),
            Kind::Array => "an array".into(),
            Kind::Object => "an object".into(),
            Kind::Other(what) => format!("a {what}"),
        }
    }
}

/// A read-only view of a document node.
pub trait Node: Sized {
    fn kind(&self) -> Kind;
    /// The text of a string node. Only called where the validator needs the value, so a
    /// host can keep long strings (tool outputs) where they are.
    fn text(&self) -> Option<String>;
    /// The property `key` of an object node; `None` when absent or `undefined`.
    fn get(&self, key: &str) -> Option<Self>;
    /// Own enumerable keys of an object node.
    fn keys(&self) -> Vec<String>;
    /// The first own key not in `allowed`, if any.
    fn key_outside(&self, allowed: &[&str]) -> Option<String> {
        self.keys()
            .into_iter()
            .find(|k| !allowed.contains(&k.as_str()))
    }
    /// The UTF-16 length of a string node, whether or not its text was read.
    fn text_len(&self) -> usize {
        self.text().map_or(0, |t| t.encode_utf16().count())
    }
    /// Object entries or array items, with their keys (an item's key is its index).
    fn children(&self) -> Vec<(String, Self)> {
        Vec::new()
    }
    /// [`Node::children`] without their keys: what the check of valid data walks, where
    /// no path needs naming.
    fn child_nodes(&self) -> Vec<Self> {
        self.children().into_iter().map(|(_, c)| c).collect()
    }
}

pub const STATUSES: [&str; 4] = ["success", "error", "timeout", "partial"];
pub const TOP_KEYS: [&str; 7] = [
    "schema_version",
    "turn_index",
    "agent_id",
    "phase",
    "thought",
    "action",
    "observation",
];
pub const THOUGHT_KEYS: [&str; 3] = ["reasoning", "plan", "uncertainty"];
pub const ACTION_KEYS: [&str; 2] = ["tool_name", "arguments"];
pub const OBSERVATION_KEYS: [&str; 3] = ["status", "output", "error_detail"];

/// Checks `envelope` against the SAOP 1.x schema.
pub fn validate_envelope<N: Node>(envelope: &N) -> Result<(), FieldError> {
    check_envelope(envelope).map_err(|e| e.with_code(INVALID_ENVELOPE))
}

fn check_envelope<N: Node>(envelope: &N) -> Result<(), FieldError> {
    object(envelope, "envelope", &TOP_KEYS, None)?;
    let version = string_field(envelope, "", "schema_version")?;
    if !is_semver_1x(&version) {
        return Err(FieldError::type_error(
            "schema_version",
            format!("must be a 1.x semver string such as \"1.0.0\", got {version:?}"),
        ));
    }
    turn_index(envelope)?;
    non_empty(envelope, "", "agent_id")?;
    non_empty(envelope, "", "phase")?;

    let thought = child_object(envelope, "thought", &THOUGHT_KEYS)?;
    is_string(&thought, "thought.", "reasoning")?;
    is_string(&thought, "thought.", "plan")?;
    optional_string(&thought, "thought.", "uncertainty")?;

    let action = child_object(envelope, "action", &ACTION_KEYS)?;
    is_string(&action, "action.", "tool_name")?;
    let args = action.get("arguments");
    match (args, Kind::Missing) {
        // Paths are written only to name a fault: valid arguments are walked without them.
        (Some(args), _) if args.kind() == Kind::Object && !is_json_data(&args, 1) => {
            json_data(&args, "action.arguments", 1)?
        }
        (Some(args), _) if args.kind() == Kind::Object => {}
        (args, missing) => {
            let kind = args.as_ref().map_or(missing, Node::kind);
            return Err(expected("action.arguments", "an object", &kind));
        }
    }

    let observation = child_object(envelope, "observation", &OBSERVATION_KEYS)?;
    let status = string_field(&observation, "observation.", "status")?;
    if !STATUSES.contains(&status.as_str()) {
        return Err(FieldError::type_error(
            "observation.status",
            format!("must be one of 'success', 'error', 'timeout', 'partial', got {status:?}"),
        ));
    }
    is_string(&observation, "observation.", "output")?;
    optional_string(&observation, "observation.", "error_detail")?;
    Ok(())
}

/// Everything under `action.arguments` must be JSON data: no bigint, function, symbol or
/// circular reference, and no deeper than [`MAX_ARGUMENT_DEPTH`].
fn json_data<N: Node>(node: &N, path: &str, depth: usize) -> Result<(), FieldError> {
    match node.kind() {
        Kind::Other(what) => Err(FieldError::type_error(
            path,
            format!("must be JSON data, got a {what}"),
        )),
        Kind::Object | Kind::Array if depth > MAX_ARGUMENT_DEPTH => Err(FieldError::type_error(
            path,
            format!("must nest at most {MAX_ARGUMENT_DEPTH} levels of objects and arrays"),
        )),
        Kind::Object | Kind::Array => node
            .children()
            .iter()
            .try_for_each(|(key, child)| json_data(child, &format!("{path}.{key}"), depth + 1)),
        _ => Ok(()),
    }
}

/// Whether [`json_data`] finds no fault under `node`.
fn is_json_data<N: Node>(node: &N, depth: usize) -> bool {
    match node.kind() {
        Kind::Other(_) => false,
        Kind::Object | Kind::Array if depth > MAX_ARGUMENT_DEPTH => false,
        Kind::Object | Kind::Array => node
            .child_nodes()
            .iter()
            .all(|child| is_json_data(child, depth + 1)),
        _ => true,
    }
}

fn expected(path: &str, what: &str, got: &Kind) -> FieldError {
    FieldError::type_error(path, format!("must be {what}, got {}", got.describe()))
}

/// Checks that `node` is an object with no keys outside `allowed`; a key outside is named
/// under `parent` (`parent.key`) when the object is a field of the envelope.
fn object<N: Node>(
    node: &N,
    path: &str,
    allowed: &[&str],
    parent: Option<&str>,
) -> Result<(), FieldError> {
    let kind = node.kind();
    if kind != Kind::Object {
        return Err(expected(path, "an object", &kind));
    }
    if let Some(extra) = node.key_outside(allowed) {
        return Err(FieldError::type_error(
            match parent {
                Some(parent) => format!("{parent}.{extra}"),
                None => extra,
            },
            "is not a SAOP field (no other properties are allowed)",
        ));
    }
    Ok(())
}

fn child_object<N: Node>(parent: &N, key: &str, allowed: &[&str]) -> Result<N, FieldError> {
    let child = parent
        .get(key)
        .ok_or_else(|| expected(key, "an object", &Kind::Missing))?;
    object(&child, key, allowed, Some(key))?;
    Ok(child)
}

/// Checks that `parent[key]` is a string, without reading it.
fn is_string<N: Node>(parent: &N, prefix: &str, key: &str) -> Result<Option<N>, FieldError> {
    let node = parent.get(key);
    match node.as_ref().map(Node::kind).unwrap_or(Kind::Missing) {
        Kind::String => Ok(node),
        other => Err(expected(&format!("{prefix}{key}"), "a string", &other)),
    }
}

fn string_field<N: Node>(parent: &N, prefix: &str, key: &str) -> Result<String, FieldError> {
    Ok(is_string(parent, prefix, key)?
        .and_then(|n| n.text())
        .unwrap_or_default())
}

fn optional_string<N: Node>(parent: &N, prefix: &str, key: &str) -> Result<(), FieldError> {
    match parent.get(key) {
        None => Ok(()),
        Some(_) => is_string(parent, prefix, key).map(drop),
    }
}

fn non_empty<N: Node>(parent: &N, prefix: &str, key: &str) -> Result<(), FieldError> {
    if is_string(parent, prefix, key)?.is_none_or(|n| n.text_len() == 0) {
        return Err(FieldError::type_error(
            format!("{prefix}{key}"),
            "must be a non-empty string",
        ));
    }
    Ok(())
}

fn turn_index<N: Node>(envelope: &N) -> Result<(), FieldError> {
    match envelope
        .get("turn_index")
        .map(|n| n.kind())
        .unwrap_or(Kind::Missing)
    {
        Kind::Number(n) if n >= 0.0 && n.fract() == 0.0 && n <= MAX_SAFE_INTEGER => Ok(()),
        Kind::Number(n) => Err(FieldError::type_error(
            "turn_index",
            format!(
                "must be an integer >= 0, got {}",
                crate::base::args::show_number(n)
            ),
        )),
        other => Err(expected("turn_index", "an integer >= 0", &other)),
    }
}

/// `1.MINOR.PATCH`, with optional pre-release and build parts, per semver 2.0.
fn is_semver_1x(version: &str) -> bool {
    let core_end = version.find(['-', '+']).unwrap_or(version.len());
    let (core, rest) = version.split_at(core_end);
    let parts: Vec<&str> = core.split('.').collect();
    let numeric = |p: &&str| {
        !p.is_empty()
            && p.bytes().all(|b| b.is_ascii_digit())
            && (p.len() == 1 || !p.starts_with('0'))
    };
    let ident = |s: &str| {
        !s.is_empty()
            && s.split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
    };
    let rest_ok = match rest.split_once('+') {
        Some((pre, build)) => (pre.is_empty() || ident(&pre[1..])) && ident(build),
        None => rest.is_empty() || ident(&rest[1..]),
    };
    parts.len() == 3 && parts.iter().all(numeric) && parts[0] == "1" && rest_ok
}

#[cfg(test)]
#[path = "tests/saop.rs"]
mod tests;
