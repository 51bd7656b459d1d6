//! The golden plan: `pkg/test/fixtures/plan/golden.json` holds a plan the rules encoded,
//! and what it says, step by step. This test checks the rules still encode it so and
//! read it back the same; `pkg/test/plan-golden.test.mjs` checks the shell's decoder
//! (`pkg/src/context/plan.ts`) reads it the same. Run with `UPDATE_GOLDEN=1` to write
//! the file again after a deliberate change of the encoding (then both sides must agree).

use devs_context_rules::context::render::{Emit, Op, Plan, ShownCode};
use serde_json::{Value, json};

const GOLDEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../pkg/test/fixtures/plan/golden.json"
);

/// A plan with every op, every shown code, unanswered calls and breakpoints, including
/// one on the first emit and one on the last.
fn golden_plan() -> Plan {
    let code = |c: ShownCode| c.code();
    Plan {
        emits: vec![
            Emit::Fixed,
            Emit::Message {
                index: 0,
                changed: vec![],
                unanswered: vec![],
            },
            Emit::Summary,
            Emit::LeftOut,
            Emit::Message {
                index: 5,
                changed: vec![
                    (0, code(ShownCode::Placeholder)),
                    (2, code(ShownCode::Cut)),
                    (3, code(ShownCode::Whole)),
                ],
                unanswered: vec![],
            },
            Emit::Message {
                index: 6,
                changed: vec![(1, code(ShownCode::Dropped))],
                unanswered: vec![7, 9],
            },
            Emit::Message {
                index: 7,
                changed: vec![],
                unanswered: vec![10],
            },
            Emit::Tail,
        ],
        breakpoints: vec![0, 2, 5, 7],
        ..Plan::default()
    }
}

fn name(table: &[(&'static str, u8)], code: u8) -> &'static str {
    table
        .iter()
        .find(|&&(_, c)| c == code)
        .map(|&(n, _)| n)
        .unwrap_or_else(|| panic!("no name for code {code}"))
}

/// What a plan says, step by step, as JSON: what a reader of the encoding must see.
fn steps(plan: &Plan) -> Value {
    let emits: Vec<Value> = plan
        .emits
        .iter()
        .enumerate()
        .map(|(e, emit)| {
            let mark = plan.breakpoints.contains(&e);
            match emit {
                Emit::Fixed => json!({ "op": "Fixed", "mark": mark }),
                Emit::Summary => json!({ "op": "Summary", "mark": mark }),
                Emit::LeftOut => json!({ "op": "LeftOut", "mark": mark }),
                Emit::Tail => json!({ "op": "Tail", "mark": mark }),
                Emit::Message {
                    index,
                    changed,
                    unanswered,
                } => json!({
                    "op": "Message",
                    "mark": mark,
                    "index": index,
                    "changed": changed
                        .iter()
                        .map(|&(p, c)| json!([p, name(ShownCode::TABLE, c)]))
                        .collect::<Vec<_>>(),
                    "unanswered": unanswered,
                }),
            }
        })
        .collect();
    json!(emits)
}

fn golden_json(plan: &Plan) -> Value {
    let encoded: Vec<u64> = plan.encode().iter().map(|&v| v as u64).collect();
    json!({
        "about": "A plan encoded by the rules (render::Plan::encode), and its steps as a reader must see them: crates/rules/tests/plan.rs writes and checks it, pkg/test/plan-golden.test.mjs decodes it with the shell's reader. Written with UPDATE_GOLDEN=1 cargo test -p devs-context-rules --test plan.",
        "encoded": encoded,
        "steps": steps(plan),
    })
}

fn committed() -> Value {
    let text = std::fs::read_to_string(GOLDEN).expect("pkg/test/fixtures/plan/golden.json");
    serde_json::from_str(&text).expect("golden.json is JSON")
}

#[test]
fn the_rules_encode_the_golden_plan_as_committed() {
    let ours = golden_json(&golden_plan());
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        // One step a line, the numbers on one: a change shows as the lines it changes.
        let steps: Vec<String> = ours["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| format!("    {s}"))
            .collect();
        let text = format!(
            "{{\n  \"about\": {},\n  \"encoded\": {},\n  \"steps\": [\n{}\n  ]\n}}\n",
            ours["about"],
            ours["encoded"],
            steps.join(",\n")
        );
        std::fs::write(GOLDEN, text).unwrap();
    }
    let file = committed();
    assert_eq!(file["encoded"], ours["encoded"], "the encoding changed");
    assert_eq!(file["steps"], ours["steps"], "the steps changed");
}

#[test]
fn the_rules_decode_the_committed_plan_to_its_steps() {
    let file = committed();
    let encoded: Vec<f64> = file["encoded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let plan = Plan::decode(&encoded).expect("the golden plan decodes");
    assert_eq!(steps(&plan), file["steps"]);
    assert_eq!(plan.emits, golden_plan().emits);
    assert_eq!(plan.breakpoints, golden_plan().breakpoints);
}

#[test]
fn the_golden_plan_holds_every_op_and_shown_code() {
    let file = committed();
    let steps = file["steps"].as_array().unwrap();
    for &(op, _) in Op::TABLE {
        assert!(steps.iter().any(|s| s["op"] == op), "no {op} step");
    }
    for &(shown, _) in ShownCode::TABLE {
        let found = steps.iter().any(|s| {
            s["changed"]
                .as_array()
                .is_some_and(|c| c.iter().any(|p| p[1] == shown))
        });
        assert!(found, "no part shown {shown}");
    }
}

#[test]
fn a_plan_altered_is_refused() {
    let encoded = golden_plan().encode();
    let mut cases: Vec<Vec<f64>> = vec![
        encoded[..encoded.len() - 1].to_vec(),
        [encoded.clone(), vec![0.0]].concat(),
    ];
    let mut unknown_op = encoded.clone();
    let first_op = 1 + encoded[0] as usize + 1;
    unknown_op[first_op] = 9.0;
    cases.push(unknown_op);
    let mut unordered = encoded.clone();
    unordered.swap(1, 2);
    cases.push(unordered);
    for case in cases {
        assert!(Plan::decode(&case).is_err(), "{case:?} was read");
    }
}
