use super::*;

#[test]
fn splits_a_batch_by_utf16_lengths() {
    let parts = split_batch("ab😀cdé", &[2, 2, 3]);
    assert_eq!(
        parts.iter().map(lossy).collect::<Vec<_>>(),
        ["ab", "😀", "cdé"]
    );
}

#[test]
fn splits_texts_without_copying() {
    assert_eq!(split_texts("usermodel", &[4, 5]), ["user", "model"]);
    assert_eq!(split_texts("é😀ab", &[1, 2, 2]), ["é", "😀", "ab"]);
}

#[test]
fn a_probe_no_longer_than_max_fits() {
    assert_eq!(cut_end(&Probe::of("abc"), 3, false), None);
    assert_eq!(cut_end(&Probe::of("abcd"), 3, false), Some(3));
    assert_eq!(cut_end(&Probe::of("ab cd"), 4, true), Some(2));
}

#[test]
fn two_units_before_the_limit_decide_a_plain_cut() {
    let text: Vec<u16> = "aaaa😀bb".encode_utf16().collect();
    let window = |max: usize| {
        let start = Probe::start_for(max, false);
        let end = (max + 1).min(text.len());
        Probe {
            start,
            units: Units(text.get(start..end).unwrap_or(&[]).to_vec()),
        }
    };
    assert_eq!(
        cut_end(&window(5), 5, false),
        Some(4),
        "never between the halves of 😀"
    );
    assert_eq!(cut_end(&window(6), 6, false), Some(6));
    assert_eq!(cut_end(&window(8), 8, false), None);
    assert_eq!(
        cut_end(&window(20), 20, false),
        None,
        "a short text sends an empty probe"
    );
}

#[test]
fn blank_is_js_trim_empty() {
    assert!(is_blank(" \n\t\u{feff}\u{3000}"));
    assert!(!is_blank(" x "));
    assert!(!is_blank("\u{85}"));
    assert!(is_blank(""));
}
