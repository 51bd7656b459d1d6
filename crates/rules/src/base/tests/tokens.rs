use super::*;

#[test]
fn counts_like_math_ceil_length_over_four() {
    assert_eq!(ApproxCounter.count(""), 0);
    assert_eq!(ApproxCounter.count("a"), 1);
    assert_eq!(ApproxCounter.count("abcd"), 1);
    assert_eq!(ApproxCounter.count("abcde"), 2);
    // One emoji is two UTF-16 units; four of them are eight.
    assert_eq!(utf16_len("😀"), 2);
    assert_eq!(ApproxCounter.count("😀😀😀"), 2);
    assert_eq!(utf16_len("é中"), 2);
}

#[test]
fn truncation_never_splits_a_surrogate_pair() {
    assert_eq!(truncate_utf16("abcdef", 3), "abc");
    assert_eq!(truncate_utf16("ab😀", 3), "ab");
    assert_eq!(truncate_utf16("ab😀", 4), "ab😀");
    assert_eq!(truncate_utf16("中文字", 2), "中文");
    assert_eq!(truncate_utf16("short", 3000), "short");
}
