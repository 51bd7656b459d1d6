//! The section itself: what it holds, chosen within its shares, written as the request
//! shows it, and read back from the summary the engine keeps, so the next compaction
//! carries on what this one wrote (the messages behind it are let go).

use super::markers;
use super::trail::{self, Action, Reading, Touch};
use crate::base::frame::Pieces;
use crate::context::ledger::Json;

pub const OPEN: &str = "<working-state>";
pub const CLOSE: &str = "</working-state>";
const INTRO: &str = "\nThe engine writes this at each compaction, outside the summary: the user's own words, the files changed, and the calls still open. The summary does not repeat them.";
const SAID_OPEN: &str = "\n<said message=\"";
/// Between a verbatim entry's message and its store id.
const SAID_ID: &str = "\" stored-as=";
const SAID_CLOSE: &str = "\n</said>";
const OLDER: &str = "\nOlder, by first line (recall a store id for the whole text):";
/// The heading of the older entries before they were named by store id.
const OLDER_BEFORE: &str = "\nOlder, by first line (the index's transcripts hold them whole):";
/// An older entry's store id, after its first line.
const STORED_AS: &str = " (stored as ";
/// Characters of a first line that name an older message.
pub const FIRST_LINE_CHARS: usize = 80;
/// The file trail takes at most this share of the budget; past it, the oldest paths are
/// counted, not listed.
pub const FILES_SHARE: f64 = 0.05;
/// The section's own words and its open calls, beyond its shares, at most: its cap
/// ([`crate::context::config::Config::working_cap`]) allows them.
pub const OWN_TOKENS: f64 = 400.0;
/// The share of the trail's room its newest paths take with their outputs' ids.
const DETAILED: f64 = 0.25;
/// The line of the older paths, by path and action alone.
const BRIEF: &str = "Older: ";
/// A verbatim entry's tags, its store id among them.
const SAID_TOKENS: f64 = 16.0;

/// A user message folded away, its text host text `host`; `id`: where the fold stored it
/// whole (`working::store`), none when the store failed.
#[derive(Debug, Clone)]
pub struct Said<'a> {
    pub host: usize,
    pub text: &'a str,
    pub message: usize,
    pub id: Option<&'a str>,
}

/// A call whose input may name a path; `id`: the store id of its output (or its own).
#[derive(Debug, Clone)]
pub struct CallIn<'a> {
    pub tool: &'a str,
    pub input: &'a str,
    pub id: Option<&'a str>,
}

/// What the section is written from.
#[derive(Debug, Clone, Default)]
pub struct Input<'a> {
    /// The section the summary held (host text 0), '' for none.
    pub previous: &'a str,
    /// User messages this compaction folds away, newest first.
    pub said: Vec<Said<'a>>,
    /// Calls of the conversation as it stands, oldest first.
    pub calls: Vec<CallIn<'a>>,
    /// Calls not answered yet: the tool's name and the call's id.
    pub open: Vec<(&'a str, &'a str)>,
    pub budget: f64,
    /// The user's words take at most this share of the budget.
    pub user_share: f64,
    pub reading: Reading<'a>,
}

/// One entry of the user's words: its text as UTF-16 ranges of a host text.
#[derive(Debug, Clone, PartialEq)]
struct Words {
    host: usize,
    message: usize,
    id: Option<String>,
    ranges: Vec<(usize, usize)>,
    units: usize,
    tokens: f64,
    first_line: String,
}

/// A path of the trail, newest last while it is built.
#[derive(Debug, Clone, PartialEq)]
struct Path {
    path: String,
    action: Action,
    id: Option<String>,
}

/// Tokens a text takes at most, by a rule no tokenizer beats: a token per 3 ASCII
/// characters, 2 per other character.
pub fn estimate(text: &str) -> f64 {
    let (ascii, other) = text.chars().fold((0usize, 0usize), |(a, o), c| {
        if c.is_ascii() { (a + 1, o) } else { (a, o + 1) }
    });
    (ascii as f64 / 3.0).ceil() + 2.0 * other as f64
}

/// The section's pieces, and the tokens they take by [`estimate`], piece by piece.
struct Out<'p, 'q> {
    p: &'p mut Pieces<'q>,
    tokens: f64,
}

