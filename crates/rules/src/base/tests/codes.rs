crate::codes! {
    enum Sample {
        A = 0,
        B = 2,
    }
}

#[test]
fn a_code_round_trips_and_the_table_lists_every_variant() {
    assert_eq!(Sample::TABLE, &[("A", 0), ("B", 2)]);
    assert_eq!(Sample::ALL, &[Sample::A, Sample::B]);
    for &(_, code) in Sample::TABLE {
        assert_eq!(Sample::from_code(code).map(Sample::code), Some(code));
    }
    assert_eq!(Sample::from_code(1), None);
}

crate::text_codes! {
    enum Said {
        Hello = "hello",
        Bye = "good-bye",
    }
}

#[test]
fn a_text_code_round_trips_and_the_table_lists_every_variant() {
    assert_eq!(Said::TABLE, &[("Hello", "hello"), ("Bye", "good-bye")]);
    assert_eq!(Said::ALL, &[Said::Hello, Said::Bye]);
    for &said in Said::ALL {
        assert_eq!(Said::from_code(said.code()), Some(said));
    }
    assert_eq!(Said::from_code("hi"), None);
}
