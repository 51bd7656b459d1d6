use super::*;

#[test]
fn counts_like_math_ceil_length_over_four() {
    assert_eq!(approx_tokens(0), 0);
    assert_eq!(approx_tokens(1), 1);
    assert_eq!(approx_tokens(4), 1);
    assert_eq!(approx_tokens(5), 2);
    // Three emoji are six UTF-16 units.
    assert_eq!(approx_tokens("😀😀😀".encode_utf16().count()), 2);
}
