//! How host texts reach the rules: by what the rules need to see of them, never more.
//!
//! A rule that cuts a text at `max` UTF-16 units needs only the first `max + 1` units of
//! it (the *probe*): if the probe is no longer than `max`, the text fits. Probes of a batch
//! of texts arrive as one string with their lengths. Positions are UTF-16 units, as a JS
//! host counts them. A host converts lone surrogates to U+FFFD on the way in; that keeps
//! every position, because both are one unit long, and the host cuts its own string.

use super::cut::{Units, cut_point};

/// Splits `joined` into texts of `lens` UTF-16 units each. Lone surrogates become U+FFFD.
pub fn split_batch(joined: &str, lens: &[u32]) -> Vec<Units> {
    let units: Vec<u16> = joined.encode_utf16().collect();
    let mut at = 0usize;
    lens.iter()
        .map(|&n| {
            let end = (at + n as usize).min(units.len());
            let part = Units(units[at..end].to_vec());
            at = end;
            part
        })
        .collect()
}

/// Splits `joined` into texts of `lens` UTF-16 units each, as slices of it: for short
/// texts a rule compares (roles), with no copy.
pub fn split_texts<'a>(joined: &'a str, lens: &[u32]) -> Vec<&'a str> {
    let mut out = Vec::with_capacity(lens.len());
    if joined.is_ascii() {
        let mut at = 0usize;
        for &n in lens {
            let end = (at + n as usize).min(joined.len());
            out.push(&joined[at..end]);
            at = end;
        }
        return out;
    }
    let mut chars = joined.char_indices().peekable();
    for &n in lens {
        let start = chars.peek().map_or(joined.len(), |&(i, _)| i);
        let mut units = 0;
        while units < n as usize {
            match chars.next() {
                Some((_, c)) => units += c.len_utf16(),
                None => break,
            }
        }
        let end = chars.peek().map_or(joined.len(), |&(i, _)| i);
        out.push(&joined[start..end]);
    }
    out
}

/// Where to cut a text whose probe is `probe` so that it fits in `max` units: `None` when
/// it fits already. With `at_space`, at the last space before the limit when there is one.
pub fn cut_end(probe: &Units, max: usize, at_space: bool) -> Option<usize> {
    cut_point(probe, max, at_space)
}

/// True when `text` holds nothing but whitespace, as JS `text.trim() === ''` decides.
pub fn is_blank(text: &str) -> bool {
    text.chars().all(is_js_whitespace)
}

/// JS's `WhiteSpace` and `LineTerminator`: Rust's list plus U+FEFF, less U+0085.
fn is_js_whitespace(c: char) -> bool {
    c == '\u{feff}' || (c.is_whitespace() && c != '\u{85}')
}

/// `text` as a string, lone surrogates replaced: for rules that only read it.
pub fn lossy(units: &Units) -> String {
    String::from_utf16_lossy(&units.0)
}

#[cfg(test)]
mod tests {
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
        assert_eq!(cut_end(&Units::of("abc"), 3, false), None);
        assert_eq!(cut_end(&Units::of("abcd"), 3, false), Some(3));
        assert_eq!(cut_end(&Units::of("ab cd"), 4, true), Some(2));
    }

    #[test]
    fn blank_is_js_trim_empty() {
        assert!(is_blank(" \n\t\u{feff}\u{3000}"));
        assert!(!is_blank(" x "));
        assert!(!is_blank("\u{85}"));
        assert!(is_blank(""));
    }
}
