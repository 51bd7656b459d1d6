//! The codes that cross the boundary are defined once, in the rules (`codes!`); the shell
//! keeps them as plain constants. This test reads the shell's files and fails when a code
//! is added, removed, renamed or renumbered on one side only.

use devs_context_rules::base::args::ErrorClass;
use devs_context_rules::context::history::PART_FLAGS;
use devs_context_rules::context::render::{Op, ShownCode};
use devs_context_rules::context::{Kind, NeedKind, Role};

const CODES_TS: &str = include_str!("../../../pkg/src/context/codes.ts");
const ERRORS_TS: &str = include_str!("../../../pkg/src/errors/index.ts");

/// Every `export const NAME = { Key: 0, ... } as const;` of `source`, in order.
fn constants(source: &str) -> Vec<(String, Vec<(String, u8)>)> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(start) = rest.find("export const ") {
        rest = &rest[start + "export const ".len()..];
        let Some((name, after)) = rest.split_once(" = {") else {
            continue;
        };
        let Some(end) = after.find("} as const;") else {
            continue;
        };
        let body = &after[..end];
        let entries = body
            .split([',', '\n'])
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with("//"))
            .map(|entry| {
                let (key, value) = entry
                    .split_once(':')
                    .unwrap_or_else(|| panic!("{name}: `{entry}` is not `Key: code`"));
                let code = value.trim().parse().unwrap_or_else(|_| {
                    panic!("{name}.{}: `{}` is not a code", key.trim(), value.trim())
                });
                (key.trim().to_string(), code)
            })
            .collect();
        out.push((name.trim().to_string(), entries));
        rest = &after[end..];
    }
    out
}

fn table(rows: &[(&str, u8)]) -> Vec<(String, u8)> {
    rows.iter().map(|&(k, v)| (k.to_string(), v)).collect()
}

#[test]
fn the_shell_s_codes_are_the_rules_codes() {
    let rules = [
        ("NeedKind", table(NeedKind::TABLE)),
        ("Op", table(Op::TABLE)),
        ("ShownCode", table(ShownCode::TABLE)),
        ("Kind", table(Kind::TABLE)),
        ("Role", table(Role::TABLE)),
        ("PartFlag", table(&PART_FLAGS)),
    ];
    let shell = constants(CODES_TS);
    let names = |list: &[(String, Vec<(String, u8)>)]| -> Vec<String> {
        list.iter().map(|(n, _)| n.clone()).collect()
    };
    let rule_names: Vec<String> = rules.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(
        names(&shell),
        rule_names,
        "pkg/src/context/codes.ts defines other tables than the rules"
    );
    for ((name, ours), (_, theirs)) in rules.iter().zip(&shell) {
        assert_eq!(
            theirs, ours,
            "pkg/src/context/codes.ts: {name} is not the rules' table"
        );
    }
}

#[test]
fn the_shell_s_error_classes_are_the_rules() {
    let shell = constants(ERRORS_TS);
    let classes = shell
        .iter()
        .find(|(name, _)| name == "ErrorClass")
        .expect("pkg/src/errors/index.ts defines ErrorClass");
    assert_eq!(classes.1, table(ErrorClass::TABLE));
}

#[test]
fn the_reader_sees_every_entry() {
    let parsed = constants(
        "export const A = {\n  X: 0,\n  // why\n  Y: 3,\n} as const;\nexport const B = { Z: 1 } as const;",
    );
    assert_eq!(
        parsed,
        vec![
            ("A".into(), vec![("X".into(), 0), ("Y".into(), 3)]),
            ("B".into(), vec![("Z".into(), 1)]),
        ]
    );
}
