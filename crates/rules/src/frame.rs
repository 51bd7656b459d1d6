//! A rule's answer as plain data: one flat list of numbers that a host reads in order.
//!
//! Texts that a rule produces are mostly the host's own texts with the rule's words in
//! between: a prompt is headings around turn contents, a refresh is labels around two
//! summaries. So a text is sent as *pieces*: the rule's literal words, and references to
//! host texts by index (whole, or a UTF-16 range of one). The host pastes its own strings
//! back in, so they are never copied into wasm and back, and come out exactly as they went
//! in (lone surrogates included).
//!
//! Wire format, in `f64`s:
//! - a number: itself;
//! - a text: pieces, then [`END`]. A piece is [`LIT`] `n` followed by `n` UTF-16 units,
//!   or [`HOST`] `index start end` (`end` = [`WHOLE`] for the whole text).

pub const LIT: f64 = 0.0;
pub const HOST: f64 = 1.0;
pub const END: f64 = 2.0;
/// `end` of a [`HOST`] piece that takes the host text to its end.
pub const WHOLE: f64 = -1.0;

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Frame {
    values: Vec<f64>,
}

impl Frame {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn num(&mut self, value: f64) -> &mut Self {
        self.values.push(value);
        self
    }

    pub fn flag(&mut self, value: bool) -> &mut Self {
        self.num(if value { 1.0 } else { 0.0 })
    }

    /// Appends a text; `build` adds its pieces.
    pub fn text(&mut self, build: impl FnOnce(&mut Pieces<'_>)) -> &mut Self {
        let mut pieces = Pieces {
            frame: self,
            pending: String::new(),
        };
        build(&mut pieces);
        pieces.flush();
        self.values.push(END);
        self
    }

    pub fn into_values(self) -> Vec<f64> {
        self.values
    }
}

/// The pieces of one text, written in order.
pub struct Pieces<'a> {
    frame: &'a mut Frame,
    /// Literal words are merged until a host piece interrupts them.
    pending: String,
}

impl Pieces<'_> {
    pub fn lit(&mut self, text: &str) -> &mut Self {
        self.pending.push_str(text);
        self
    }

    /// Host text `index`, whole.
    pub fn host(&mut self, index: usize) -> &mut Self {
        self.host_range(index, 0, None)
    }

    /// Host text `index` from UTF-16 unit `start` to `end` (`None`: to its end).
    pub fn host_range(&mut self, index: usize, start: usize, end: Option<usize>) -> &mut Self {
        self.flush();
        let end = end.map_or(WHOLE, |e| e as f64);
        self.frame
            .values
            .extend([HOST, index as f64, start as f64, end]);
        self
    }

    fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let units: Vec<u16> = self.pending.encode_utf16().collect();
        self.frame.values.push(LIT);
        self.frame.values.push(units.len() as f64);
        self.frame
            .values
            .extend(units.iter().map(|&u| f64::from(u)));
        self.pending.clear();
    }
}

/// Reads a frame back, as a host does: for the rules' own tests.
pub struct Reader<'a> {
    values: &'a [f64],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(values: &'a [f64]) -> Self {
        Self { values, at: 0 }
    }

    pub fn num(&mut self) -> f64 {
        self.at += 1;
        self.values[self.at - 1]
    }

    /// The next text, with `hosts` pasted in.
    pub fn text(&mut self, hosts: &[&str]) -> String {
        let mut out: Vec<u16> = Vec::new();
        loop {
            let tag = self.num();
            if tag == END {
                return String::from_utf16_lossy(&out);
            }
            if tag == LIT {
                let n = self.num() as usize;
                out.extend(self.values[self.at..self.at + n].iter().map(|&u| u as u16));
                self.at += n;
            } else {
                let host: Vec<u16> = hosts[self.num() as usize].encode_utf16().collect();
                let start = self.num() as usize;
                let end = self.num();
                let end = if end == WHOLE {
                    host.len()
                } else {
                    end as usize
                };
                out.extend_from_slice(&host[start..end]);
            }
        }
    }

    pub fn done(&self) -> bool {
        self.at == self.values.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_texts_read_back_in_order() {
        let mut frame = Frame::new();
        frame.num(7.0).text(|p| {
            p.lit("## ")
                .host(0)
                .lit("\n")
                .host_range(1, 2, Some(4))
                .lit("é😀");
        });
        frame.flag(true);
        let values = frame.into_values();
        let mut r = Reader::new(&values);
        assert_eq!(r.num(), 7.0);
        assert_eq!(r.text(&["TAS", "abcdef"]), "## TAS\ncdé😀");
        assert_eq!(r.num(), 1.0);
        assert!(r.done());
    }

    #[test]
    fn literal_words_merge_into_one_piece() {
        let mut frame = Frame::new();
        frame.text(|p| {
            p.lit("a").lit("b");
        });
        assert_eq!(frame.into_values(), vec![LIT, 2.0, 97.0, 98.0, END]);
    }
}
