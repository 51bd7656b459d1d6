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
