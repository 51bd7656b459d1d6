//! Exact token counts for the OpenAI BPE encodings, from the `tiktoken` crate, with
//! `encode_ordinary` semantics: text such as `<|endoftext|>` is ordinary text.

use super::args::FieldError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    O200kBase,
    Cl100kBase,
}

impl Encoding {
    pub const NAMES: [&'static str; 2] = ["o200k_base", "cl100k_base"];

    pub fn parse(field: &str, name: &str) -> Result<Encoding, FieldError> {
        match name {
            "o200k_base" => Ok(Encoding::O200kBase),
            "cl100k_base" => Ok(Encoding::Cl100kBase),
            other => Err(FieldError::range_error(
                field,
                format!("must be 'o200k_base' or 'cl100k_base', got {other:?}"),
            )),
        }
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    fn bpe(self) -> &'static tiktoken::CoreBpe {
        // Both vocabularies are compiled in (see Cargo.toml), so the lookup cannot miss.
        tiktoken::get_encoding(self.name()).expect("vocabulary compiled in")
    }

    /// Builds the encoding's tables now (the first call's cost), so the first count is quick.
    pub fn load(self) {
        self.bpe();
    }

    pub fn count(self, text: &str) -> usize {
        self.bpe().count(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_like_tiktoken_encode_ordinary() {
        let o200k = Encoding::parse("encoding", "o200k_base").unwrap();
        let cl100k = Encoding::parse("encoding", "cl100k_base").unwrap();
        assert_eq!(o200k.count("hello world"), 2);
        assert_eq!(cl100k.count("hello world"), 2);
        assert_eq!(o200k.count(""), 0);
        // Special-token text is ordinary text: several tokens, not one.
        assert!(o200k.count("<|endoftext|>") > 1);
        assert!(cl100k.count("<|endoftext|>") > 1);
    }

    #[test]
    fn unknown_encodings_are_a_range_error() {
        let err = Encoding::parse("encoding", "p50k_base").unwrap_err();
        assert_eq!(err.field, "encoding");
        assert_eq!(err.kind, super::super::args::ErrorKind::Range);
    }
}