impl Out<'_, '_> {
    fn lit(&mut self, text: &str) -> &mut Self {
        self.tokens += estimate(text);
        self.p.lit(text);
        self
    }

    fn quoted(&mut self, text: &str) -> &mut Self {
        self.tokens += estimate(text);
        self.p.quoted(text);
        self
    }

    fn words(&mut self, w: &Words) {
        self.tokens += w.tokens + w.ranges.len() as f64;
        for (n, &(a, b)) in w.ranges.iter().enumerate() {
            if n > 0 {
                self.p.lit("\n");
            }
            self.p.host_range(w.host, a, Some(b));
        }
    }
}

/// The section, its text's pieces over the host texts of [`Input`], and the tokens it
/// takes by [`estimate`]; nothing (0) when it would hold nothing.
pub fn write(p: &mut Pieces<'_>, input: &Input<'_>) -> f64 {
    let (mut words, mut older) = read_words(input.previous);
    let (prev_paths, prev_unlisted) = read_paths(input.previous);
    // The new words are newer than any the summary held.
    let mut fresh: Vec<Words> = Vec::new();
    for s in &input.said {
        let ranges = markers::typed(s.text);
        if ranges.is_empty() {
            continue;
        }
        let units: Vec<u16> = s.text.encode_utf16().collect();
        let typed: String = ranges
            .iter()
            .map(|&(a, b)| String::from_utf16_lossy(&units[a..b]))
            .collect::<Vec<_>>()
            .join("\n");
        fresh.push(Words {
            host: s.host,
            message: s.message,
            id: s.id.map(String::from),
            units: ranges.iter().map(|r| r.1 - r.0).sum::<usize>() + ranges.len() - 1,
            ranges,
            tokens: estimate(&typed),
            first_line: first_line(&typed, s.message, s.id),
        });
    }
    fresh.append(&mut words);
    let words = fresh;
    let paths = trail_of(prev_paths, &input.calls, &input.reading);
    if words.is_empty() && older.is_empty() && paths.is_empty() && input.open.is_empty() {
        return 0.0;
    }
    let mut o = Out { p, tokens: 0.0 };
    o.lit(OPEN).lit(INTRO);
    // The user's words, newest first, verbatim while they fit their share with every older
    // one still named by its line (where the lines alone fit); then named.
    let room = (input.budget * input.user_share).floor();
    let line_tokens = |line: &str| estimate(line) + 2.0;
    let mut named_rest: f64 = words
        .iter()
        .map(|w| line_tokens(&w.first_line))
        .sum::<f64>()
        + older.iter().map(|l| line_tokens(l)).sum::<f64>();
    let mut used = 0.0;
    let mut verbatim = 0;
    for w in &words {
        let rest = named_rest - line_tokens(&w.first_line);
        let reserved = if named_rest <= room - used { rest } else { 0.0 };
        if used + w.tokens + SAID_TOKENS + reserved > room {
            break;
        }
        used += w.tokens + SAID_TOKENS;
        named_rest = rest;
        verbatim += 1;
    }
    let mut named: Vec<String> = words[verbatim..]
        .iter()
        .map(|w| w.first_line.clone())
        .collect();
    named.append(&mut older);
    let listed = named
        .iter()
        .take_while(|line| {
            used += line_tokens(line);
            used <= room
        })
        .count();
    if verbatim + named.len() > 0 {
        o.lit("\n<user-words newest-first>");
        for w in &words[..verbatim] {
            o.lit(SAID_OPEN).lit(&w.message.to_string());
            if let Some(id) = &w.id {
                let mut q = String::new();
                id.as_str().json(&mut q);
                o.lit(SAID_ID).lit(&q);
            } else {
                o.lit("\"");
            }
            o.lit(&format!(" chars=\"{}\">\n", w.units));
            o.words(w);
            o.lit(SAID_CLOSE);
        }
        if !named.is_empty() {
            o.lit(OLDER);
            for line in &named[..listed] {
                o.lit("\n- ").quoted(line);
            }
            if listed < named.len() {
                o.lit(&format!("\n({} older not listed)", named.len() - listed));
            }
        }
        o.lit("\n</user-words>");
    }
    // The file trail, newest first, within its share.
    if !paths.is_empty() || prev_unlisted > 0 {
        let room = (input.budget * FILES_SHARE).floor();
        let mut used = 0.0f64;
        let mut unlisted = prev_unlisted;
        o.lit("\n<files-changed newest-first>");
        // The newest with the id of their last output, then the older by path and action
        // alone on one line, then counted.
        let mut n = 0;
        while n < paths.len() {
            let line = path_line(&paths[paths.len() - 1 - n]);
            let t = estimate(&line) + 1.0;
            if used + t > room * DETAILED {
                break;
            }
            used += t;
            o.lit("\n").quoted(&line);
            n += 1;
        }
        let mut brief: Vec<String> = Vec::new();
        while n < paths.len() {
            let entry = path_brief(&paths[paths.len() - 1 - n]);
            let t = estimate(&entry) + 1.0;
            if used + t > room {
                break;
            }
            used += t;
            brief.push(entry);
            n += 1;
        }
        if !brief.is_empty() {
            o.lit("\n").lit(BRIEF).quoted(&brief.join("; "));
        }
        unlisted += paths.len() - n;
        if unlisted > 0 {
            o.lit(&format!("\n({unlisted} older paths not listed)"));
        }
        o.lit("\n</files-changed>");
    }
    if !input.open.is_empty() {
        o.lit("\n<open-calls>");
        for (tool, id) in &input.open {
            o.lit("\n")
                .quoted(&format!("- {tool} ({id}): no result yet"));
        }
        o.lit("\n</open-calls>");
    }
    o.lit("\n").lit(CLOSE);
    o.tokens
}

