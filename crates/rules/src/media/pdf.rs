//! A PDF's number of pages, read from the PDF itself: the `/Count` of its page tree's
//! root (the largest `/Count` of a `/Type /Pages` dictionary), or else the number of
//! `/Type /Page` dictionaries. Objects packed into compressed object streams (PDF 1.5
//! and later: most that Word, LaTeX and browsers write) are inflated and read the same
//! way. Nothing else is decoded: the pages are what a provider bills a document by.

use miniz_oxide::inflate::decompress_to_vec_zlib_with_limit;

/// A compressed object stream inflates to at most this: a larger one is a bomb, not pages.
const MAX_INFLATED: usize = 16 << 20;

/// What a scan found: the page tree's counts, the page dictionaries, and whether it met
/// an object stream it could not read.
#[derive(Debug, Default)]
struct Found {
    tree_count: u64,
    page_dicts: u64,
}

/// One open dictionary: what its `/Type` and `/Count` said, and its `/Filter`.
#[derive(Debug, Default)]
struct Dict {
    pages: bool,
    page: bool,
    object_stream: bool,
    flate: bool,
    count: Option<u64>,
}

/// The pages of the PDF `bytes` holds, or `None` when it holds none this can find (not a
/// PDF, an encrypted one, one cut short).
pub fn pages(bytes: &[u8]) -> Option<u64> {
    if !bytes.starts_with(b"%PDF-") {
        return None;
    }
    let mut found = Found::default();
    scan(bytes, &mut found, true);
    if found.tree_count > 0 {
        Some(found.tree_count)
    } else if found.page_dicts > 0 {
        Some(found.page_dicts)
    } else {
        None
    }
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'\0')
}

