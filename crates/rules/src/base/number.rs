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
#[path = "tests/number.rs"]
mod tests;
