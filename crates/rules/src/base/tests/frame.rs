use super::*;

#[test]
fn a_number_is_written_as_show_number_writes_it() {
    let whole = 9_007_199_254_740_992.0;
    for v in [
        0.0,
        -0.0,
        1.0,
        42.0,
        whole - 1.0,
        whole,
        1e21,
        0.5,
        -3.0,
        f64::NAN,
    ] {
        let mut frame = Frame::new();
        frame.num(v);
        let shown = crate::base::number::show_number(v);
        assert_eq!(frame.into_string(), format!("{NUM}{shown}{REF_END}"), "{v}");
    }
}

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
    frame.flag(true).num(f64::INFINITY).num(-0.5);
    let values = frame.into_string();
    let mut r = Reader::new(&values);
    assert_eq!(r.num(), 7.0);
    assert_eq!(r.text(&["TAS", "abcdef"]), "## TAS\ncdé😀");
    assert_eq!((r.num(), r.num(), r.num()), (1.0, f64::INFINITY, -0.5));
    assert!(r.done());
}

#[test]
fn the_wire_is_the_words_with_marked_references() {
    let mut frame = Frame::new();
    frame.text(|p| {
        p.lit("a").host(3).lit("b");
    });
    assert_eq!(frame.into_string(), "a\u{FDD0}3\u{FDD1}b\u{FDD2}");
}

#[test]
fn references_are_decimal() {
    let mut frame = Frame::new();
    frame.text(|p| {
        p.host_range(1_234_567, 0, Some(10))
            .host_range(usize::MAX, 90, None)
            .host_range(5, 0, None)
            .lit("plain");
    });
    let max = usize::MAX;
    assert_eq!(
        frame.into_string(),
        format!(
            "\u{FDD0}1234567,0,10\u{FDD1}\u{FDD0}{max},90,-1\u{FDD1}\u{FDD0}5,0,-1\u{FDD1}plain\u{FDD2}"
        )
    );
}
