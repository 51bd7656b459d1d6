//! The primitives of the rules' encodings (the journal, a manager's state): whole numbers
//! as LEB128, `f64` little-endian, strings as a length and UTF-8, an option as a flag.

pub fn uint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

pub fn float(out: &mut Vec<u8>, v: f64) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// A count, then each `f64`.
pub fn floats(out: &mut Vec<u8>, v: &[f64]) {
    uint(out, v.len() as u64);
    for x in v {
        float(out, *x);
    }
}

pub fn text(out: &mut Vec<u8>, s: &str) {
    uint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// A size that is most often a whole number: one to three bytes then, nine otherwise.
pub fn amount(out: &mut Vec<u8>, v: f64) {
    if (0.0..4_503_599_627_370_496.0).contains(&v) && v.fract() == 0.0 {
        uint(out, (v as u64) << 1);
    } else {
        uint(out, 1);
        float(out, v);
    }
}

pub fn optional_text(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        None => out.push(0),
        Some(s) => {
            out.push(1);
            text(out, s);
        }
    }
}

pub struct Reader<'a> {
    pub bytes: &'a [u8],
    pub at: usize,
}

impl Reader<'_> {
    pub fn byte(&mut self) -> Result<u8, ()> {
        let b = *self.bytes.get(self.at).ok_or(())?;
        self.at += 1;
        Ok(b)
    }

    pub fn uint(&mut self) -> Result<u64, ()> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(())
    }

    /// A count of things that follow, each at least a byte: no more than the bytes left.
    pub fn count(&mut self) -> Result<usize, ()> {
        let n = self.uint()?;
        let n = usize::try_from(n).map_err(|_| ())?;
        if n > self.bytes.len() - self.at {
            return Err(());
        }
        Ok(n)
    }

    pub fn float(&mut self) -> Result<f64, ()> {
        let end = self.at.checked_add(8).ok_or(())?;
        let b: [u8; 8] = self
            .bytes
            .get(self.at..end)
            .ok_or(())?
            .try_into()
            .map_err(|_| ())?;
        self.at = end;
        Ok(f64::from_le_bytes(b))
    }

    /// A count, then each `f64`.
    pub fn floats(&mut self) -> Result<Vec<f64>, ()> {
        let n = self.count()?;
        (0..n).map(|_| self.float()).collect()
    }

    pub fn amount(&mut self) -> Result<f64, ()> {
        match self.uint()? {
            1 => self.float(),
            v if v & 1 == 0 => Ok((v >> 1) as f64),
            _ => Err(()),
        }
    }

    /// Bytes as a length and the bytes.
    pub fn raw(&mut self) -> Result<&[u8], ()> {
        let n = self.count()?;
        let b = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(b)
    }

    pub fn text(&mut self) -> Result<String, &'static str> {
        let n = self.count().map_err(|_| "is cut short")?;
        let b = &self.bytes[self.at..self.at + n];
        self.at += n;
        String::from_utf8(b.to_vec()).map_err(|_| "is not UTF-8")
    }

    pub fn optional_text(&mut self) -> Result<Option<String>, &'static str> {
        match self.byte().map_err(|_| "is cut short")? {
            0 => Ok(None),
            1 => self.text().map(Some),
            _ => Err("is not a text or none"),
        }
    }
}

/// How a value of the channel between the rules and the shell is written: the journal's
/// primitives above, named so `crates/protocol` writes the shell's reader and writer of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    /// A whole number (LEB128).
    Uint,
    Float,
    Text,
    OptionalText,
    /// A count, then each text.
    Texts,
    /// A count, then each optional text.
    OptionalTexts,
    /// A count, then each whole number.
    Uints,
    /// A count, then each `f64`.
    Floats,
}

impl Codec {
    /// The value's type in TypeScript.
    pub fn ts(self) -> &'static str {
        match self {
            Codec::Uint | Codec::Float => "number",
            Codec::Text => "string",
            Codec::OptionalText => "string | undefined",
            Codec::Texts => "string[]",
            Codec::OptionalTexts => "Array<string | undefined>",
            Codec::Uints | Codec::Floats => "number[]",
        }
    }

    /// The method of the shell's `WireReader` and `WireWriter` (`pkg/src/core/wire.ts`).
    pub fn method(self) -> &'static str {
        match self {
            Codec::Uint => "uint",
            Codec::Float => "float",
            Codec::Text => "text",
            Codec::OptionalText => "optionalText",
            Codec::Texts => "texts",
            Codec::OptionalTexts => "optionalTexts",
            Codec::Uints => "uints",
            Codec::Floats => "floats",
        }
    }
}

/// A value that crosses the channel: its codec, and its encoding.
pub trait Wire {
    const CODEC: Codec;
    fn wire(&self, out: &mut Vec<u8>);
}

impl Wire for usize {
    const CODEC: Codec = Codec::Uint;
    fn wire(&self, out: &mut Vec<u8>) {
        uint(out, *self as u64);
    }
}

impl Wire for f64 {
    const CODEC: Codec = Codec::Float;
    fn wire(&self, out: &mut Vec<u8>) {
        float(out, *self);
    }
}

impl Wire for String {
    const CODEC: Codec = Codec::Text;
    fn wire(&self, out: &mut Vec<u8>) {
        text(out, self);
    }
}

impl Wire for Option<String> {
    const CODEC: Codec = Codec::OptionalText;
    fn wire(&self, out: &mut Vec<u8>) {
        optional_text(out, self.as_deref());
    }
}

impl Wire for Vec<String> {
    const CODEC: Codec = Codec::Texts;
    fn wire(&self, out: &mut Vec<u8>) {
        uint(out, self.len() as u64);
        for s in self {
            text(out, s);
        }
    }
}

impl Wire for Vec<Option<String>> {
    const CODEC: Codec = Codec::OptionalTexts;
    fn wire(&self, out: &mut Vec<u8>) {
        uint(out, self.len() as u64);
        for s in self {
            optional_text(out, s.as_deref());
        }
    }
}

impl Wire for Vec<usize> {
    const CODEC: Codec = Codec::Uints;
    fn wire(&self, out: &mut Vec<u8>) {
        uint(out, self.len() as u64);
        for v in self {
            uint(out, *v as u64);
        }
    }
}
