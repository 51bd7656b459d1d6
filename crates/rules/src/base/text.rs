//! How host texts reach the rules: by what the rules need to see of them, never more.
//!
//! A rule that cuts a text at `max` UTF-16 units needs to see only units `start..=max`
//! of it (the *probe*): if the probe ends before `max`, the text fits; otherwise the cut is
//! at `max`, one unit earlier so as not to split a surrogate pair, or (for a cut at a
//! space) at the last space, which a probe from `start = 0` holds. So a host sends units
//! `max - 1 ..= max` for a plain cut, two units however long the text. Probes of a batch of
//! texts arrive as one string with their lengths. Positions are UTF-16 units, as a JS host
//! counts them. A host converts lone surrogates to U+FFFD on the way in; that keeps every
//! position, because both are one unit long, and the host cuts its own string.

use crate::base::cut::{Units, Utf16Text, cut_point};

/// Units `start..` of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    pub start: usize,
    pub units: Units,
}

impl Probe {
    /// A whole text, from its first unit.
    pub fn of(text: &str) -> Self {
        Units::of(text).into()
    }

    /// Where a host's probe for a cut at `max` starts.
    pub fn start_for(max: usize, at_space: bool) -> usize {
        if at_space { 0 } else { max.saturating_sub(1) }
    }
}

impl From<Units> for Probe {
    fn from(units: Units) -> Self {
        Probe { start: 0, units }
    }
}

impl Utf16Text for Probe {
    fn units(&self) -> usize {
        self.start + self.units.units()
    }
    /// A unit outside the probe reads as 0 (no line break, no surrogate): a cut's bounds
    /// look one unit past the line break they move to, which may be the probe's last.
    fn unit_at(&self, index: usize) -> u16 {
        index
            .checked_sub(self.start)
            .and_then(|i| self.units.0.get(i).copied())
            .unwrap_or(0)
    }
    fn last_space_before(&self, end: usize) -> Option<usize> {
        let local = end.checked_sub(self.start)?;
        self.units
            .last_space_before(local.min(self.units.units()))
            .map(|i| i + self.start)
    }
}

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
pub fn cut_end(probe: &Probe, max: usize, at_space: bool) -> Option<usize> {
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
#[path = "tests/text.rs"]
mod tests;