/// How the summary held by the engine splits: the summary before its section, and the
/// section (from [`OPEN`] to the end), '' when it holds none.
pub fn split(summary: &str) -> (&str, &str) {
    match summary.rfind(&format!("\n\n{OPEN}")) {
        Some(at) if summary.ends_with(CLOSE) => (&summary[..at], &summary[at + 2..]),
        _ if summary.starts_with(OPEN) && summary.ends_with(CLOSE) => ("", summary),
        _ => (summary, ""),
    }
}

/// An older message's entry: its first line, named by its store id (by its message's
/// number where the store failed). Written as typed, in quotes, so the line reads as the
/// user wrote it.
fn first_line(typed: &str, message: usize, id: Option<&str>) -> String {
    let line = typed
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let mut short: String = line.chars().take(FIRST_LINE_CHARS).collect();
    if short.len() < line.len() {
        short.push('…');
    }
    match id {
        Some(id) => format!("\"{short}\"{STORED_AS}{id})"),
        None => format!("\"{short}\" (message {message})"),
    }
}

/// An older path on the brief line: `"path" action`.
fn path_brief(p: &Path) -> String {
    let mut out = String::new();
    p.path.json(&mut out);
    out.push(' ');
    out.push_str(&action_words(&p.action));
    out
}

fn action_words(a: &Action) -> String {
    match a {
        Action::MovedFrom(x) | Action::MovedTo(x) => {
            let mut q = String::new();
            x.json(&mut q);
            let to = matches!(a, Action::MovedTo(_));
            format!("moved {} {q}", if to { "to" } else { "from" })
        }
        a => a.words(),
    }
}

/// An action as [`action_words`] wrote it at the start of `text`, and what follows it.
fn read_action(text: &str) -> Option<(Action, &str)> {
    if let Some(q) = text.strip_prefix("moved to ") {
        return json_string(q).map(|(p, rest)| (Action::MovedTo(p), rest));
    }
    if let Some(q) = text.strip_prefix("moved from ") {
        return json_string(q).map(|(p, rest)| (Action::MovedFrom(p), rest));
    }
    let end = text.find([';', ',']).unwrap_or(text.len());
    Action::read(&text[..end]).map(|a| (a, &text[end..]))
}

fn path_line(p: &Path) -> String {
    let mut line = String::from("- ");
    p.path.json(&mut line);
    line.push_str(": ");
    line.push_str(&action_words(&p.action));
    if let Some(id) = &p.id {
        line.push_str(", last output stored as ");
        line.push_str(id);
    }
    line
}

