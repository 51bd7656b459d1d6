//! A PDF's number of pages, read from the PDF itself: the `/Count` of its page tree's
//! root (a `/Type /Pages` dictionary with no `/Parent`), or else the largest `/Count` of a
//! page tree node, or else the number of `/Type /Page` dictionaries. Objects packed into
//! object streams (PDF 1.5 and later: most that Word, LaTeX and browsers write) are
//! decoded through their filters ([`super::filters`]: a name or an array of them, chains,
//! `/DecodeParms`, the abbreviations) and read the same way. Nothing else is decoded: the
//! pages are what a provider bills a document by.
//!
//! An object stream this cannot decode (an image filter, an encrypted document, data cut
//! short) may hold the page tree. Then the pages are bounded, not read: every page is an
//! object, so a PDF holds at most the page dictionaries read plus the objects of the
//! streams not read (each stream's `/N`).

use super::filters::{self, Decoded, Filter, Params};

/// What a PDF says of its pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pages {
    /// Its page tree's count, or its page dictionaries.
    Read(u64),
    /// Object streams this cannot decode: at most this many.
    AtMost(u64),
    /// None this can find or bound: not a PDF, or one cut short or encrypted past reading.
    Unread,
}

/// Containers nest at most this deep; deeper ones are skipped whole.
const MAX_DEPTH: usize = 64;

/// A PDF object as far as pages need it.
#[derive(Debug)]
enum Value<'a> {
    Name(&'a [u8]),
    Int(i64),
    Ref,
    Null,
    Array(Vec<Value<'a>>),
    Dict(Dict<'a>),
    Other,
}

#[derive(Debug, Default)]
struct Dict<'a> {
    entries: Vec<(&'a [u8], Value<'a>)>,
}

impl<'a> Dict<'a> {
    fn get(&self, key: &[u8]) -> Option<&Value<'a>> {
        self.entries
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }

    fn int(&self, key: &[u8]) -> Option<i64> {
        match self.get(key) {
            Some(Value::Int(n)) => Some(*n),
            _ => None,
        }
    }

    fn is(&self, key: &[u8], name: &[u8]) -> bool {
        matches!(self.get(key), Some(Value::Name(n)) if *n == name)
    }
}

/// An open container: an array, or a dictionary with the key waiting for its value.
enum Open<'a> {
    Array(Vec<Value<'a>>),
    Dict(Dict<'a>, Option<&'a [u8]>),
}

/// What the scan found.
#[derive(Debug, Default)]
struct Found {
    /// The largest `/Count` of a root (no `/Parent`), and of any node.
    root: u64,
    node: u64,
    page_dicts: u64,
    /// Object streams not read whole: the objects they hold, or that one has no `/N`.
    unread: bool,
    unread_objects: u64,
    unbounded: bool,
}

/// The pages of the PDF `bytes` holds.
pub fn pages(bytes: &[u8]) -> Pages {
    let head = &bytes[..bytes.len().min(1024)];
    if !head.windows(5).any(|w| w == b"%PDF-") {
        return Pages::Unread;
    }
    let mut found = Found::default();
    Scan::new(bytes, &mut found, true).run();
    let read = if found.root > 0 {
        found.root
    } else if found.node > 0 {
        found.node
    } else {
        found.page_dicts
    };
    if !found.unread {
        return if read > 0 {
            Pages::Read(read)
        } else {
            Pages::Unread
        };
    }
    // A root read may be an earlier revision's, its update in a stream not read.
    let bound = found
        .page_dicts
        .saturating_add(found.unread_objects)
        .max(read);
    if found.unbounded || bound == 0 {
        Pages::Unread
    } else {
        Pages::AtMost(bound)
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

/// A stream's filters with their parameters; `None` for one this does not decode (an
/// image filter, `Crypt`, an indirect `/Filter` or `/DecodeParms`, an external file).
fn filters_of(d: &Dict) -> Option<Vec<(Filter, Params)>> {
    if d.get(b"F").is_some() {
        return None;
    }
    let names: Vec<&[u8]> = match d.get(b"Filter") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Name(n)) => vec![*n],
        Some(Value::Array(list)) => list
            .iter()
            .map(|v| match v {
                Value::Name(n) => Some(*n),
                _ => None,
            })
            .collect::<Option<_>>()?,
        Some(_) => return None,
    };
    let parms: Vec<Option<&Dict>> = match d.get(b"DecodeParms").or_else(|| d.get(b"DP")) {
        None | Some(Value::Null) => vec![None; names.len()],
        Some(Value::Dict(p)) => (0..names.len()).map(|i| (i == 0).then_some(p)).collect(),
        Some(Value::Array(list)) => list
            .iter()
            .map(|v| match v {
                Value::Dict(p) => Some(Some(p)),
                Value::Null => Some(None),
                _ => None,
            })
            .collect::<Option<_>>()?,
        Some(_) => return None,
    };
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let filter = Filter::named(name)?;
            let mut p = Params::default();
            if let Some(Some(given)) = parms.get(i) {
                let num = |key: &[u8], default: u32| match given.get(key) {
                    None => Some(default),
                    Some(Value::Int(n)) => u32::try_from(*n).ok(),
                    Some(_) => None,
                };
                p.predictor = num(b"Predictor", 1)?;
                p.colors = num(b"Colors", 1)?;
                p.bits = num(b"BitsPerComponent", 8)?;
                p.columns = num(b"Columns", 1)?;
                p.early_change = num(b"EarlyChange", 1)? != 0;
            }
            Some((filter, p))
        })
        .collect()
}

