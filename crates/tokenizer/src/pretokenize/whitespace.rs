//! Whitespace: the runs the regex would take, and the emulation of the `\s+(?!\S)`
//! lookahead that the DFA cannot express.

use super::classes::{decode_char, is_ascii_ws};

/// Emulates `\s+(?!\S)|\s+` from original tiktoken patterns.
/// Pure byte-level fast path for ASCII whitespace, char-level fallback for Unicode.
///
/// Only the generic whitespace branch carries the lookahead. Both patterns have a
/// dedicated `\s*[\r\n]+` branch ordered before it, so a match ending in `\r`/`\n`
/// came from a rule that has none (`\s*[\r\n]+`, or the `[\r\n]*` tail of the
/// punctuation rule) and is returned untouched.
#[inline]
pub(super) fn adjust_whitespace_end(bytes: &[u8], start: usize, end: usize) -> usize {
    if end - start <= 1 || end >= bytes.len() {
        return end;
    }

    // A match ending in \r/\n never carries the lookahead, so it keeps its full
    // extent: trimming would split canonical "\n\n" / "\r\n" tokens into single ones.
    if matches!(bytes[end - 1], b'\r' | b'\n') {
        return end;
    }

    // fast reject: if first byte is printable ASCII (0x21..0x7E), not whitespace
    let first = bytes[start];
    if first > 0x20 && first < 0x7F {
        return end;
    }

    // ASCII fast path
    // safety: end < bytes.len() is guaranteed by the early return above
    let piece = &bytes[start..end];
    if piece.iter().all(|&b| is_ascii_ws(b)) {
        let next = bytes[end];
        if is_ascii_ws(next) {
            return end;
        }
        return end - 1;
    }

    // unicode slow path
    // safety: DFA match boundaries (utf8 mode) are always valid UTF-8 since input is &str
    let matched = std::str::from_utf8(&bytes[start..end]).unwrap();
    if !matched.chars().all(|c| c.is_whitespace()) {
        return end;
    }
    // Fork fix: tiktoken 4.1.2 validated the *whole* remaining text here
    // (`from_utf8(&bytes[end..])`), making inputs with many Unicode-whitespace
    // pieces (e.g. U+3000 in Japanese) quadratic. Decode just the next char;
    // `end` is a char boundary of valid UTF-8 (end < bytes.len() checked above).
    let next_char = match char::from_u32(decode_char(bytes, end).0) {
        Some(c) => c,
        None => return end,
    };
    if next_char.is_whitespace() {
        return end;
    }
    let last_len = matched.chars().next_back().unwrap().len_utf8();
    // don't trim if it would make the piece empty (single multi-byte whitespace char)
    if end - last_len <= start {
        return end;
    }
    end - last_len
}

/// Fork addition: pieces that start with an ASCII whitespace run, for the
/// cl100k/o200k family (`...|\s*[\r\n]+|\s+(?!\S)|\s+`, NewlineFirst rules).
/// Returns `None` (defer to the DFA) whenever an earlier alternative could
/// claim the run's first char (single ws char followed by a letter or
/// punctuation) or the run is followed by a non-ASCII byte (Unicode ws or
/// letters).
#[inline]
pub(super) fn ascii_ws_next(b: &[u8], i: usize) -> Option<(usize, usize)> {
    let n = b.len();
    if i >= n || !is_ascii_ws(b[i]) {
        return None;
    }
    let mut j = i + 1;
    let mut last_nl = usize::MAX;
    if matches!(b[i], b'\r' | b'\n') {
        last_nl = i;
    }
    while j < n && is_ascii_ws(b[j]) {
        if matches!(b[j], b'\r' | b'\n') {
            last_nl = j;
        }
        j += 1;
    }
    if j < n && b[j] >= 0x80 {
        return None;
    }
    if j == i + 1 {
        // single ws char; next is ASCII non-ws or EOF
        if last_nl == i || j == n {
            return Some((i, j)); // `\s*[\r\n]+`, or `\s+` at end of input
        }
        let nx = b[j];
        if nx.is_ascii_digit() {
            return Some((i, j)); // `\s+` (the lookahead fails, the plain branch takes it)
        }
        return None; // letter: word branch; punctuation: ` ?[^\s..]+` branch (space) — defer
    }
    if last_nl != usize::MAX {
        return Some((i, last_nl + 1)); // `\s*[\r\n]+` ends after the run's last newline
    }
    if j == n {
        return Some((i, j));
    }
    Some((i, j - 1)) // `\s+(?!\S)`: give the last ws char to the next piece
}