fn is_delimiter(c: u8) -> bool {
    matches!(
        c,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

/// The end of the token starting at `at` (a name's or a keyword's, a number's).
fn word_end(b: &[u8], mut at: usize) -> usize {
    while at < b.len() && !is_space(b[at]) && !is_delimiter(b[at]) {
        at += 1;
    }
    at
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// Walks `b` token by token: dictionaries, names and numbers; strings, comments and stream
/// data are skipped. `inflate`: an object stream's data is inflated and walked (once: an
/// object stream holds no object stream).
fn scan(b: &[u8], found: &mut Found, inflate: bool) {
    let mut stack: Vec<Dict> = Vec::new();
    // The previous token was the name `/Type` (or `/Count`, or `/Filter`) in the open dictionary.
    let mut last_key: &[u8] = b"";
    // The dictionary just closed, until its stream (if any) is read.
    let mut closed: Option<Dict> = None;
    let mut at = 0;
    while at < b.len() {
        let c = b[at];
        if is_space(c) {
            at += 1;
            continue;
        }
        match c {
            b'%' => {
                while at < b.len() && b[at] != b'\n' && b[at] != b'\r' {
                    at += 1;
                }
            }
            b'(' => {
                // A literal string: balanced parentheses, backslash escapes.
                let mut depth = 0usize;
                while at < b.len() {
                    match b[at] {
                        b'\\' => at += 1,
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    at += 1;
                }
                at += 1;
                last_key = b"";
            }
            b'<' if b.get(at + 1) == Some(&b'<') => {
                stack.push(Dict::default());
                last_key = b"";
                at += 2;
            }
            b'<' => {
                at = find(b, at, b">").map_or(b.len(), |e| e + 1);
                last_key = b"";
            }
            b'>' if b.get(at + 1) == Some(&b'>') => {
                if let Some(d) = stack.pop() {
                    if d.pages {
                        found.tree_count = found.tree_count.max(d.count.unwrap_or(0));
                    }
                    if d.page {
                        found.page_dicts += 1;
                    }
                    if stack.is_empty() {
                        closed = Some(d);
                    }
                }
                last_key = b"";
                at += 2;
            }
            b'/' => {
                let end = word_end(b, at + 1);
                let name = &b[at + 1..end];
                if let Some(d) = stack.last_mut() {
                    match last_key {
                        b"Type" => match name {
                            b"Pages" => d.pages = true,
                            b"Page" => d.page = true,
                            b"ObjStm" => d.object_stream = true,
                            _ => {}
                        },
                        b"Filter" if name == b"FlateDecode" => d.flate = true,
                        _ => {}
                    }
                }
                last_key = name;
                at = end;
            }
            _ => {
                let end = word_end(b, at).max(at + 1);
                let word = &b[at..end];
                if let (b"Count", Some(d)) = (last_key, stack.last_mut())
                    && let Some(n) = std::str::from_utf8(word)
                        .ok()
                        .and_then(|s| s.parse::<u64>().ok())
                {
                    d.count = Some(n);
                }
                at = end;
                if word == b"stream" {
                    // Its data runs from the end of this line to `endstream`.
                    if b.get(at) == Some(&b'\r') {
                        at += 1;
                    }
                    if b.get(at) == Some(&b'\n') {
                        at += 1;
                    }
                    let end = find(b, at, b"endstream").unwrap_or(b.len());
                    if inflate
                        && let Some(d) = closed.as_ref()
                        && d.object_stream
                        && d.flate
                        && let Ok(data) =
                            decompress_to_vec_zlib_with_limit(&b[at..end], MAX_INFLATED)
                    {
                        scan(&data, found, false);
                    }
                    at = end + b"endstream".len().min(b.len() - end);
                }
                if word != b"R" && !word.iter().all(u8::is_ascii_digit) {
                    closed = None;
                }
                last_key = b"";
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use miniz_oxide::deflate::compress_to_vec_zlib;

    /// A PDF of `n` pages, its objects written plainly.
    pub fn plain(n: usize) -> Vec<u8> {
        let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", i + 3)).collect();
        let mut s = format!(
            "%PDF-1.4\n%\u{e2}\u{e3}\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [{}] /Count {n} >>\nendobj\n",
            kids.join(" ")
        );
        for i in 0..n {
            s.push_str(&format!(
                "{} 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents (a (nested) string with /Type /Pages /Count 99) >>\nendobj\n",
                i + 3
            ));
        }
        s.push_str("trailer\n<< /Root 1 0 R >>\n%%EOF\n");
        s.into_bytes()
    }

    #[test]
    fn the_page_tree_count_is_the_pages() {
        assert_eq!(pages(&plain(6)), Some(6));
        assert_eq!(pages(&plain(1)), Some(1));
        assert_eq!(pages(b"not a pdf"), None);
        assert_eq!(pages(b"%PDF-1.7\n"), None);
    }

    #[test]
    fn pages_in_a_compressed_object_stream_are_read() {
        let objects = b"3 0 4 60 << /Type /Pages /Kids [5 0 R 6 0 R 7 0 R] /Count 3 >> << /Type /Page /Parent 3 0 R >>";
        let data = compress_to_vec_zlib(objects, 6);
        let mut b =
            b"%PDF-1.5\n1 0 obj\n<< /Type /ObjStm /N 2 /First 8 /Filter /FlateDecode /Length "
                .to_vec();
        b.extend(data.len().to_string().bytes());
        b.extend(b" >>\nstream\r\n");
        b.extend(&data);
        b.extend(b"\nendstream\nendobj\n%%EOF\n");
        assert_eq!(pages(&b), Some(3));
    }

    #[test]
    fn binary_stream_data_is_not_read_as_dictionaries() {
        let mut b = b"%PDF-1.4\n1 0 obj\n<< /Length 20 >>\nstream\n".to_vec();
        b.extend(b"<< /Type /Pages /Count 40 >>");
        b.extend(b"\nendstream\nendobj\n2 0 obj\n<< /Type /Page >>\nendobj\n");
        assert_eq!(pages(&b), Some(1));
    }
}
