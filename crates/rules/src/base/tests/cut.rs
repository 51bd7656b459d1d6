use super::*;

fn cut(text: &str, max: usize, at_space: bool) -> String {
    let units = Units::of(text);
    match cut_point(&units, max, at_space) {
        None => text.to_string(),
        Some(end) => units.prefix(end),
    }
}

#[test]
fn cuts_at_the_last_space_when_there_is_one() {
    assert_eq!(cut("alpha beta gamma", 12, true), "alpha beta");
    assert_eq!(cut("alphabetagamma", 5, true), "alpha");
    assert_eq!(cut("fits", 4, true), "fits");
}

#[test]
fn never_splits_a_surrogate_pair() {
    assert_eq!(cut("ab😀cd", 3, false), "ab");
    assert_eq!(cut("ab😀cd", 4, false), "ab😀");
}
