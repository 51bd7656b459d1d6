//! The seed shapes are written once, in TypeScript (`pkg/src/*/types.ts`). The rules read
//! some of them (field names, enums); this test fails when the two drift apart.

use std::collections::BTreeMap;

use devs_context_rules::seeds::budget::SHARE_KEYS;
use devs_context_rules::seeds::handoff::Role;
use devs_context_rules::seeds::pruner::AgentRole;
use devs_context_rules::seeds::saop::{
    ACTION_KEYS, OBSERVATION_KEYS, STATUSES, THOUGHT_KEYS, TOP_KEYS,
};

/// Every shape file of the shell: the seeds', the runner's, the manager's and the stores'.
const TYPES: &str = concat!(
    include_str!("../../../pkg/src/seeds/types.ts"),
    include_str!("../../../pkg/src/seeds/runner-types.ts"),
    include_str!("../../../pkg/src/context/types.ts"),
    include_str!("../../../pkg/src/stores/types.ts"),
);

/// The source without its `/* … */` comments (JSDoc on members and inline fields).
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        rest = rest[start..]
            .find("*/")
            .map_or("", |end| &rest[start + end + 2..]);
    }
    out.push_str(rest);
    out
}

/// `interface NAME`'s members: name → type text (one level of inline object kept whole).
fn interface(name: &str) -> BTreeMap<String, String> {
    let types = without_comments(TYPES);
    let start = types
        .find(&format!("export interface {name} {{"))
        .unwrap_or_else(|| panic!("pkg/src/*/types.ts has no interface {name}"));
    let body = &types[start..];
    let mut members = BTreeMap::new();
    let (mut depth, mut current): (i32, Option<(String, String)>) = (0, None);
    for line in body.lines().skip(1) {
        let trimmed = line.trim();
        if depth == 0 && trimmed == "}" {
            break;
        }
        if trimmed.is_empty() {
            continue;
        }
        if depth == 0 && !trimmed.starts_with("//") {
            if let Some((key, rest)) = trimmed.split_once(':') {
                let key = key.trim_end_matches('?').trim().to_string();
                current = Some((key, rest.trim().to_string()));
            }
        } else if let Some((_, text)) = current.as_mut() {
            text.push(' ');
            text.push_str(trimmed);
        }
        depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
        if depth == 0
            && let Some((key, text)) = current.take()
        {
            members.insert(key, text);
        }
    }
    members
}

/// The keys of an inline object type `{ a: …; b?: … }`.
fn inline_keys(text: &str) -> Vec<String> {
    let inner = text
        .trim_start_matches('{')
        .split('}')
        .next()
        .unwrap_or_default();
    inner
        .split(';')
        .filter_map(|m| m.split_once(':'))
        .map(|(k, _)| k.trim().trim_end_matches('?').to_string())
        .collect()
}

/// The members of a union of string literals, `'a' | 'b'`.
fn literals(text: &str) -> Vec<String> {
    text.split('|')
        .map(|s| {
            s.trim()
                .trim_end_matches(';')
                .trim()
                .trim_matches('\'')
                .to_string()
        })
        .collect()
}

fn sorted<S: ToString>(items: &[S]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn the_saop_validator_checks_the_fields_the_type_declares() {
    let envelope = interface("SaopEnvelope");
    assert_eq!(
        sorted(&envelope.keys().collect::<Vec<_>>()),
        sorted(&TOP_KEYS)
    );
    assert_eq!(
        sorted(&inline_keys(&envelope["thought"])),
        sorted(&THOUGHT_KEYS)
    );
    assert_eq!(
        sorted(&inline_keys(&envelope["action"])),
        sorted(&ACTION_KEYS)
    );
    assert_eq!(
        sorted(&inline_keys(&envelope["observation"])),
        sorted(&OBSERVATION_KEYS)
    );
    let status = envelope["observation"]
        .split("status:")
        .nth(1)
        .and_then(|s| s.split(';').next())
        .expect("observation.status is declared");
    assert_eq!(literals(status), STATUSES);
}

#[test]
fn roles_are_the_ones_the_types_declare() {
    assert_eq!(literals(&interface("TurnEntry")["role"]), Role::NAMES);
    assert_eq!(literals(&interface("AgentTurn")["role"]), AgentRole::NAMES);
}

#[test]
fn budget_shares_are_the_window_budget_fields() {
    let budget = interface("WindowBudget");
    assert_eq!(
        sorted(&budget.keys().collect::<Vec<_>>()),
        sorted(&SHARE_KEYS)
    );
}

#[test]
fn the_reader_tells_members_apart() {
    let entry = interface("TurnLogEntry");
    assert!(entry.contains_key("turn_index"));
    assert!(!entry.contains_key("turnIndex"));
    assert_eq!(entry.len(), 4);
}

/// The ledger record is one Rust struct, serialized once: its JSON has exactly the fields
/// `LedgerRecord` declares, nested objects included.
#[test]
fn the_ledger_record_is_the_type_the_host_reads() {
    use devs_context_rules::context::ledger::{Compaction, Ledger};
    let record = Ledger {
        compaction: Some(Compaction::default()),
        ..Ledger::default()
    };
    let json: serde_json::Value = serde_json::from_str(&record.to_json()).unwrap();
    let keys = |v: &serde_json::Value| sorted(&v.as_object().unwrap().keys().collect::<Vec<_>>());
    let declared = interface("LedgerRecord");
    assert_eq!(keys(&json), sorted(&declared.keys().collect::<Vec<_>>()));
    for nested in ["sections", "cache", "calibration", "compaction"] {
        // A member is typed inline (`{ a: …; b?: … }`) or by a named interface (defined once).
        let text = declared[nested].trim().trim_end_matches(';').trim();
        let named = text.split(['|', ' ']).next().unwrap_or_default();
        let members = if text.starts_with('{') {
            inline_keys(text)
        } else {
            interface(named).into_keys().collect()
        };
        assert_eq!(keys(&json[nested]), sorted(&members), "{nested}");
    }
}

/// The options the rules take by name (`ManagerCore::new`) are options a host writes.
/// (`BoundedOptions` declares all of them but `keepFirstMessage`.)
#[test]
fn the_manager_s_named_options_are_the_host_s() {
    use devs_context_rules::context::config::OPTION_NAMES;
    let declared = interface("ContextManagerOptions");
    for name in OPTION_NAMES {
        assert!(
            declared.contains_key(name),
            "ContextManagerOptions has no {name}"
        );
    }
}
