//! A tool call's input shortened as an output is, and still the JSON its tool takes: an
//! object with the same keys, its long strings cut to a head and a tail (a cut) or
//! replaced by a mark naming their size and where the whole input is (a placeholder). The
//! provider checks a call's input against its tool's schema where it checks anything:
//! keys and types stay, so only string values change. Where long strings are not enough
//! (an input of many short ones), the largest values below the top level go next, each
//! for a mark of its own.
//!
//! The shortened input is a frame over the call's own text: every span kept is a range of
//! it, so the host's characters (escapes, lone surrogates) come back exactly as they were.

use crate::base::args::show_number;
use crate::base::frame::Pieces;

/// A string value longer than this (UTF-16 units of its JSON text) is shortened; shorter
/// ones are kept: a path, a command, a key's worth.
pub const LONG_STRING: usize = 200;
/// What a cut keeps of a string at least, head and tail together.
const MIN_KEPT: usize = 40;
/// Units a mark takes, about: its words and a store id.
const MARK: usize = 70;

/// One JSON value of the text, as the units it spans.
#[derive(Debug, Clone)]
struct Value {
    start: usize,
    end: usize,
    /// 0 for the top level.
    depth: usize,
    string: bool,
    container: bool,
}

/// The values of JSON text `t` (UTF-16 units), in order, or `None` when it is not JSON.
fn values(t: &[u16]) -> Option<Vec<Value>> {
    let mut out = Vec::new();
    let mut at = 0;
    value(t, &mut at, 0, &mut out)?;
    skip_space(t, &mut at);
    (at == t.len()).then_some(out)
}

fn skip_space(t: &[u16], at: &mut usize) {
    while *at < t.len() && matches!(t[*at], 0x20 | 0x09 | 0x0A | 0x0D) {
        *at += 1;
    }
}

