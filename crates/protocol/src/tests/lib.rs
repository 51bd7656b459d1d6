use super::*;

#[test]
fn every_table_has_distinct_names_and_codes() {
    for t in TABLES {
        for (i, (key, code)) in t.rows.iter().enumerate() {
            for (other, c) in &t.rows[..i] {
                assert_ne!(key, other, "{}", t.name);
                assert_ne!(code, c, "{}.{key}", t.name);
            }
        }
    }
    let codes = warning_codes();
    for (i, c) in codes.iter().enumerate() {
        assert!(!codes[..i].contains(c), "warning {c} twice");
    }
}

#[test]
fn names_are_distinct_across_the_file() {
    let mut names: Vec<&str> = TABLES.iter().map(|t| t.name).collect();
    names.extend(NUMBERS.iter().map(|n| n.0));
    names.extend(LISTS.iter().map(|l| l.0));
    names.push("WarningCode");
    names.push("FORMAT_RULES");
    names.extend([
        "MANAGER_TEXTS",
        "BODY_FRAMES",
        "RECALL_TOOL",
        "INDEX_HEADER",
        "INDEX_HEADER_RECALL",
        "DEFAULT_SUMMARY_PROMPT",
        "CUT_WINDOW",
        "RULE_DECISIONS",
    ]);
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len());
}
