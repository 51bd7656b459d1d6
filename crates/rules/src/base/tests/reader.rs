//! Reads a frame back, as a host does: for the rules' own tests.

use super::{NUM, REF_END, TEXT_END, is_mark};

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
