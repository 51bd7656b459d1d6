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

/// Separates the parts of a [`FieldError::report`]: it appears in no field path or message.
pub const REPORT_SEPARATOR: char = '\u{1f}';

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

    /// The error as plain data for a host: `kind`, `code`, `field` and `message` joined
    /// by [`REPORT_SEPARATOR`]; the TS shell turns it into a `TypeError`/`RangeError`.
    pub fn report(&self) -> String {
        let kind = match self.kind {
            ErrorKind::Type => "TypeError",
            ErrorKind::Range => "RangeError",
        };
        let sep = REPORT_SEPARATOR;
        format!("{kind}{sep}{}{sep}{}{sep}{self}", self.code(), self.field)
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.field, self.message)
    }
}

impl std::error::Error for FieldError {}
