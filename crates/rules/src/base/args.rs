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
mod tests {
    use super::*;
    use crate::base::frame::Reader;
    use devs_context_errors::ErrorKind;

    #[test]
    fn whole_number_rejects_zero_negative_nan_and_fractions() {
        for bad in [0.0, -1.0, f64::NAN, 2.5, f64::INFINITY] {
            let err = whole_number("threshold", bad, 1).unwrap_err();
            assert_eq!(err.kind, ErrorKind::Range);
            assert_eq!(err.field, "threshold");
        }
        assert_eq!(whole_number("threshold", 5.0, 1), Ok(5));
    }

    #[test]
    fn messages_print_numbers_like_js() {
        assert_eq!(show_number(f64::NAN), "NaN");
        assert_eq!(show_number(-3.0), "-3");
        assert_eq!(show_number(0.5), "0.5");
        let err = non_negative("tokens", -1.0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "tokens must be a finite number >= 0, got -1"
        );
    }

    #[test]
    fn an_error_frame_holds_class_code_field_and_message_apart() {
        let err = non_negative("tokens", -1.0).unwrap_err();
        let frame = error_frame(&err);
        let mut r = Reader::new(&frame);
        assert_eq!(r.num(), f64::from(ErrorClass::RangeError.code()));
        assert_eq!(r.text(&[]), "ERR_OUT_OF_RANGE");
        assert_eq!(r.text(&[]), "tokens");
        assert_eq!(r.text(&[]), "tokens must be a finite number >= 0, got -1");
        assert!(r.done());
        // A field or message quoting the host keeps every character but frame marks; a
        // separator of the old report is just a character.
        let coded = FieldError::type_error("a\u{1f}b\u{FDD2}", "x").with_code("ERR_X");
        let frame = error_frame(&coded);
        let mut r = Reader::new(&frame);
        assert_eq!(r.num(), f64::from(ErrorClass::TypeError.code()));
        assert_eq!(r.text(&[]), "ERR_X");
        assert_eq!(r.text(&[]), "a\u{1f}b");
        assert_eq!(r.text(&[]), "a\u{1f}b x");
    }

    #[test]
    fn the_class_codes_are_the_frames() {
        for (e, class) in [
            (FieldError::type_error("a", "b"), ErrorClass::TypeError),
            (FieldError::range_error("a", "b"), ErrorClass::RangeError),
        ] {
            let frame = error_frame(&e);
            assert_eq!(Reader::new(&frame).num(), f64::from(class.code()));
        }
    }
}
