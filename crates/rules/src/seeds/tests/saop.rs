use super::*;

/// A tiny JSON-like tree for driving the validator natively.
#[derive(Clone, Debug)]
enum V {
    Str(&'static str),
    Num(f64),
    Null,
    Arr,
    Obj(Vec<(&'static str, V)>),
    Big,
}

impl Node for V {
    fn kind(&self) -> Kind {
        match self {
            V::Str(_) => Kind::String,
            V::Num(n) => Kind::Number(*n),
            V::Null => Kind::Null,
            V::Arr => Kind::Array,
            V::Obj(_) => Kind::Object,
            V::Big => Kind::Other("bigint"),
        }
    }
    fn text(&self) -> Option<String> {
        match self {
            V::Str(s) => Some((*s).into()),
            _ => None,
        }
    }
    fn get(&self, key: &str) -> Option<Self> {
        match self {
            V::Obj(fields) => fields
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.clone()),
            _ => None,
        }
    }
    fn keys(&self) -> Vec<String> {
        match self {
            V::Obj(fields) => fields.iter().map(|(k, _)| (*k).to_string()).collect(),
            _ => vec![],
        }
    }
    fn children(&self) -> Vec<(String, Self)> {
        match self {
            V::Obj(fields) => fields
                .iter()
                .map(|(k, v)| ((*k).to_string(), v.clone()))
                .collect(),
            _ => vec![],
        }
    }
}

fn valid() -> V {
    V::Obj(vec![
        ("schema_version", V::Str("1.0.0")),
        ("turn_index", V::Num(3.0)),
        ("agent_id", V::Str("dev-1")),
        ("phase", V::Str("implement")),
        (
            "thought",
            V::Obj(vec![("reasoning", V::Str("r")), ("plan", V::Str("p"))]),
        ),
        (
            "action",
            V::Obj(vec![
                ("tool_name", V::Str("read_file")),
                ("arguments", V::Obj(vec![])),
            ]),
        ),
        (
            "observation",
            V::Obj(vec![
                ("status", V::Str("success")),
                ("output", V::Str("ok")),
            ]),
        ),
    ])
}

/// `valid()` with `path` (one or two levels deep) replaced by `value`, or removed.
fn with(path: &str, value: Option<V>) -> V {
    fn set(fields: &mut Vec<(&'static str, V)>, key: &str, value: Option<V>) {
        fields.retain(|(k, _)| *k != key);
        if let Some(v) = value {
            fields.push((Box::leak(key.to_string().into_boxed_str()), v));
        }
    }
    let V::Obj(mut top) = valid() else {
        unreachable!()
    };
    match path.split_once('.') {
        None => set(&mut top, path, value),
        Some((outer, inner)) => {
            let slot = top.iter_mut().find(|(k, _)| *k == outer).unwrap();
            let V::Obj(fields) = &mut slot.1 else {
                unreachable!()
            };
            set(fields, inner, value);
        }
    }
    V::Obj(top)
}

fn field_of(v: &V) -> String {
    validate_envelope(v).unwrap_err().field
}

#[test]
fn accepts_a_valid_envelope_with_optional_fields() {
    assert_eq!(validate_envelope(&valid()), Ok(()));
    assert_eq!(
        validate_envelope(&with("thought.uncertainty", Some(V::Str("low")))),
        Ok(())
    );
    assert_eq!(
        validate_envelope(&with("observation.error_detail", Some(V::Str("x")))),
        Ok(())
    );
    assert_eq!(
        validate_envelope(&with("schema_version", Some(V::Str("1.2.3-rc.1+build.5")))),
        Ok(())
    );
}

#[test]
fn names_the_bad_field() {
    assert_eq!(
        field_of(&with("observation.status", Some(V::Str("done")))),
        "observation.status"
    );
    assert_eq!(
        field_of(&with("observation.output", None)),
        "observation.output"
    );
    assert_eq!(
        field_of(&with("thought.reasoning", Some(V::Num(1.0)))),
        "thought.reasoning"
    );
    assert_eq!(
        field_of(&with("thought.uncertainty", Some(V::Null))),
        "thought.uncertainty"
    );
    assert_eq!(
        field_of(&with("action.arguments", Some(V::Arr))),
        "action.arguments"
    );
    assert_eq!(
        field_of(&with("action.arguments", Some(V::Null))),
        "action.arguments"
    );
    assert_eq!(field_of(&with("agent_id", Some(V::Str("")))), "agent_id");
    assert_eq!(field_of(&with("phase", None)), "phase");
    assert_eq!(
        field_of(&with("turn_index", Some(V::Num(-1.0)))),
        "turn_index"
    );
    assert_eq!(
        field_of(&with("turn_index", Some(V::Num(1.5)))),
        "turn_index"
    );
    assert_eq!(field_of(&with("thought", Some(V::Str("x")))), "thought");
}

#[test]
fn rejects_unknown_properties_at_every_level() {
    assert_eq!(field_of(&with("extra", Some(V::Num(1.0)))), "extra");
    assert_eq!(
        field_of(&with("thought.mood", Some(V::Str("calm")))),
        "thought.mood"
    );
    assert_eq!(
        field_of(&with("observation.code", Some(V::Num(2.0)))),
        "observation.code"
    );
}

#[test]
fn schema_version_must_be_semver_1x() {
    for bad in ["1.0", "2.0.0", "01.0.0", "1.0.0-", "v1.0.0", "1.0.0+"] {
        assert_eq!(
            field_of(&with("schema_version", Some(V::Str(bad)))),
            "schema_version",
            "{bad}"
        );
    }
}

#[test]
fn root_must_be_an_object() {
    let err = validate_envelope(&V::Null).unwrap_err();
    assert_eq!(err.field, "envelope");
    assert_eq!(err.message, "must be an object, got null");
}

fn nested(depth: usize, leaf: V) -> V {
    (0..depth).fold(leaf, |inner, _| V::Obj(vec![("a", inner)]))
}

#[test]
fn arguments_must_be_json_data() {
    let err = validate_envelope(&with("action.arguments", Some(nested(2, V::Big)))).unwrap_err();
    assert_eq!(err.field, "action.arguments.a.a");
    assert_eq!(err.message, "must be JSON data, got a bigint");
    assert_eq!(err.code, Some(INVALID_ENVELOPE));
}

#[test]
fn arguments_nest_at_most_the_limit() {
    let ok = nested(MAX_ARGUMENT_DEPTH, V::Num(1.0));
    assert_eq!(
        validate_envelope(&with("action.arguments", Some(ok))),
        Ok(())
    );
    let deep = nested(MAX_ARGUMENT_DEPTH + 1, V::Num(1.0));
    let err = validate_envelope(&with("action.arguments", Some(deep))).unwrap_err();
    assert!(err.field.starts_with("action.arguments.a"), "{}", err.field);
}
