use super::*;
use crate::context::index::MAX_NAMES_CHARS;

#[test]
fn names_are_paths_errors_and_distinctive_identifiers() {
    let text = "error[E0308]: mismatched types\n --> src/parse.rs:12:5\nin parse_header and parseHeader2 \
                and parse_header again; see README.md, version 1.2.3, the word something, TypeError: x, ./x";
    let n = names(text, 12, MAX_NAMES_CHARS);
    assert_eq!(
        n,
        [
            "src/parse.rs",
            "README.md",
            "E0308",
            "TypeError",
            "parse_header",
            "parseHeader2"
        ]
    );
    assert_eq!(
        names(text, 2, MAX_NAMES_CHARS),
        ["src/parse.rs", "README.md"]
    );
}

#[test]
fn a_description_is_the_field_that_says_what_a_call_did() {
    assert_eq!(
        describe(r#"{"command":"cargo test -p parser","timeout":5}"#),
        "cargo test -p parser"
    );
    assert_eq!(describe(r#"{"file_path":"/a/b.rs"}"#), "/a/b.rs");
    assert_eq!(describe(r#"{"x": 1}"#), "\"x\": 1}");
    assert_eq!(describe("ls -la\nmore"), "ls -la");
    assert_eq!(
        describe(r#"{"command":"echo \"hi\"\nls"}"#),
        "echo \"hi\" ls"
    );
    assert_eq!(
        describe(&format!("{{\"command\":\"{}\"}}", "a".repeat(300)))
            .chars()
            .count(),
        MAX_DESCRIPTION
    );
    assert_eq!(describe("run `this`"), "run 'this'");
    // An empty input describes nothing (it once gave its closing brace).
    for empty in ["{}", "[]", "{ }", " {\n}\n", ""] {
        assert_eq!(describe(empty), "", "{empty:?}");
    }
}
