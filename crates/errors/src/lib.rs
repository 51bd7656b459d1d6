//! The argument error of `@devs/context`'s wasm modules, the rules' and the tokenizers':
//! a rejected argument names the field at fault, so the bindings can raise a `TypeError` or
//! `RangeError` that a host can act on. The checks that make these errors are the rules'
//! (`args` in `devs-context-rules`); this crate holds only the error, so the tokenizers
//! report theirs the same way without depending on the rules.

use std::fmt;

/// Which JS error class a failed check maps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The value has the wrong type (`TypeError`).
    Type,
    /// The value has the right type but is out of range (`RangeError`).
    Range,
}

/// A rejected argument: which field, why, and which JS error it becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub kind: ErrorKind,
    /// Dotted path of the field, e.g. `options.threshold` or `observation.status`.
    pub field: String,
    pub message: String,
    /// A specific error `code`; `None` means Node's code for the kind.
    pub code: Option<&'static str>,
}

/// Node's codes for argument errors, which hosts already branch on.
pub const INVALID_ARG_TYPE: &str = "ERR_INVALID_ARG_TYPE";
pub const OUT_OF_RANGE: &str = "ERR_OUT_OF_RANGE";

/// The marks of a frame, the one string a wasm module's answer crosses as
/// (`devs-context-rules`' `base::frame`): Unicode noncharacters, which no text means.
pub mod marks {
    /// Opens a reference to a host text.
    pub const HOST: char = '\u{FDD0}';
    /// Ends a number or a host reference.
    pub const REF_END: char = '\u{FDD1}';
    /// Ends a text.
    pub const TEXT_END: char = '\u{FDD2}';
    /// Opens a number.
    pub const NUM: char = '\u{FDD3}';

    pub fn is_mark(c: char) -> bool {
        (HOST..=NUM).contains(&c)
    }

    /// Appends `text` without its frame marks. Every mark's UTF-8 starts with byte 0xEF, so
    /// a text without that byte (nearly all) is copied whole rather than char by char.
    pub fn push_unmarked(out: &mut String, text: &str) {
        if text.as_bytes().contains(&0xEF) {
            out.extend(text.chars().filter(|&c| !is_mark(c)));
        } else {
            out.push_str(text);
        }
    }
}

impl FieldError {
    pub fn type_error(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            kind: ErrorKind::Type,
            field: field.into(),
            message: message.into(),
            code: None,
        }
    }

    pub fn range_error(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            kind: ErrorKind::Range,
            field: field.into(),
            message: message.into(),
            code: None,
        }
    }

    pub fn with_code(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }

    pub fn code(&self) -> &'static str {
        self.code.unwrap_or(match self.kind {
            ErrorKind::Type => INVALID_ARG_TYPE,
            ErrorKind::Range => OUT_OF_RANGE,
        })
    }

    /// The code of the JS class the error becomes, the first number of its frame:
    /// `TypeError` 0, `RangeError` 1 (`ErrorClass` in `pkg/src/errors/index.ts`).
    pub fn class_code(&self) -> u8 {
        match self.kind {
            ErrorKind::Type => 0,
            ErrorKind::Range => 1,
        }
    }

    /// The error as both wasm modules hand it to the shell, which raises it as a
    /// `TypeError` or `RangeError` (`fromReport` in `pkg/src/errors/index.ts`): a frame of
    /// its class's code, then its code, its field and its message (`field message`), each
    /// a text of its own, without frame marks (a field or a message may quote host text).
    pub fn frame(&self) -> String {
        use marks::{NUM, REF_END, TEXT_END, push_unmarked};
        let mut out = String::new();
        out.push(NUM);
        out.push(char::from(b'0' + self.class_code()));
        out.push(REF_END);
        for text in [self.code(), &self.field, &self.to_string()] {
            push_unmarked(&mut out, text);
            out.push(TEXT_END);
        }
        out
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.field, self.message)
    }
}

impl std::error::Error for FieldError {}