fn value(t: &[u16], at: &mut usize, depth: usize, out: &mut Vec<Value>) -> Option<()> {
    if depth > 64 {
        return None;
    }
    skip_space(t, at);
    let start = *at;
    let c = *t.get(*at)?;
    let index = out.len();
    out.push(Value {
        start,
        end: start,
        depth,
        string: c == u16::from(b'"'),
        container: c == u16::from(b'{') || c == u16::from(b'['),
    });
    match c {
        0x22 => string(t, at)?,
        0x7B | 0x5B => {
            let close = if c == 0x7B { 0x7D } else { 0x5D };
            *at += 1;
            skip_space(t, at);
            if t.get(*at) == Some(&close) {
                *at += 1;
            } else {
                loop {
                    if c == 0x7B {
                        skip_space(t, at);
                        if t.get(*at) != Some(&0x22) {
                            return None;
                        }
                        string(t, at)?;
                        skip_space(t, at);
                        if t.get(*at) != Some(&0x3A) {
                            return None;
                        }
                        *at += 1;
                    }
                    value(t, at, depth + 1, out)?;
                    skip_space(t, at);
                    match t.get(*at)? {
                        0x2C => *at += 1,
                        &x if x == close => {
                            *at += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
            }
        }
        _ => {
            // A number, true, false or null: up to the next delimiter.
            while *at < t.len() && !matches!(t[*at], 0x2C | 0x7D | 0x5D | 0x20 | 0x09 | 0x0A | 0x0D)
            {
                *at += 1;
            }
            if *at == start {
                return None;
            }
        }
    }
    out[index].end = *at;
    Some(())
}

/// Skips a string literal from its opening quote to past its closing one.
fn string(t: &[u16], at: &mut usize) -> Option<()> {
    *at += 1;
    loop {
        match *t.get(*at)? {
            0x22 => {
                *at += 1;
                return Some(());
            }
            0x5C => *at += 2,
            _ => *at += 1,
        }
    }
}

/// Where a cut of string `s..e` (its quotes included) may end its head at or before `at`,
/// never inside an escape or a surrogate pair.
fn safe_head(t: &[u16], s: usize, at: usize) -> usize {
    let mut i = s + 1;
    let mut last = i;
    while i < at {
        let step = if t[i] == 0x5C {
            if t.get(i + 1) == Some(&0x75) { 6 } else { 2 }
        } else if (0xD800..0xDC00).contains(&t[i]) {
            2
        } else {
            1
        };
        if i + step > at {
            break;
        }
        i += step;
        last = i;
    }
    last
}

/// Where a tail of string `s..e` may start at or after `at`: the first place no escape or
/// surrogate pair spans.
fn safe_tail(t: &[u16], s: usize, e: usize, at: usize) -> usize {
    let mut i = s + 1;
    while i < e - 1 {
        if i >= at {
            return i;
        }
        i += if t[i] == 0x5C {
            if t.get(i + 1) == Some(&0x75) { 6 } else { 2 }
        } else if (0xD800..0xDC00).contains(&t[i]) {
            2
        } else {
            1
        };
    }
    e - 1
}

/// How a call is shortened.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mode {
    /// Its long strings cut to head and tail, to about `keep` units in all.
    Cut { keep: usize },
    /// Its long strings replaced by a mark each: the call as a placeholder.
    Mask,
}

/// A span of the text replaced: `(start, end, kept)`, by a mark, or cut keeping `(head, tail)`.
type Edit = (usize, usize, Option<(usize, usize)>);

/// What shortening a call's input did: the spans of the text it replaced.
#[derive(Debug, Clone, PartialEq)]
struct Plan {
    edits: Vec<Edit>,
}

fn plan(t: &[u16], vals: &[Value], mode: Mode) -> Plan {
    let long: Vec<&Value> = vals
        .iter()
        .filter(|v| v.string && v.end - v.start > LONG_STRING)
        .collect();
    let mut edits: Vec<Edit> = Vec::new();
    let total: usize = t.len();
    let long_units: usize = long.iter().map(|v| v.end - v.start).sum();
    match mode {
        Mode::Mask => {
            for v in &long {
                edits.push((v.start, v.end, None));
            }
        }
        Mode::Cut { keep } => {
            let rest = total - long_units;
            // Each cut string carries its mark.
            let budget = keep.saturating_sub(rest + MARK * long.len());
            for v in &long {
                let len = v.end - v.start;
                let share = ((budget as f64) * (len as f64) / (long_units.max(1) as f64)) as usize;
                if share >= len {
                    continue;
                }
                let share = share.max(MIN_KEPT);
                let head = share * 2 / 3;
                edits.push((v.start, v.end, Some((head, share - head))));
            }
        }
    }
    // Still over: the largest values below the top level go, largest first.
    let target = match mode {
        Mode::Cut { keep } => keep,
        Mode::Mask => (total / 8).max(LONG_STRING * 4),
    };
    let size = |edits: &[Edit]| -> usize {
        let removed: usize = edits
            .iter()
            .map(|&(s, e, kept)| (e - s).saturating_sub(kept.map_or(MARK, |(h, t)| h + t + MARK)))
            .sum();
        total.saturating_sub(removed)
    };
    if size(&edits) > target {
        let mut big: Vec<&Value> = vals
            .iter()
            .filter(|v| v.depth >= 1 && (v.container || v.string) && v.end - v.start > 120)
            .collect();
        big.sort_by_key(|v| std::cmp::Reverse(v.end - v.start));
        for v in big {
            if size(&edits) <= target {
                break;
            }
            // Not inside a span already replaced.
            if edits
                .iter()
                .any(|&(s, e, k)| k.is_none() && s <= v.start && v.end <= e)
            {
                continue;
            }
            edits.retain(|&(s, e, _)| !(v.start <= s && e <= v.end));
            edits.push((v.start, v.end, None));
        }
    }
    edits.sort_by_key(|e| e.0);
    Plan { edits }
}

/// Whether `units` is one JSON value, which [`shorten`] shortens.
pub fn parses(units: &[u16]) -> bool {
    values(units).is_some()
}

/// Host texts of [`shorten`]: the call's input text.
pub const INPUT: usize = 0;

/// The input `text` (as UTF-16 `units`) shortened by `mode`, as JSON over `[text]`, or
/// `false` when it is not JSON (the caller cuts it as text). `id`: the store id of the
/// whole input, named in each mark (escaped here: it goes inside a JSON string).
pub fn shorten(p: &mut Pieces<'_>, units: &[u16], mode: Mode, id: Option<&str>) -> bool {
    let Some(vals) = values(units) else {
        return false;
    };
    let edits = plan(units, &vals, mode).edits;
    let stored = id.map(|id| {
        let escaped: String = id
            .chars()
            .flat_map(|c| match c {
                '"' | '\\' => vec!['\\', c],
                c if (c as u32) < 0x20 => vec![' '],
                c => vec![c],
            })
            .collect();
        format!(", the whole input is stored as {escaped}")
    });
    let stored = stored.as_deref().unwrap_or("");
    let mut at = 0;
    for &(s, e, kept) in &edits {
        p.host_range(INPUT, at, Some(s));
        let len = e - s;
        match kept {
            Some((head, tail)) => {
                let h = safe_head(units, s, s + 1 + head);
                let t = safe_tail(units, s, e, e - 1 - tail);
                p.host_range(INPUT, s, Some(h)).lit(&format!(
                    " [… {} characters cut{stored} …] ",
                    show_number((t - h) as f64)
                ));
                p.host_range(INPUT, t, Some(e));
            }
            None => {
                p.lit(&format!(
                    "\"[{} characters{stored}: recall it to read them]\"",
                    show_number(len as f64)
                ));
            }
        }
        at = e;
    }
    p.host_range(INPUT, at, None);
    true
}

#[cfg(test)]
#[path = "tests/shorten.rs"]
mod tests;
