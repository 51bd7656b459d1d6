//! A rule's answer as plain data: one string that a host reads in order.
//!
//! Texts that a rule produces are mostly the host's own texts with the rule's words in
//! between: a prompt is headings around turn contents, a refresh is labels around two
//! summaries. So a text is sent as *pieces*: the rule's literal words, and references to
//! host texts by index (whole, or a UTF-16 range of one). The host pastes its own strings
//! back in, so they are never copied into wasm and back, and come out exactly as they went
//! in (lone surrogates included).
//!
//! The frame is one string, so it crosses as one native UTF-8 decode. Its structure is
//! marked with Unicode noncharacters, which no rule's words contain:
//! - a number: [`NUM`], the number in JS notation, [`REF_END`];
//! - a text: its literal words as they are, each host reference as [`HOST`]
//!   `index,start,end` [`REF_END`] (`end` -1 for the rest of the text), or as [`HOST`]
//!   `index` [`REF_END`] for the whole text (most references: a prompt's turns, a
//!   refresh's summaries), then [`TEXT_END`].

use devs_context_errors::marks::push_unmarked;
pub use devs_context_errors::marks::{HOST, NUM, REF_END, TEXT_END, is_mark};

/// Appends `value` in decimal, as `format!` would, without making a string for it.
fn push_decimal(out: &mut String, value: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = value;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(d as char);
    }
}

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Frame {
    out: String,
}

impl Frame {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn num(&mut self, value: f64) -> &mut Self {
        self.out.push(NUM);
        // A whole number >= 0 below 2^53, nearly every number a frame carries, is written as
        // `show_number` writes it, without its formatting machinery (a seed's turn writes several).
        if (0.0..9_007_199_254_740_992.0).contains(&value) && value.fract() == 0.0 {
            push_decimal(&mut self.out, value as u64);
        } else {
            self.out.push_str(&crate::base::number::show_number(value));
        }
        self.out.push(REF_END);
        self
    }

    pub fn flag(&mut self, value: bool) -> &mut Self {
        self.num(if value { 1.0 } else { 0.0 })
    }

    /// Appends a text; `build` adds its pieces.
    pub fn text(&mut self, build: impl FnOnce(&mut Pieces<'_>)) -> &mut Self {
        build(&mut Pieces { frame: self });
        self.out.push(TEXT_END);
        self
    }

    pub fn into_string(self) -> String {
        self.out
    }
}

/// The pieces of one text, written in order.
pub struct Pieces<'a> {
    frame: &'a mut Frame,
}

impl Pieces<'_> {
    pub fn lit(&mut self, text: &str) -> &mut Self {
        debug_assert!(
            !text.chars().any(is_mark),
            "a rule's words hold no frame marks"
        );
        push_unmarked(&mut self.frame.out, text);
        self
    }

    /// Words that may hold text from the host (a field's path, a message quoting a value):
    /// its frame marks, noncharacters no text means, are left out rather than refused.
    pub fn quoted(&mut self, text: &str) -> &mut Self {
        push_unmarked(&mut self.frame.out, text);
        self
    }

    /// Host text `index`, whole: the index alone, the shortest form to write and to read.
    pub fn host(&mut self, index: usize) -> &mut Self {
        let out = &mut self.frame.out;
        out.push(HOST);
        push_decimal(out, index as u64);
        out.push(REF_END);
        self
    }

    /// Host text `index` from UTF-16 unit `start` to `end` (`None`: to its end).
    pub fn host_range(&mut self, index: usize, start: usize, end: Option<usize>) -> &mut Self {
        let out = &mut self.frame.out;
        out.push(HOST);
        push_decimal(out, index as u64);
        out.push(',');
        push_decimal(out, start as u64);
        out.push(',');
        match end {
            Some(e) => push_decimal(out, e as u64),
            None => out.push_str("-1"),
        }
        out.push(REF_END);
        self
    }
}

/// Reads a frame back, as a host does: for the rules' own tests, and the binding's.
pub struct Reader<'a> {
    rest: &'a str,
}

impl<'a> Reader<'a> {
    pub fn new(frame: &'a str) -> Self {
        Self { rest: frame }
    }

    pub fn num(&mut self) -> f64 {
        let body = self.rest.strip_prefix(NUM).expect("a number");
        let end = body.find(REF_END).expect("a number ends");
        self.rest = &body[end + REF_END.len_utf8()..];
        match &body[..end] {
            "Infinity" => f64::INFINITY,
            "-Infinity" => f64::NEG_INFINITY,
            n => n.parse().expect("a number in JS notation"),
        }
    }

    /// The next text, with `hosts` pasted in.
    pub fn text(&mut self, hosts: &[&str]) -> String {
        let mut out: Vec<u16> = Vec::new();
        loop {
            let at = self.rest.find(is_mark).expect("a text ends");
            out.extend(self.rest[..at].encode_utf16());
            let mark = self.rest[at..].chars().next().unwrap_or(TEXT_END);
            self.rest = &self.rest[at + mark.len_utf8()..];
            if mark == TEXT_END {
                return String::from_utf16_lossy(&out);
            }
            let end = self.rest.find(REF_END).expect("a reference ends");
            let parts: Vec<i64> = self.rest[..end]
                .split(',')
                .map(|p| p.parse().unwrap())
                .collect();
            self.rest = &self.rest[end + REF_END.len_utf8()..];
            let host: Vec<u16> = hosts[parts[0] as usize].encode_utf16().collect();
            let (start, stop) = match parts[..] {
                [_] => (0, host.len()),
                [_, start, stop] if stop < 0 => (start as usize, host.len()),
                [_, start, stop] => (start as usize, stop as usize),
                _ => panic!("a reference is an index, or an index and a range"),
            };
            out.extend_from_slice(&host[start..stop]);
        }
    }

    pub fn done(&self) -> bool {
        self.rest.is_empty()
    }
}

#[cfg(test)]
#[path = "tests/frame.rs"]
mod tests;
