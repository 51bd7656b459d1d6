//! How the rules print a number, in a file of its own below both the argument checks
//! (`args.rs`) and frames (`frame.rs`), which print numbers alike.

/// Formats a number the way JS prints it, so messages match what the host passed.
pub fn show_number(value: f64) -> String {
    if value.is_nan() {
        "NaN".into()
    } else if value.is_infinite() {
        if value > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else if value.fract() == 0.0 && value.abs() < 1e21 {
        format!("{}", value as i128)
    } else if value.abs() >= 1e21 || value.abs() < 1e-6 {
        // JS writes these with an exponent, signed: 1.5e+300, 1e-7.
        let e = format!("{value:e}");
        match e.split_once('e') {
            Some((m, x)) if !x.starts_with('-') => format!("{m}e+{x}"),
            _ => e,
        }
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers_print_as_js_prints_them() {
        for (v, js) in [
            (0.75, "0.75"),
            (200_000.0, "200000"),
            (-0.0, "0"),
            (1e21, "1e+21"),
            (1.5e300, "1.5e+300"),
            (1e-7, "1e-7"),
            (0.000001, "0.000001"),
            (-2.5e-9, "-2.5e-9"),
            (0.1 + 0.2, "0.30000000000000004"),
        ] {
            assert_eq!(super::show_number(v), js, "{v}");
        }
    }
}
