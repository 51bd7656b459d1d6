use super::*;
use crate::base::frame::{Frame, Reader};

fn shortened(text: &str, mode: Mode, id: Option<&str>) -> Option<String> {
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut f = Frame::new();
    let mut ok = false;
    f.text(|p| ok = shorten(p, &units, mode, id));
    ok.then(|| Reader::new(&f.into_string()).text(&[text]))
}

fn parse(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn a_large_write_keeps_its_keys_and_its_short_values() {
    let content = "fn main() {\n    println!(\"hi\");\n}\n".repeat(5_000);
    let input = serde_json::json!({ "file_path": "/src/main.rs", "content": content, "mode": 420 })
        .to_string();
    let masked = shortened(&input, Mode::Mask, Some("17")).unwrap();
    let v = parse(&masked);
    assert_eq!(v["file_path"], "/src/main.rs");
    assert_eq!(v["mode"], 420);
    let mark = v["content"].as_str().unwrap();
    assert!(mark.contains("stored as 17") && mark.len() < 120, "{mark}");
    let cut = shortened(&input, Mode::Cut { keep: 2_000 }, Some("a\"b")).unwrap();
    let v = parse(&cut);
    let body = v["content"].as_str().unwrap();
    assert!(
        body.starts_with("fn main() {\n") && body.contains("stored as a\"b"),
        "{}",
        &body[..80]
    );
    assert!(cut.encode_utf16().count() <= 2_300, "{}", cut.len());
}

#[test]
fn a_cut_never_splits_an_escape_or_a_surrogate_pair() {
    for filler in ["\\n", "\\u00e9", "😀", "\\\""] {
        let s = format!("{{\"text\":\"{}\"}}", filler.repeat(400));
        for keep in [40, 41, 42, 43, 97, 130] {
            let out = shortened(&s, Mode::Cut { keep }, None).unwrap();
            parse(&out);
            assert!(!out.contains('\u{FFFD}'));
        }
    }
}

#[test]
fn many_short_values_go_below_the_top_level_and_non_json_is_left_to_the_text_cut() {
    let rows: Vec<String> = (0..3_000).map(|i| format!("row {i}")).collect();
    let input = serde_json::json!({ "rows": rows, "name": "t" }).to_string();
    let masked = shortened(&input, Mode::Mask, Some("9")).unwrap();
    let v = parse(&masked);
    assert!(v["rows"].as_str().unwrap().contains("stored as 9"));
    assert_eq!(v["name"], "t");
    assert_eq!(shortened("not json", Mode::Mask, None), None);
    let long = format!("\"{}\"", "x".repeat(500));
    assert!(
        parse(&shortened(&long, Mode::Mask, None).unwrap())
            .as_str()
            .unwrap()
            .contains("502 characters")
    );
    assert_eq!(shortened("{\"a\": 1} trailing", Mode::Mask, None), None);
    // Nothing long: the same text.
    assert_eq!(
        shortened("{\"a\": \"b\"}", Mode::Mask, None).unwrap(),
        "{\"a\": \"b\"}"
    );
}
