//! Where to cut a text that is over its budget, on any UTF-16 text: JS strings are cut in
//! place by the bindings, without copying them into wasm.

/// A read-only UTF-16 text.
pub trait Utf16Text {
    fn units(&self) -> usize;
    fn unit_at(&self, index: usize) -> u16;
    /// Index of the last space strictly before `end`.
    fn last_space_before(&self, end: usize) -> Option<usize>;
}

fn is_high_surrogate(unit: u16) -> bool {
    (0xD800..0xDC00).contains(&unit)
}

/// The length to keep so that `text` fits in `max_units`, or `None` when it already fits.
/// With `at_space`, the cut moves back to the last space when there is one.
/// A cut never separates the two halves of a surrogate pair.
pub fn cut_point(text: &impl Utf16Text, max_units: usize, at_space: bool) -> Option<usize> {
    if text.units() <= max_units {
        return None;
    }
    let mut end = max_units;
    if end > 0 && is_high_surrogate(text.unit_at(end - 1)) {
        end -= 1;
    }
    if at_space && let Some(space) = text.last_space_before(end) {
        end = space;
    }
    Some(end)
}

/// `str` as UTF-16, for the rules' own tests and Rust callers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Units(pub Vec<u16>);

impl Units {
    pub fn of(text: &str) -> Self {
        Self(text.encode_utf16().collect())
    }

    pub fn prefix(&self, end: usize) -> String {
        String::from_utf16_lossy(&self.0[..end])
    }
}

impl Utf16Text for Units {
    fn units(&self) -> usize {
        self.0.len()
    }
    fn unit_at(&self, index: usize) -> u16 {
        self.0[index]
    }
    fn last_space_before(&self, end: usize) -> Option<usize> {
        self.0[..end].iter().rposition(|&u| u == u16::from(b' '))
    }
}

#[cfg(test)]
#[path = "tests/cut.rs"]
mod tests;
