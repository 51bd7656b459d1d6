use crate::base::frame::{Frame, Reader};
use crate::context::working::{CallIn, Input, Said, split, write};

/// The section written from `input` over `hosts`, and the tokens it says it takes.
fn section(input: &Input<'_>, hosts: &[&str]) -> (String, f64) {
    let mut f = Frame::new();
    let mut tokens = 0.0;
    f.text(|p| tokens = write(p, input));
    let s = f.into_string();
    (Reader::new(&s).text(hosts), tokens)
}

fn said(host: usize, text: &str, message: usize) -> Said<'_> {
    Said {
        host,
        text,
        message,
        id: None,
    }
}

fn stored<'a>(host: usize, text: &'a str, message: usize, id: &'a str) -> Said<'a> {
    Said {
        id: Some(id),
        ..said(host, text, message)
    }
}

fn call<'a>(tool: &'a str, input: &'a str, id: Option<&'a str>) -> CallIn<'a> {
    CallIn { tool, input, id }
}

const REMINDER: &str = "<system-reminder>todo list empty</system-reminder>\nuse pnpm, never npm";
const EDIT: &str = r#"{"file_path":"src/db.ts","old_string":"a","new_string":"b"}"#;

#[test]
fn nothing_to_state_writes_nothing() {
    let input = Input {
        budget: 50_000.0,
        user_share: 0.1,
        ..Input::default()
    };
    assert_eq!(section(&input, &[""]), (String::new(), 0.0));
    // A message a harness wrote whole is nothing to state.
    let input = Input {
        said: vec![said(1, "<environment_context>x</environment_context>", 3)],
        budget: 50_000.0,
        user_share: 0.1,
        ..Input::default()
    };
    assert_eq!(
        section(
            &input,
            &["", "<environment_context>x</environment_context>"]
        )
        .1,
        0.0
    );
}