/// The trail: the paths the summary held, then what the calls did, the last action of each
/// path the one kept, newest last.
fn trail_of(mut paths: Vec<Path>, calls: &[CallIn<'_>], reading: &Reading<'_>) -> Vec<Path> {
    for c in calls {
        for Touch { path, action } in trail::touches(c.tool, c.input, reading) {
            paths.retain(|p| p.path != path);
            paths.push(Path {
                path,
                action,
                id: c.id.map(String::from),
            });
        }
    }
    paths
}

/// The user's words a section holds: verbatim (as ranges of host text 0), then the first
/// lines of the older ones.
fn read_words(section: &str) -> (Vec<Words>, Vec<String>) {
    let (mut words, mut older) = (Vec::new(), Vec::new());
    let units: Vec<u16> = section.encode_utf16().collect();
    let mut rest = section;
    while let Some(at) = rest.find(SAID_OPEN) {
        let after = &rest[at + SAID_OPEN.len()..];
        let digits = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        let Ok(message) = after[..digits].parse::<usize>() else {
            break;
        };
        let mut after = &after[digits..];
        // A store id (sections before the store ids have none).
        let mut id = None;
        if let Some(q) = after.strip_prefix(SAID_ID) {
            let Some((read, rest)) = json_string(q) else {
                break;
            };
            id = Some(read);
            after = rest;
        } else if let Some(rest) = after.strip_prefix('"') {
            after = rest;
        } else {
            break;
        }
        let Some(after) = after.strip_prefix(" chars=\"") else {
            break;
        };
        let Some(q) = after.find("\">\n") else { break };
        let Ok(n) = after[..q].parse::<usize>() else {
            break;
        };
        let body_at = section.len() - after.len() + q + 3;
        let start = section[..body_at].encode_utf16().count();
        let end = start + n;
        if end > units.len() {
            break;
        }
        let text = String::from_utf16_lossy(&units[start..end]);
        let byte_end = body_at + text.len();
        if !section[byte_end.min(section.len())..].starts_with(SAID_CLOSE) {
            break;
        }
        words.push(Words {
            host: 0,
            message,
            first_line: first_line(&text, message, id.as_deref()),
            id,
            ranges: vec![(start, end)],
            units: n,
            tokens: estimate(&text),
        });
        rest = &section[byte_end..];
    }
    let older_at = [OLDER, OLDER_BEFORE]
        .iter()
        .find_map(|h| section.find(h).map(|at| at + h.len()));
    if let Some(at) = older_at {
        for line in section[at..].lines() {
            match line.strip_prefix("- ") {
                Some(l) => older.push(l.to_string()),
                None if line.is_empty() => {}
                None => break,
            }
        }
    }
    (words, older)
}

/// The paths a section lists, oldest first, and how many older it counted.
fn read_paths(section: &str) -> (Vec<Path>, usize) {
    let Some(at) = section.find("<files-changed newest-first>") else {
        return (Vec::new(), 0);
    };
    let mut paths = Vec::new();
    let mut unlisted = 0;
    for line in section[at..].lines().skip(1) {
        if let Some(n) = line
            .strip_prefix('(')
            .and_then(|l| l.strip_suffix(" older paths not listed)"))
        {
            unlisted = n.parse().unwrap_or(0);
        } else if let Some(mut rest) = line.strip_prefix(BRIEF) {
            while let Some((path, after)) = json_string(rest) {
                let Some((action, after)) = after.strip_prefix(' ').and_then(read_action) else {
                    break;
                };
                paths.push(Path {
                    path,
                    action,
                    id: None,
                });
                rest = after.strip_prefix("; ").unwrap_or("");
            }
        } else if let Some(rest) = line.strip_prefix("- ") {
            let Some((path, after)) = json_string(rest) else {
                continue;
            };
            let Some((action, after)) = after.strip_prefix(": ").and_then(read_action) else {
                continue;
            };
            let id = after
                .strip_prefix(", last output stored as ")
                .map(String::from);
            paths.push(Path { path, action, id });
        } else {
            break;
        }
    }
    paths.reverse();
    (paths, unlisted)
}

/// A JSON string at the start of `text`, and what follows it.
fn json_string(text: &str) -> Option<(String, &str)> {
    if !text.starts_with('"') {
        return None;
    }
    let mut escaped = false;
    for (i, c) in text.char_indices().skip(1) {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => {
                let v = super::json::parse(&text[..=i])?;
                return Some((v.str()?.to_string(), &text[i + 1..]));
            }
            _ => escaped = false,
        }
    }
    None
}
