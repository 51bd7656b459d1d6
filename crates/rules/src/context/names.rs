//! What a stored text is, read from its text: a call's arguments in one short line, and
//! the names an agent reaches back for (paths, errors, identifiers), for its index line.

/// Characters of a description at most.
const MAX_DESCRIPTION: usize = 100;

/// A call's arguments in one short line: the command, path, pattern or query they name
/// when they are JSON with such a field, else their first line.
pub fn describe(args: &str) -> String {
    const KEYS: [&str; 10] = [
        "command",
        "cmd",
        "file_path",
        "filePath",
        "path",
        "pattern",
        "query",
        "url",
        "regex",
        "file",
    ];
    for key in KEYS {
        if let Some(v) = json_string_field(args, key)
            && !v.trim().is_empty()
        {
            return one_line(&v, MAX_DESCRIPTION);
        }
    }
    let rest = args.trim_start_matches(['{', '[', ' ', '\n']);
    // An empty input (`{}`, `[]`) names nothing: no description, not its closing bracket.
    if rest.trim_matches(['}', ']', ' ', '\n']).is_empty() {
        return String::new();
    }
    one_line(rest, MAX_DESCRIPTION)
}

/// The first line of `text`, whitespace collapsed, at most `max` characters.
pub fn one_line(text: &str, max: usize) -> String {
    let first = text.trim().lines().next().unwrap_or("");
    let mut out = String::new();
    for word in first.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    // Backticks would close the description's quotes.
    let out = out.replace('`', "'");
    if out.chars().count() <= max {
        return out;
    }
    let mut cut: String = out.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The string value of `"key": "…"` in a JSON text, unescaped, without parsing the rest.
fn json_string_field(json: &str, key: &str) -> Option<String> {
    let quoted = format!("\"{key}\"");
    let at = json.find(&quoted)? + quoted.len();
    let rest = json[at..].trim_start().strip_prefix(':')?.trim_start();
    let body = rest.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' | 't' | 'r' => out.push(' '),
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(
                        u32::from_str_radix(&hex, 16)
                            .ok()
                            .and_then(char::from_u32)
                            .unwrap_or('?'),
                    );
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

/// Which kind of name a word is, most telling first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Path,
    Error,
    Identifier,
}

/// The names a text holds that an agent reaches back for: file paths, error names and
/// distinctive identifiers (6+ characters with `_`, an inner capital or a digit). Paths
/// first, then errors, then identifiers; in each, the most frequent first.
pub fn names(text: &str, max: usize, max_chars: usize) -> Vec<String> {
    let mut found: Vec<(Class, usize, usize, &str)> = Vec::new(); // class, count, first seen, word
    let mut at: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let word_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-');
    for (seen, raw) in text.split(|c: char| !word_char(c)).enumerate() {
        let word = raw.trim_matches(|c: char| matches!(c, '.' | '-' | '/'));
        if word.len() < 4 || word.len() > 120 {
            continue;
        }
        let Some(class) = classify(word) else {
            continue;
        };
        match at.get(word) {
            Some(&i) => found[i].1 += 1,
            None => {
                at.insert(word, found.len());
                found.push((class, 1, seen, word));
            }
        }
        if found.len() > 4096 {
            break;
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    let mut out = Vec::new();
    let mut chars = 0;
    for (_, _, _, word) in found {
        if out.len() == max || chars + word.len() > max_chars {
            break;
        }
        chars += word.len() + 2;
        out.push(word.to_string());
    }
    out
}

fn classify(word: &str) -> Option<Class> {
    let letters = word.chars().any(|c| c.is_ascii_alphabetic());
    if !letters {
        return None;
    }
    if word.contains('/') {
        // A path: at least one segment that reads as a name.
        return word
            .split('/')
            .any(|s| s.len() >= 2 && s.chars().any(|c| c.is_ascii_alphabetic()))
            .then_some(Class::Path);
    }
    if let Some((stem, ext)) = word.rsplit_once('.')
        && !stem.is_empty()
        && (1..=5).contains(&ext.len())
        && ext.chars().all(|c| c.is_ascii_alphabetic())
        && ext.chars().any(|c| c.is_ascii_lowercase())
        && stem.chars().any(|c| c.is_ascii_alphabetic())
    {
        return Some(Class::Path);
    }
    if word.contains('.') || word.contains('-') {
        return None;
    }
    if (word.ends_with("Error") || word.ends_with("Exception")) && word.len() > 6 {
        return Some(Class::Error);
    }
    let b = word.as_bytes();
    if b.len() == 5 && b[0] == b'E' && b[1..].iter().all(u8::is_ascii_digit) {
        return Some(Class::Error);
    }
    if word.len() < 6 || !(b[0].is_ascii_alphabetic() || b[0] == b'_') {
        return None;
    }
    let inner_capital = b
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    let digit = b.iter().any(u8::is_ascii_digit);
    (word.contains('_') || inner_capital || digit).then_some(Class::Identifier)
}

#[cfg(test)]
#[path = "tests/names.rs"]
mod tests;