struct Scan<'a, 'f> {
    b: &'a [u8],
    found: &'f mut Found,
    /// Object streams are decoded and read (once: an object stream holds none).
    decode: bool,
    stack: Vec<Open<'a>>,
    /// Containers skipped past [`MAX_DEPTH`], still open.
    skipping: usize,
    /// The top-level dictionary just closed, until its stream (if any) is read.
    closed: Option<Dict<'a>>,
}

impl<'a, 'f> Scan<'a, 'f> {
    fn new(b: &'a [u8], found: &'f mut Found, decode: bool) -> Self {
        Scan {
            b,
            found,
            decode,
            stack: Vec::new(),
            skipping: 0,
            closed: None,
        }
    }

    /// A value read: into the open container, or at the top level.
    fn deliver(&mut self, v: Value<'a>) {
        if let Value::Dict(d) = &v {
            self.note(d);
        }
        match self.stack.last_mut() {
            Some(Open::Array(list)) => list.push(v),
            Some(Open::Dict(d, key)) => match (key.take(), v) {
                (Some(k), v) => d.entries.push((k, v)),
                (None, Value::Name(n)) => *key = Some(n),
                // A reference's generation, or a malformed entry.
                (None, _) => {}
            },
            None => {
                self.closed = match v {
                    Value::Dict(d) => Some(d),
                    _ => None,
                }
            }
        }
    }

    /// What a dictionary says of the pages.
    fn note(&mut self, d: &Dict) {
        if d.is(b"Type", b"Pages") {
            let count = d
                .int(b"Count")
                .and_then(|n| u64::try_from(n).ok())
                .unwrap_or(0);
            self.found.node = self.found.node.max(count);
            if d.get(b"Parent").is_none() {
                self.found.root = self.found.root.max(count);
            }
        } else if d.is(b"Type", b"Page") {
            self.found.page_dicts += 1;
        }
    }

    fn close(&mut self) {
        if let Some(open) = self.stack.pop() {
            self.deliver(match open {
                Open::Array(list) => Value::Array(list),
                Open::Dict(d, _) => Value::Dict(d),
            });
        }
    }

    fn open(&mut self, open: Open<'a>) {
        if self.skipping > 0 || self.stack.len() >= MAX_DEPTH {
            self.skipping += 1;
        } else {
            self.stack.push(open);
        }
    }

    /// A closer: `dict` for `>>`, else `]`.
    fn shut(&mut self, dict: bool) {
        if self.skipping > 0 {
            self.skipping -= 1;
            if self.skipping == 0 {
                self.deliver(Value::Other);
            }
            return;
        }
        // A dictionary's closer closes the arrays left open inside it.
        while dict && matches!(self.stack.last(), Some(Open::Array(_))) {
            self.close();
        }
        match self.stack.last() {
            Some(Open::Dict(..)) if dict => self.close(),
            Some(Open::Array(_)) if !dict => self.close(),
            _ => {}
        }
    }

