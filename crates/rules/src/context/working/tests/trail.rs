use crate::context::working::trail::{Action, Reading, Touch, touches};

fn read(tool: &str, input: &str) -> Vec<(String, Action)> {
    read_with(tool, input, &Reading::default())
}

fn read_with(tool: &str, input: &str, how: &Reading<'_>) -> Vec<(String, Action)> {
    touches(tool, input, how)
        .into_iter()
        .map(|Touch { path, action }| (path, action))
        .collect()
}

fn one(path: &str, action: Action) -> Vec<(String, Action)> {
    vec![(path.to_string(), action)]
}

const PATCH: &str = "*** Begin Patch\n*** Add File: src/new.rs\n+fn a() {}\n*** Update File: src/old.rs\n*** Move to: src/moved.rs\n@@\n-a\n+b\n*** Update File: README.md\n@@\n-x\n+y\n*** Delete File: src/gone.rs\n*** End Patch";

#[test]
fn apply_patch_envelopes_in_every_shape() {
    let want = vec![
        ("src/new.rs".to_string(), Action::Created),
        (
            "src/old.rs".to_string(),
            Action::MovedTo("src/moved.rs".into()),
        ),
        (
            "src/moved.rs".to_string(),
            Action::MovedFrom("src/old.rs".into()),
        ),
        ("README.md".to_string(), Action::Edited),
        ("src/gone.rs".to_string(), Action::Deleted),
    ];
    // Codex's freeform tool: the envelope is the input.
    assert_eq!(read("apply_patch", PATCH), want);
    // As a JSON argument.
    let json = format!("{{\"input\":{}}}", json_string(PATCH));
    assert_eq!(read("apply_patch", &json), want);
    // Through Codex's shell, as a command's words.
    let shell = format!("{{\"command\":[\"apply_patch\",{}]}}", json_string(PATCH));
    assert_eq!(read("shell", &shell), want);
    // An envelope in a tool that is neither is not read.
    assert!(
        read(
            "Write",
            &format!(
                "{{\"file_path\":\"p.txt\",\"content\":{}}}",
                json_string(PATCH)
            )
        )
        .len()
            == 1
    );
}

#[test]
fn openai_apply_patch_call_operations() {
    assert_eq!(
        read(
            "apply_patch_call",
            r#"{"operation":{"type":"update_file","path":"lib/a.py","diff":"@@"}}"#
        ),
        one("lib/a.py", Action::Edited)
    );
    assert_eq!(
        read(
            "apply_patch_call",
            r#"{"operation":{"type":"delete_file","path":"lib/b.py"}}"#
        ),
        one("lib/b.py", Action::Deleted)
    );
}

#[test]
fn text_editor_tools() {
    for tool in ["str_replace_based_edit_tool", "str_replace_editor"] {
        assert_eq!(
            read(
                tool,
                r#"{"command":"create","path":"/r/a.md","file_text":"x"}"#
            ),
            one("/r/a.md", Action::Created)
        );
        assert_eq!(
            read(
                tool,
                r#"{"command":"str_replace","path":"/r/a.md","old_str":"x","new_str":"y"}"#
            ),
            one("/r/a.md", Action::Edited)
        );
        assert!(read(tool, r#"{"command":"view","path":"/r/a.md"}"#).is_empty());
    }
}

#[test]
fn claude_code_cline_gemini_and_opencode_tools() {
    assert_eq!(
        read(
            "Edit",
            r#"{"file_path":"/r/x.ts","old_string":"a","new_string":"b"}"#
        ),
        one("/r/x.ts", Action::Edited)
    );
    assert_eq!(
        read("MultiEdit", r#"{"file_path":"/r/y.ts","edits":[]}"#),
        one("/r/y.ts", Action::Edited)
    );
    assert_eq!(
        read("Write", r#"{"file_path":"/r/z.ts","content":"c"}"#),
        one("/r/z.ts", Action::Written)
    );
    assert_eq!(
        read("write_to_file", r#"{"path":"a/b.py","content":"c"}"#),
        one("a/b.py", Action::Written)
    );
    assert_eq!(
        read("replace_in_file", r#"{"path":"a/b.py","diff":"d"}"#),
        one("a/b.py", Action::Edited)
    );
    assert_eq!(
        read(
            "replace",
            r#"{"file_path":"g.go","old_string":"a","new_string":"b"}"#
        ),
        one("g.go", Action::Edited)
    );
    assert_eq!(
        read("write_file", r#"{"file_path":"g.go","content":"c"}"#),
        one("g.go", Action::Written)
    );
    assert_eq!(
        read(
            "edit",
            r#"{"filePath":"o.ts","oldString":"a","newString":"b"}"#
        ),
        one("o.ts", Action::Edited)
    );
    // Reads are not writes.
    assert!(read("Read", r#"{"file_path":"/r/x.ts"}"#).is_empty());
    assert!(read("read_file", r#"{"path":"a/b.py"}"#).is_empty());
}

#[test]
fn a_hosts_own_tools_by_name() {
    let how = Reading {
        tools: &["save_doc"],
        shell: false,
    };
    assert!(read("save_doc", r#"{"path":"doc.md"}"#).is_empty());
    assert_eq!(
        read_with("save_doc", r#"{"path":"doc.md"}"#, &how),
        one("doc.md", Action::Edited)
    );
}

#[test]
fn shell_moves_and_removals_only_when_asked() {
    let input = r#"{"command":"git mv a.rs b.rs && rm -rf build/ tmp.txt; ls"}"#;
    assert!(read("Bash", input).is_empty());
    let how = Reading {
        tools: &[],
        shell: true,
    };
    assert_eq!(
        read_with("Bash", input, &how),
        vec![
            ("a.rs".to_string(), Action::MovedTo("b.rs".into())),
            ("b.rs".to_string(), Action::MovedFrom("a.rs".into())),
            ("build/".to_string(), Action::Deleted),
            ("tmp.txt".to_string(), Action::Deleted),
        ]
    );
}

#[test]
fn malformed_input_reads_as_nothing() {
    assert!(read("Edit", r#"{"file_path":"#).is_empty());
    assert!(read("Edit", "[[[[").is_empty());
    let deep = "[".repeat(10_000);
    assert!(read("apply_patch", &deep).is_empty());
}

fn json_string(s: &str) -> String {
    let mut out = String::new();
    crate::context::ledger::Json::json(s, &mut out);
    out
}
