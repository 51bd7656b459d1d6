//! Just enough JSON to read a tool call's input: objects, arrays and strings, the rest
//! skipped. A call's input is the agent's, so anything malformed reads as nothing, never
//! as an error.

/// A JSON value, its scalars other than strings kept only as "something".
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Object(Vec<(String, Value)>),
    Array(Vec<Value>),
    Str(String),
    Other,
}

impl Value {
    /// The value of `key` in an object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The string at `key`, the first of `keys` present.
    pub fn str_at(&self, keys: &[&str]) -> Option<&str> {
        keys.iter().find_map(|k| self.get(k).and_then(Value::str))
    }
}

/// `text` read as one JSON value, or `None`.
pub fn parse(text: &str) -> Option<Value> {
    let mut r = Reader {
        b: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    let v = r.value()?;
    r.space();
    (r.at == r.b.len()).then_some(v)
}

/// Deeper than this is not a tool's input.
const MAX_DEPTH: usize = 64;

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
    depth: usize,
}

impl Reader<'_> {
    fn space(&mut self) {
        while self
            .b
            .get(self.at)
            .is_some_and(|c| matches!(c, b' ' | b'\n' | b'\r' | b'\t'))
        {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.space();
        if self.b.get(self.at) == Some(&c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Option<Value> {
        self.space();
        match *self.b.get(self.at)? {
            b'{' => self.nested(|r| {
                let mut fields = Vec::new();
                if r.eat(b'}') {
                    return Some(Value::Object(fields));
                }
                loop {
                    r.space();
                    let key = r.string()?;
                    if !r.eat(b':') {
                        return None;
                    }
                    fields.push((key, r.value()?));
                    if r.eat(b'}') {
                        return Some(Value::Object(fields));
                    }
                    if !r.eat(b',') {
                        return None;
                    }
                }
            }),
            b'[' => self.nested(|r| {
                let mut items = Vec::new();
                if r.eat(b']') {
                    return Some(Value::Array(items));
                }
                loop {
                    items.push(r.value()?);
                    if r.eat(b']') {
                        return Some(Value::Array(items));
                    }
                    if !r.eat(b',') {
                        return None;
                    }
                }
            }),
            b'"' => self.string().map(Value::Str),
            _ => {
                let start = self.at;
                while self
                    .b
                    .get(self.at)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.'))
                {
                    self.at += 1;
                }
                (self.at > start).then_some(Value::Other)
            }
        }
    }

    fn nested(&mut self, read: impl FnOnce(&mut Self) -> Option<Value>) -> Option<Value> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.at += 1;
        self.depth += 1;
        let v = read(self);
        self.depth -= 1;
        v
    }

    fn string(&mut self) -> Option<String> {
        if self.b.get(self.at) != Some(&b'"') {
            return None;
        }
        self.at += 1;
        let mut units: Vec<u16> = Vec::new();
        let mut plain = self.at;
        let flush = |units: &mut Vec<u16>, b: &[u8], from: usize, to: usize| {
            if let Ok(s) = std::str::from_utf8(&b[from..to]) {
                units.extend(s.encode_utf16());
            }
        };
        loop {
            match *self.b.get(self.at)? {
                b'"' => {
                    flush(&mut units, self.b, plain, self.at);
                    self.at += 1;
                    return Some(String::from_utf16_lossy(&units));
                }
                b'\\' => {
                    flush(&mut units, self.b, plain, self.at);
                    let c = *self.b.get(self.at + 1)?;
                    self.at += 2;
                    match c {
                        b'n' => units.push(u16::from(b'\n')),
                        b't' => units.push(u16::from(b'\t')),
                        b'r' => units.push(u16::from(b'\r')),
                        b'b' => units.push(8),
                        b'f' => units.push(12),
                        b'u' => {
                            let hex =
                                std::str::from_utf8(self.b.get(self.at..self.at + 4)?).ok()?;
                            units.push(u16::from_str_radix(hex, 16).ok()?);
                            self.at += 4;
                        }
                        c => units.push(u16::from(c)),
                    }
                    plain = self.at;
                }
                _ => self.at += 1,
            }
        }
    }
}
