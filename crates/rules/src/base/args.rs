//! Argument checks shared by every rule. A failed check names the field at fault, so
//! the bindings can raise a `TypeError` or `RangeError` that a host can act on.

use devs_context_errors::FieldError;

/// Kept here too, where the argument checks that print it are, for the rules that import
/// it with them.
pub use super::number::show_number;

crate::codes! {
    /// The JS class a rule's error becomes: the first number of its frame ([`error_frame`]).
    pub enum ErrorClass {
        TypeError = 0,
        RangeError = 1,
    }
}

/// A rule's error as the shell reads it (`fromReport` in `pkg/src/errors/index.ts`): a
/// frame of its class's code ([`ErrorClass`]), then its code, its field and its message
/// (`field message`, as `Display` writes it), each a text of its own.
pub fn error_frame(e: &FieldError) -> String {
    // Written once, in the errors crate, for the tokenizers' module too.
    e.frame()
}

/// Largest integer a JS number holds exactly.
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A count or size that must be a whole number of at least `min`.
pub fn whole_number(field: &str, value: f64, min: u64) -> Result<u64, FieldError> {
    if value.is_nan() || value.fract() != 0.0 || value < min as f64 || value > MAX_SAFE_INTEGER {
        return Err(FieldError::range_error(
            field,
            format!(
                "must be a whole number >= {min}, got {}",
                show_number(value)
            ),
        ));
    }
    Ok(value as u64)
}

/// A finite number of at least zero (token counts may be fractional in a host's own counter).
pub fn non_negative(field: &str, value: f64) -> Result<f64, FieldError> {
    if !value.is_finite() || value < 0.0 {
        return Err(FieldError::range_error(
            field,
            format!("must be a finite number >= 0, got {}", show_number(value)),
        ));
    }
    Ok(value)
}

#[cfg(test)]
#[path = "tests/args.rs"]
mod tests;
