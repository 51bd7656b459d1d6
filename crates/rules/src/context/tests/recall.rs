use super::*;
use crate::base::frame::{Frame, Reader};

fn answer_text(text: &str, ask: &Ask, max: usize) -> String {
    let mut f = Frame::new();
    f.text(|p| answer(p, &Units::of(text), ask, max));
    Reader::new(&f.into_string()).text(&[text, "17", "bash"])
}

fn ask(offset: usize, length: Option<usize>, query: Option<&str>) -> Ask {
    Ask {
        offset,
        length,
        query: query.map(String::from),
    }
}

#[test]
fn a_long_text_comes_a_page_at_a_time_ending_on_a_line() {
    let text: String = (0..100).map(|i| format!("line {i:03}\n")).collect();
    let first = answer_text(&text, &ask(0, None, None), 75);
    assert!(first.starts_with("[Stored text 17 (bash), characters 0–72 of 900; for more, recall it with offset 72]\nline 000\n"), "{first}");
    assert!(first.ends_with("line 007\n"));
    let next = answer_text(&text, &ask(72, Some(18), None), 75);
    assert!(next.ends_with("]\nline 008\nline 009\n"), "{next}");
    let last = answer_text(&text, &ask(891, None, None), 75);
    assert!(last.contains("of 900; the end]\nline 099\n"), "{last}");
    let past = answer_text(&text, &ask(5_000, None, None), 75);
    assert!(
        past.contains("characters 900–900 of 900; the end]"),
        "{past}"
    );
}

#[test]
fn a_query_gives_the_lines_that_hold_it() {
    let text = "ok\nError: disk full\nok\nanother ERROR here\n".repeat(3);
    let found = answer_text(&text, &ask(0, None, Some("error")), 10_000);
    assert!(found.starts_with("[Stored text 17 (bash): 6 of 6 lines containing \"error\"]\n2: Error: disk full\n4: another ERROR here\n6: "), "{found}");
    let few = answer_text(&text, &ask(0, None, Some("error")), 55);
    assert!(
        few.contains(": 2 of 6 lines") && few.contains("offset 45"),
        "{few}"
    );
    let rest = answer_text(&text, &ask(45, None, Some("error")), 10_000);
    assert!(
        rest.contains(": 4 of 4 lines") && rest.contains("\n6: Error"),
        "{rest}"
    );
    let none = answer_text(&text, &ask(0, None, Some("nothing")), 100);
    assert!(none.contains(": 0 of 0 lines"), "{none}");
}

#[test]
fn a_page_never_splits_a_surrogate_pair() {
    let text = "ab😀cd";
    let units = Units::of(text);
    assert_eq!(page_end(&units, 0, 3), 2);
    assert_eq!(page_end(&units, 0, 4), 4);
}
