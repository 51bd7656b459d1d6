//! The key a snapshot and a session's rows carry of the options they were made under: a
//! manager restores only what a manager of the same key wrote. Its bytes are durable, so
//! they are written here, by the rules, and stay what every earlier version wrote: the
//! `length:hash:hash` key of the JSON text `[budget, shares, system, pinned, cacheControl]`,
//! then `"recall"` when the recall tool is on, then `["protected", …tools]` when some are.

use crate::base::number::show_number;

/// What the key is made of, as the shell read the options.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyOptions<'a> {
    pub budget: f64,
    /// The option values in `MANAGER_OPTIONS` order, NaN where unset.
    pub shares: &'a [f64],
    pub system_tokens: f64,
    pub pinned_tokens: f64,
    pub cache_control: bool,
    pub recall: bool,
    pub protected_tools: &'a [&'a str],
}

/// The options' key.
pub fn config_key(o: &KeyOptions<'_>) -> String {
    // Options added later are left out while unset, so a key stays what it was.
    let mut shares = o.shares;
    while shares.len() > 5 && shares.last().is_some_and(|v| v.is_nan()) {
        shares = &shares[..shares.len() - 1];
    }
    let mut json = format!("[{},[", number(o.budget));
    let listed: Vec<String> = shares.iter().map(|&v| number(v)).collect();
    json += &listed.join(",");
    json += &format!(
        "],{},{},{}",
        number(o.system_tokens),
        number(o.pinned_tokens),
        o.cache_control
    );
    if o.recall {
        json += ",\"recall\"";
    }
    if !o.protected_tools.is_empty() {
        json += ",[\"protected\"";
        for t in o.protected_tools {
            json.push(',');
            quote(&mut json, t);
        }
        json.push(']');
    }
    json.push(']');
    text_key(&json)
}

/// A number as `JSON.stringify` writes it: `null` for NaN and the infinities.
fn number(v: f64) -> String {
    if v.is_finite() {
        show_number(v)
    } else {
        "null".into()
    }
}

/// A string as `JSON.stringify` writes it.
fn quote(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `length:hash:hash`: two independent 32-bit FNV-1a hashes of the UTF-16 units, in base 36.
pub fn text_key(text: &str) -> String {
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut a: u32 = 0x811c_9dc5;
    let mut b: u32 = 0x0100_0193 ^ units.len() as u32;
    for (i, &u) in units.iter().enumerate() {
        a = (a ^ u32::from(u)).wrapping_mul(0x0100_0193);
        b = (b ^ u32::from(u).wrapping_add(i as u32)).wrapping_mul(0x5bd1_e995);
    }
    format!("{}:{}:{}", units.len(), base36(a), base36(b))
}

fn base36(mut n: u32) -> String {
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(digits[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
#[path = "tests/config_key.rs"]
mod tests;
