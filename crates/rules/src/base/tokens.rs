//! Token counting ([4_USER_FEATURES-REQ-083]).
//!
//! The default is the seed's heuristic, `Math.ceil(text.length / 4)`, with `length` in
//! UTF-16 units as a JS host computes it (an emoji counts 2). It is an approximation; the
//! shell passes an exact tokenizer's counts where the host gives one.

/// Tokens for a text of `utf16_len` UTF-16 units.
pub fn approx_tokens(utf16_len: usize) -> usize {
    utf16_len.div_ceil(4)
}

#[cfg(test)]
#[path = "tests/tokens.rs"]
mod tests;