    fn run(&mut self) {
        let b = self.b;
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
                    self.deliver(Value::Other);
                }
                b'<' if b.get(at + 1) == Some(&b'<') => {
                    self.open(Open::Dict(Dict::default(), None));
                    at += 2;
                }
                b'<' => {
                    at = find(b, at, b">").map_or(b.len(), |e| e + 1);
                    self.deliver(Value::Other);
                }
                b'>' if b.get(at + 1) == Some(&b'>') => {
                    self.shut(true);
                    at += 2;
                }
                b'[' => {
                    self.open(Open::Array(Vec::new()));
                    at += 1;
                }
                b']' => {
                    self.shut(false);
                    at += 1;
                }
                b'/' => {
                    let end = word_end(b, at + 1);
                    self.deliver(Value::Name(&b[at + 1..end]));
                    at = end;
                }
                _ => {
                    let end = word_end(b, at).max(at + 1);
                    at = self.word(&b[at..end], end);
                }
            }
        }
    }

    /// A keyword or a number ending at `end`; where the scan goes on.
    fn word(&mut self, word: &'a [u8], end: usize) -> usize {
        match word {
            b"R" => {
                match self.stack.last_mut() {
                    Some(Open::Array(list)) => {
                        let n = list.len();
                        if n >= 2 && matches!(list[n - 2..], [Value::Int(_), Value::Int(_)]) {
                            list.truncate(n - 2);
                            list.push(Value::Ref);
                        }
                    }
                    Some(Open::Dict(d, None)) => {
                        if let Some((_, v @ Value::Int(_))) = d.entries.last_mut() {
                            *v = Value::Ref;
                        }
                    }
                    _ => {}
                }
                end
            }
            b"null" => {
                self.deliver(Value::Null);
                end
            }
            b"stream" => {
                let closed = self.closed.take();
                self.recover();
                self.stream(closed, end)
            }
            // An object's bounds: whatever a broken one left open is closed.
            b"obj" | b"endobj" | b"endstream" | b"trailer" | b"xref" => {
                self.recover();
                self.closed = None;
                end
            }
            _ => {
                let v = std::str::from_utf8(word)
                    .ok()
                    .and_then(|s| s.parse::<i64>().ok())
                    .map_or(Value::Other, Value::Int);
                self.deliver(v);
                end
            }
        }
    }

    fn recover(&mut self) {
        self.skipping = 0;
        while !self.stack.is_empty() {
            self.close();
        }
    }

    /// The stream after the keyword ending at `at`, of dictionary `d`: an object stream is
    /// decoded and read; its data is never read as objects. Where the scan goes on.
    fn stream(&mut self, d: Option<Dict<'a>>, mut at: usize) -> usize {
        let b = self.b;
        // Its data runs from the end of this line, for its `/Length` where that ends at
        // `endstream`, else to the first `endstream`.
        if b.get(at) == Some(&b'\r') {
            at += 1;
        }
        if b.get(at) == Some(&b'\n') {
            at += 1;
        }
        let by_length = d
            .as_ref()
            .and_then(|d| d.int(b"Length"))
            .and_then(|n| usize::try_from(n).ok())
            .and_then(|n| at.checked_add(n))
            .filter(|&e| {
                b.get(e..).is_some_and(|rest| {
                    let skip = rest.iter().take_while(|&&c| is_space(c)).count();
                    rest[skip..].starts_with(b"endstream")
                })
            });
        let end = by_length.unwrap_or_else(|| find(b, at, b"endstream").unwrap_or(b.len()));
        if let Some(d) = d.filter(|d| self.decode && d.is(b"Type", b"ObjStm")) {
            self.object_stream(&d, &b[at..end]);
        }
        let after = find(b, end, b"endstream").unwrap_or(b.len());
        (after + b"endstream".len()).min(b.len())
    }

    fn object_stream(&mut self, d: &Dict, data: &[u8]) {
        let decoded = filters_of(d).and_then(|f| filters::decode(data, &f));
        let whole = match decoded {
            Some(Decoded::Whole(bytes)) => {
                Scan::new(&bytes, &mut *self.found, false).run();
                true
            }
            Some(Decoded::Part(bytes)) => {
                // Its page tree's counts, if it came before the break; its pages are among
                // the objects it holds, counted below.
                let mut part = Found::default();
                Scan::new(&bytes, &mut part, false).run();
                self.found.root = self.found.root.max(part.root);
                self.found.node = self.found.node.max(part.node);
                false
            }
            None => false,
        };
        if !whole {
            self.found.unread = true;
            match d.int(b"N").and_then(|n| u64::try_from(n).ok()) {
                Some(n) => self.found.unread_objects = self.found.unread_objects.saturating_add(n),
                None => self.found.unbounded = true,
            }
        }
    }
}

#[cfg(test)]
#[path = "tests/pdf.rs"]
mod tests;