#[test]
fn the_users_words_the_trail_and_the_open_calls() {
    let hosts = ["", REMINDER, "don't touch the migrations"];
    let input = Input {
        said: vec![said(1, REMINDER, 9), said(2, hosts[2], 4)],
        calls: vec![
            call("Edit", EDIT, Some("17")),
            call("Read", r#"{"file_path":"src/x.ts"}"#, Some("18")),
            call("Write", r#"{"file_path":"NOTES.md","content":"n"}"#, None),
        ],
        open: vec![("Task", "toolu_1")],
        budget: 50_000.0,
        user_share: 0.1,
        ..Input::default()
    };
    let (text, tokens) = section(&input, &hosts);
    assert!(
        text.starts_with("<working-state>") && text.ends_with("</working-state>"),
        "{text}"
    );
    // Newest first, without what the harness injected.
    let pnpm = text.find("\nuse pnpm, never npm\n</said>").expect(&text);
    let migrations = text
        .find("\ndon't touch the migrations\n</said>")
        .expect(&text);
    assert!(pnpm < migrations);
    assert!(!text.contains("todo list empty"));
    // Newest path first, with its last action and its output's id; reads are not listed.
    let notes = text.find("- \"NOTES.md\": written").expect(&text);
    let db = text
        .find("- \"src/db.ts\": edited, last output stored as 17")
        .expect(&text);
    assert!(notes < db);
    assert!(!text.contains("src/x.ts"));
    assert!(text.contains("- Task (toolu_1): no result yet"));
    assert!(
        tokens >= crate::context::working::estimate(&text),
        "{tokens}"
    );
}

#[test]
fn past_their_share_older_words_are_named_by_first_line() {
    let long = "x".repeat(3_000);
    let hosts = ["", "newest words", long.as_str(), "old rule\nsecond line"];
    let input = Input {
        said: vec![
            said(1, hosts[1], 30),
            said(2, hosts[2], 20),
            said(3, hosts[3], 10),
        ],
        budget: 10_000.0,
        user_share: 0.1,
        ..Input::default()
    };
    let (text, tokens) = section(&input, &hosts);
    assert!(text.contains("\nnewest words\n</said>"), "{text}");
    // The long one does not fit its share: named, as is everything older than it.
    assert!(!text.contains(&long));
    assert!(text.contains("- \"xxxxxxxx"), "{text}");
    assert!(text.contains("…\" (message 20)"), "{text}");
    assert!(text.contains("- \"old rule\" (message 10)"), "{text}");
    assert!(tokens <= 10_000.0 * 0.1 + 10_000.0 * 0.05 + 200.0);
}

#[test]
fn older_words_are_named_by_their_store_id_through_the_next_compaction() {
    let long = "y".repeat(3_000);
    let hosts = [
        "",
        "newest words",
        long.as_str(),
        "old \"rule\"\nsecond line",
    ];
    let input = Input {
        said: vec![
            stored(1, hosts[1], 30, "s:41"),
            stored(2, hosts[2], 20, "s:40"),
            stored(3, hosts[3], 10, "s:39"),
        ],
        budget: 10_000.0,
        user_share: 0.1,
        ..Input::default()
    };
    let (first, _) = section(&input, &hosts);
    // The first line as typed (quotes unescaped), then the id the text is stored under.
    assert!(first.contains("…\" (stored as s:40)"), "{first}");
    assert!(
        first.contains("- \"old \"rule\"\" (stored as s:39)"),
        "{first}"
    );
    assert!(
        first.contains(
            "<said message=\"30\" stored-as=\"s:41\" chars=\"12\">\nnewest words\n</said>"
        ),
        "{first}"
    );
    // A smaller share pushes the verbatim one out: it is named by the id its entry held.
    let hosts = [first.as_str()];
    let again = |share: f64| {
        let input = Input {
            previous: &first,
            budget: 10_000.0,
            user_share: share,
            ..Input::default()
        };
        section(&input, &hosts).0
    };
    let second = again(0.0019);
    assert!(
        second.contains("- \"newest words\" (stored as s:41)"),
        "{second}"
    );
    // The older entries keep their ids from one section to the next.
    let third = again(0.01);
    assert!(third.contains("(stored as s:40)"), "{third}");
    assert!(
        third.contains("- \"old \"rule\"\" (stored as s:39)"),
        "{third}"
    );
}

#[test]
fn the_next_compaction_carries_the_section_on() {
    let hosts = ["", "first rule", "second rule"];
    let input = Input {
        said: vec![said(2, hosts[2], 8), said(1, hosts[1], 3)],
        calls: vec![
            call("Edit", EDIT, Some("17")),
            call(
                "apply_patch",
                "*** Begin Patch\n*** Update File: a \"q\".rs\n*** Move to: b.rs\n*** End Patch",
                None,
            ),
        ],
        budget: 50_000.0,
        user_share: 0.1,
        ..Input::default()
    };
    let (first, _) = section(&input, &hosts);
    let summary = format!("The summary.\n\n{first}");
    let (body, previous) = split(&summary);
    assert_eq!((body, previous), ("The summary.", first.as_str()));
    // The messages behind it are let go: only the section and what is new are given.
    let hosts = [previous, "third rule"];
    let input = Input {
        previous,
        said: vec![said(1, hosts[1], 12)],
        calls: vec![call("Edit", EDIT, Some("40"))],
        budget: 50_000.0,
        user_share: 0.1,
        ..Input::default()
    };
    let (second, _) = section(&input, &hosts);
    let at = |s: &str| second.find(s).unwrap_or_else(|| panic!("{s} in {second}"));
    assert!(at("\nthird rule\n") < at("\nsecond rule\n"));
    assert!(at("\nsecond rule\n") < at("\nfirst rule\n"));
    assert!(second.contains("<said message=\"3\""));
    // Edited again: newest, with the newer output's id, listed once.
    assert!(
        at("\"src/db.ts\": edited, last output stored as 40")
            < at("\"b.rs\": moved from \"a \\\"q\\\".rs\"")
    );
    assert!(second.contains("\"a \\\"q\\\".rs\": moved to \"b.rs\""));
    assert_eq!(second.matches("src/db.ts").count(), 1);
    // Written again from the same state, it is the same: the cache holds.
    let (again, _) = section(
        &Input {
            said: vec![],
            calls: vec![],
            previous: &second,
            ..input.clone()
        },
        &[&second],
    );
    assert_eq!(again, second);
}

#[test]
fn a_summary_without_a_section_splits_whole() {
    assert_eq!(split("just words"), ("just words", ""));
    assert_eq!(
        split("<working-state>\n</working-state>"),
        ("", "<working-state>\n</working-state>")
    );
}

#[test]
fn older_paths_go_on_one_brief_line_and_are_read_back() {
    let inputs: Vec<String> = (0..30)
        .map(|t| format!(r#"{{"file_path":"src/module{t}.ts","old_string":"a","new_string":"b"}}"#))
        .collect();
    let ids: Vec<String> = (0..30).map(|t| format!("id{t}")).collect();
    let calls = (0..30)
        .map(|t| call("Edit", &inputs[t], Some(ids[t].as_str())))
        .collect();
    let input = Input {
        calls,
        budget: 8_000.0,
        user_share: 0.1,
        ..Input::default()
    };
    let (first, _) = section(&input, &[""]);
    // The newest with their ids, the older by path and action: every one named.
    assert!(
        first.contains("- \"src/module29.ts\": edited, last output stored as id29"),
        "{first}"
    );
    assert!(first.contains("\nOlder: "), "{first}");
    for t in 0..30 {
        assert!(
            first.contains(&format!("\"src/module{t}.ts\"")),
            "module {t} in {first}"
        );
    }
    // Read back and written again, the same.
    let again = Input {
        previous: &first,
        budget: 8_000.0,
        user_share: 0.1,
        ..Input::default()
    };
    assert_eq!(section(&again, &[&first]).0, first);
}
