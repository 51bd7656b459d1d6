//! Token counting ([4_USER_FEATURES-REQ-083]).
//!
//! The default is the seed's heuristic, `Math.ceil(text.length / 4)`, with `length` in
//! UTF-16 units as a JS host computes it (an emoji counts 2). It is an approximation;
//! every rule that counts takes a [`TokenCounter`] so an exact tokenizer can replace it.

/// Counts tokens in a text.
pub trait TokenCounter {
    fn count(&self, text: &str) -> usize;
}

/// `ceil(utf16_len / 4)`.
#[derive(Debug, Default, Clone, Copy)]
pub struct ApproxCounter;

impl TokenCounter for ApproxCounter {
    fn count(&self, text: &str) -> usize {
        approx_tokens(utf16_len(text))
    }
}

/// Tokens for a text of `utf16_len` UTF-16 units.
pub fn approx_tokens(utf16_len: usize) -> usize {
    utf16_len.div_ceil(4)
}

/// `text.length` as JS sees it.
pub fn utf16_len(text: &str) -> usize {
    // ASCII is by far the common case and is one unit per byte.
    if text.is_ascii() {
        return text.len();
    }
    text.chars().map(char::len_utf16).sum()
}

/// The longest prefix of `text` that is at most `max_units` UTF-16 units long, never
/// ending between the two halves of a surrogate pair.
pub fn truncate_utf16(text: &str, max_units: usize) -> &str {
    if text.len() <= max_units {
        // Every char takes at least as many UTF-8 bytes as UTF-16 units.
        return text;
    }
    let mut units = 0;
    for (at, ch) in text.char_indices() {
        units += ch.len_utf16();
        if units > max_units {
            return &text[..at];
        }
    }
    text
}

#[cfg(test)]
#[path = "tests/tokens.rs"]
mod tests;
