//! The manager, driven the way the TS shell drives it: a host that keeps the texts,
//! counts with `length / 4`, stores what it is asked to, builds placeholder, cut and
//! summarizer texts from the rules' frames, and follows each plan.

use std::collections::HashMap;

use super::config::{Config, Options};
use super::journal::{self, Event};
use super::render::{Emit, Plan};
use super::render::{cut_bounds, cut_text};
use super::*;
use crate::base::frame::{Frame, Reader};
use crate::base::tokens::approx_tokens;

fn tokens(text: &str) -> f64 {
    approx_tokens(text.encode_utf16().count()) as f64
}

fn units(text: &str) -> usize {
    text.encode_utf16().count()
}

fn config(budget: f64) -> Config {
    Config::new("options", budget, Options::default()).unwrap()
}

#[derive(Default, Clone)]
struct Host {
    /// Texts and labels (tool names) by message, then part.
    texts: Vec<Vec<String>>,
    labels: Vec<Vec<String>>,
    shown: HashMap<(usize, usize), String>,
    summary: String,
    stored: Vec<String>,
    calls: u32,
    fail_store: bool,
    summarizer: Option<fn(&str) -> String>,
    summarizer_calls: usize,
    /// The spans whose transcripts were stored, in order.
    spans: Vec<(usize, usize)>,
    /// Every event applied, in order: the manager's journal.
    events: Vec<Event>,
    /// What each stored text is, in one line (`index::body`), by id.
    lines: HashMap<String, String>,
    /// The host sends a system prompt or pinned texts.
    fixed: bool,
}

enum P<'a> {
    Text(&'a str),
    Thinking(&'a str),
    Call(&'a str),
    /// A result of the call `n` calls back (1: the last call made).
    Result(u32, &'a str),
}

impl Host {
    fn append(&mut self, m: &mut Manager, role: Role, parts: &[P<'_>]) -> Result<(), Refused> {
        let mut texts = Vec::new();
        let mut labels = Vec::new();
        let mut new = Vec::new();
        let mut calls = self.calls;
        for p in parts {
            let (kind, text, call) = match *p {
                P::Text(t) => (Kind::Text, t, None),
                P::Thinking(t) => (Kind::Thinking, t, None),
                P::Call(t) => {
                    calls += 1;
                    (Kind::Call, t, None)
                }
                P::Result(back, t) => (Kind::Result, t, self.calls.checked_sub(back)),
            };
            texts.push(text.to_string());
            labels.push(if matches!(kind, Kind::Call | Kind::Result) {
                "bash".into()
            } else {
                String::new()
            });
            new.push(Part::new(kind, units(text), tokens(text), call));
        }
        self.try_append(
            m,
            vec![NewMessage {
                role,
                framing: 3.0,
                parts: new,
            }],
        )?;
        self.calls = calls;
        self.texts.push(texts);
        self.labels.push(labels);
        Ok(())
    }

    /// Applies `e` through the manager's one entry point, and journals it.
    fn ev(&mut self, m: &mut Manager, e: Event) -> Need {
        let need = m
            .apply(&e)
            .unwrap_or_else(|r| panic!("{} refused: {r:?}", e.name()));
        self.events.push(e);
        need
    }

    fn try_append(&mut self, m: &mut Manager, batch: Vec<NewMessage>) -> Result<(), Refused> {
        let e = Event::Append(batch);
        match m.apply(&e) {
            Ok(_) => {
                self.events.push(e);
                Ok(())
            }
            Err(journal::Refusal::Refused(r)) => Err(r),
            Err(other) => panic!("append refused: {other:?}"),
        }
    }

    fn shown(&self, i: usize, k: usize) -> String {
        self.shown
            .get(&(i, k))
            .cloned()
            .unwrap_or_else(|| self.texts[i][k].clone())
    }

    /// One build, committed: the plan, and the request's text.
    fn build(&mut self, m: &mut Manager) -> (Plan, String) {
        self.ev(m, Event::Begin);
        let mut need = self.ev(m, Event::Plan);
        loop {
            need = match need {
                Need::Done => break,
                Need::Persist { message, part } => {
                    if self.fail_store {
                        self.ev(
                            m,
                            Event::Stored {
                                id: None,
                                line: f64::NAN,
                            },
                        )
                    } else {
                        self.stored.push(self.texts[message][part].clone());
                        let id = format!("{}", self.stored.len());
                        let p = *m.part(message, part);
                        let text = &self.texts[message][part];
                        let (what, description) = if p.kind == Kind::Result {
                            (
                                index::What::Output,
                                index::describe("{\"command\":\"cargo test\"}"),
                            )
                        } else {
                            (index::What::Text, index::one_line(text, 100))
                        };
                        let names = index::names(text, index::MAX_NAMES, m.names_chars(false));
                        let t = self.line(&id, "bash", |pieces| {
                            index::body(pieces, what, p.tokens, &description, &names)
                        });
                        self.ev(
                            m,
                            Event::Stored {
                                id: Some(id),
                                line: t,
                            },
                        )
                    }
                }
                Need::PersistSpan { from, to } => {
                    if self.fail_store {
                        self.ev(
                            m,
                            Event::SpanStored {
                                id: None,
                                line: f64::NAN,
                            },
                        )
                    } else {
                        let mut hosts = Vec::new();
                        for i in from..to {
                            for k in 0..self.texts[i].len() {
                                hosts.push(self.shown(i, k));
                                hosts.push(self.labels[i][k].clone());
                            }
                        }
                        let mut f = Frame::new();
                        f.text(|p| render::transcript(p, m, from, to));
                        let hosts: Vec<&str> = hosts.iter().map(String::as_str).collect();
                        let text = Reader::new(&f.into_string()).text(&hosts);
                        let names = index::names(&text, usize::MAX, m.names_chars(true));
                        self.stored.push(text);
                        self.spans.push((from, to));
                        let id = format!("{}", self.stored.len());
                        let tokens = m.fold_tokens(from, to);
                        let t = self.line(&id, "", |p| {
                            index::body(p, index::What::Span { from, to }, tokens, "", &names)
                        });
                        self.ev(
                            m,
                            Event::SpanStored {
                                id: Some(id),
                                line: t,
                            },
                        )
                    }
                }
                Need::PersistGroup { count } => {
                    // The listing before it first, so every grouped id stays reachable.
                    let listed: Vec<String> =
                        m.index.grouped_ids(count).map(String::from).collect();
                    self.stored
                        .push(format!("listing of {}", listed.join(", ")));
                    let id = format!("{}", self.stored.len());
                    let all = count + m.index.group.as_ref().map_or(0, |g| g.1);
                    let t = self.line(&id, "", |p| {
                        index::body(p, index::What::Group { count: all }, 0.0, "", &[])
                    });
                    self.ev(
                        m,
                        Event::Listed {
                            id: Some(id),
                            line: t,
                        },
                    )
                }
                Need::MergeSpans { count } => {
                    let (ids, from, to) = m.index.merged(count);
                    let text: Vec<String> = ids
                        .iter()
                        .map(|id| self.stored[id.parse::<usize>().unwrap() - 1].clone())
                        .collect();
                    // The test host marks a merge, so the transcripts of single spans can be told apart.
                    let text = format!("[Merged]\n{}", text.join("\n\n"));
                    let names = index::names(&text, usize::MAX, m.names_chars(true));
                    self.stored.push(text);
                    let id = format!("{}", self.stored.len());
                    let tokens = m.fold_tokens(from, to);
                    let t = self.line(&id, "", |p| {
                        index::body(p, index::What::Span { from, to }, tokens, "", &names)
                    });
                    self.ev(
                        m,
                        Event::Merged {
                            id: Some(id),
                            line: t,
                        },
                    )
                }
                Need::Placeholder { message, part } => {
                    let id = m.store_id(message, part).unwrap().to_string();
                    let mut f = Frame::new();
                    f.text(index::placeholder);
                    let text = Reader::new(&f.into_string()).text(&[&self.lines[&id]]);
                    let t = tokens(&text);
                    self.shown.insert((message, part), text);
                    self.ev(m, Event::Measured(t))
                }
                Need::Cut {
                    message,
                    part,
                    head,
                    tail,
                } => {
                    let whole = self.texts[message][part].clone();
                    let n = units(&whole);
                    let (head, tail) = (head.min(n), tail.min(n - head.min(n)));
                    let mut f = Frame::new();
                    f.text(|p| cut_text(p, n, head, tail, true));
                    let id = m.store_id(message, part).unwrap_or("").to_string();
                    let text = Reader::new(&f.into_string()).text(&[&whole, &id]);
                    let t = tokens(&text);
                    self.shown.insert((message, part), text);
                    self.ev(m, Event::Measured(t))
                }
                Need::Summarize { from, to } => {
                    let mut hosts = vec![self.summary.clone()];
                    for i in from..to {
                        for k in 0..self.texts[i].len() {
                            hosts.push(self.shown(i, k));
                            hosts.push(self.labels[i][k].clone());
                        }
                    }
                    let mut f = Frame::new();
                    f.text(|p| render::summarizer_prompt(p, m, from, to));
                    let hosts: Vec<&str> = hosts.iter().map(String::as_str).collect();
                    let prompt = Reader::new(&f.into_string()).text(&hosts);
                    match self.summarizer {
                        None => self.ev(m, Event::NoSummarizer),
                        Some(make) => {
                            self.summarizer_calls += 1;
                            self.summary = make(&prompt);
                            let t = tokens(&own_text(0, &self.summary));
                            self.ev(m, Event::Summarized(t))
                        }
                    }
                }
            };
        }
        self.events.push(Event::Render {
            has_fixed: self.fixed,
        });
        let plan = m.render(self.fixed);
        let text = self.request_text(m, &plan);
        self.ev(m, Event::Commit);
        (plan, text)
    }

    /// Writes the index line of stored text `id` from the rules' frame; its tokens.
    fn line(
        &mut self,
        id: &str,
        label: &str,
        write: impl FnOnce(&mut crate::base::frame::Pieces<'_>),
    ) -> f64 {
        let mut f = Frame::new();
        f.text(write);
        let body = Reader::new(&f.into_string()).text(&[id, label]);
        let t = tokens(&format!("- {body}")) + 1.0;
        self.lines.insert(id.to_string(), body);
        t
    }

    /// The summary, then the index of what was folded away, as the request carries them.
    fn folded_text(&self, m: &Manager) -> String {
        let mut out = if m.summary_tokens > 0.0 {
            own_text(0, &self.summary)
        } else {
            String::new()
        };
        if !m.index.is_empty() {
            if !out.is_empty() {
                out.push_str("\n\n");
            }
            let mut f = Frame::new();
            f.text(|p| index::header(p, true));
            out.push_str(&Reader::new(&f.into_string()).text(&[]));
            for id in m.index.ids() {
                let mut f = Frame::new();
                f.text(index::line);
                out.push('\n');
                out.push_str(&Reader::new(&f.into_string()).text(&[&self.lines[id]]));
            }
        }
        out
    }

    /// The request as one text, each message on its own: to count it whole.
    fn request_text(&self, m: &Manager, plan: &Plan) -> String {
        let mut out = String::new();
        for e in &plan.emits {
            match e {
                Emit::Fixed | Emit::Tail => {}
                Emit::LeftOut => out.push_str(&own_text(2, "")),
                Emit::Summary => out.push_str(&self.folded_text(m)),
                Emit::Message {
                    index,
                    changed,
                    unanswered,
                } => {
                    for k in 0..self.texts[*index].len() {
                        if changed.iter().any(|&(p, c)| p == k && c == 3) {
                            continue;
                        }
                        out.push_str(&self.shown(*index, k));
                        out.push('\n');
                    }
                    for _ in unanswered {
                        out.push_str("[no result was recorded]\n");
                    }
                }
            }
        }
        out
    }
}

/// The manager's own words, as the shell reads them from `render::own_texts`.
fn own_text(n: usize, summary: &str) -> String {
    let mut f = Frame::new();
    render::own_texts(&mut f);
    let frame = f.into_string();
    let mut r = Reader::new(&frame);
    let mut text = String::new();
    for i in 0..=n {
        text = if i == 0 {
            r.text(&[summary])
        } else {
            r.text(&[])
        };
    }
    text
}

fn output(n: usize, seed: usize) -> String {
    format!("{seed}:").repeat(n / 4 + 1)
}

/// A tool call and its result, as one turn of an agent.
fn tool_turn(h: &mut Host, m: &mut Manager, size: usize, seed: usize) {
    h.append(
        m,
        Role::Assistant,
        &[P::Text("checking"), P::Call("{\"cmd\":\"cargo test\"}")],
    )
    .unwrap();
    h.append(m, Role::User, &[P::Result(1, &output(size, seed))])
        .unwrap();
}

#[test]
fn below_the_high_water_mark_each_request_repeats_the_previous_one() {
    let mut m = Manager::new("options", config(50_000.0), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("fix the parser")])
        .unwrap();
    let mut previous = 0.0;
    for turn in 0..20 {
        tool_turn(&mut h, &mut m, 1_000, turn);
        let (plan, _) = h.build(&mut m);
        assert_eq!(plan.prefix, previous, "turn {turn}: only appended");
        assert!(m.record.compaction.is_none());
        previous = m.raw_tokens();
    }
    assert!(m.record.cache.read > 0.0 && m.record.cache.write > 0.0);
    assert!(
        m.record.cache.session_relative_cost < 0.5,
        "{}",
        m.record.cache.session_relative_cost
    );
}

#[test]
fn a_compaction_runs_at_the_high_water_mark_and_ends_under_the_low() {
    let budget = 20_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("fix the parser")])
        .unwrap();
    let mut compactions = 0;
    let mut previous = 0.0;
    for turn in 0..120 {
        tool_turn(&mut h, &mut m, 4_000, turn);
        let (plan, text) = h.build(&mut m);
        assert!(m.tokens() <= budget, "turn {turn}");
        assert!(
            tokens(&text) <= m.raw_tokens(),
            "turn {turn}: our count bounds the whole text"
        );
        if let Some(c) = &m.record.compaction {
            compactions += 1;
            assert!(
                c.after <= budget * m.config.low_water,
                "turn {turn}: {} left",
                c.after
            );
            assert!(c.below_trigger > 0.0);
            assert!(!c.masked.is_empty());
            assert!(plan.prefix < previous, "a compaction edits what was sent");
        } else {
            assert_eq!(
                plan.prefix, previous,
                "turn {turn}: between compactions, only appended"
            );
        }
        previous = m.raw_tokens();
    }
    assert!((3..=40).contains(&compactions), "{compactions} compactions");
    // Every masked output is in the store, whole.
    for (&(i, k), id) in &m.store_ids {
        assert_eq!(h.stored[id.parse::<usize>().unwrap() - 1], h.texts[i][k]);
    }
}

#[test]
fn compactions_mask_the_newest_old_outputs_first_and_keep_the_recent_whole() {
    let budget = 40_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("go")]).unwrap();
    loop {
        let seed = m.history.messages.len();
        tool_turn(&mut h, &mut m, 6_000, seed);
        h.build(&mut m);
        if m.record.compaction.is_some() {
            break;
        }
    }
    let c = m.record.compaction.clone().unwrap();
    let edit = c.edit_from.unwrap();
    // Outputs before the edit stay whole: they are in the provider's cache.
    for i in 0..edit {
        for p in &m.history.messages[i].parts {
            assert_ne!(p.shown, Shown::Placeholder, "message {i}");
        }
    }
    let last = m.history.messages.len() - 1;
    assert_eq!(
        m.history.messages[last].parts[0].shown,
        Shown::Whole,
        "the newest output stays whole"
    );
}

#[test]
fn a_summary_folds_the_oldest_groups_when_placeholders_are_not_enough() {
    let budget = 4_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host {
        summarizer: Some(|p| format!("summary of {} characters", p.len())),
        ..Host::default()
    };
    for turn in 0..200 {
        h.append(
            &mut m,
            Role::User,
            &[P::Text(&format!("turn {turn}: go on with the lexer"))],
        )
        .unwrap();
        tool_turn(&mut h, &mut m, 600, turn);
        h.build(&mut m);
        assert!(m.tokens() <= budget, "turn {turn}");
    }
    assert!(m.first_live > 0 && m.summary_tokens > 0.0);
    assert!(h.summarizer_calls > 0);
    // Groups stay whole: the first live message opens a group.
    assert_eq!(m.history.messages[m.first_live].group, m.first_live);
}

#[test]
fn without_a_summarizer_the_oldest_groups_are_dropped() {
    let budget = 4_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    let mut dropped = false;
    for turn in 0..200 {
        h.append(&mut m, Role::User, &[P::Text(&format!("turn {turn}"))])
            .unwrap();
        tool_turn(&mut h, &mut m, 600, turn);
        let (_, text) = h.build(&mut m);
        assert!(m.tokens() <= budget, "turn {turn}");
        assert!(
            tokens(&text) <= m.raw_tokens(),
            "turn {turn}: the note for dropped turns is counted"
        );
        dropped |= m
            .record
            .compaction
            .as_ref()
            .is_some_and(|c| c.dropped.is_some());
    }
    assert!(dropped);
}

#[test]
fn a_part_too_large_for_its_share_is_stored_and_cut_when_first_sent() {
    let budget = 20_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("show me the diff")])
        .unwrap();
    let huge = format!("BEGIN {} END", "diff --git a/x b/x\n+line\n".repeat(40_000));
    h.append(
        &mut m,
        Role::Assistant,
        &[P::Call("{\"cmd\":\"git diff\"}")],
    )
    .unwrap();
    h.append(&mut m, Role::User, &[P::Result(1, &huge)])
        .unwrap();
    let (_, text) = h.build(&mut m);
    assert!(m.tokens() <= budget);
    assert!(text.contains("BEGIN") && text.contains("END"));
    assert_eq!(h.stored, vec![huge.clone()]);
    assert_eq!(m.record.cut, 1);
    // Sent cut, it stays as sent.
    h.append(&mut m, Role::Assistant, &[P::Text("I see it")])
        .unwrap();
    let (plan, _) = h.build(&mut m);
    assert!(plan.prefix > 0.0 && m.record.cut == 0);
}

#[test]
fn thinking_after_an_edit_is_dropped_and_said() {
    let budget = 20_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("go")]).unwrap();
    let mut dropped = 0;
    for turn in 0..60 {
        h.append(
            &mut m,
            Role::Assistant,
            &[P::Thinking("signed reasoning"), P::Call("{}")],
        )
        .unwrap();
        h.append(&mut m, Role::User, &[P::Result(1, &output(4_000, turn))])
            .unwrap();
        // A plain user turn closes the loop, so a compaction need not wait.
        h.append(&mut m, Role::User, &[P::Text("go on")]).unwrap();
        h.build(&mut m);
        if let Some(c) = &m.record.compaction {
            let edit = c.edit_from.unwrap();
            dropped += m.record.thinking_dropped;
            let shown = (edit + 1).max(m.first_live);
            for (i, msg) in m.history.messages.iter().enumerate().skip(shown) {
                for p in &msg.parts {
                    if p.kind == Kind::Thinking {
                        assert_eq!(
                            p.shown,
                            Shown::Dropped,
                            "message {i}: thinking after the edit"
                        );
                    }
                }
            }
        }
    }
    assert!(dropped > 0);
}

#[test]
fn a_compaction_waits_for_an_open_tool_loop_with_thinking_while_the_request_fits() {
    let budget = 20_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("go")]).unwrap();
    let mut deferred = false;
    for turn in 0..70 {
        h.append(
            &mut m,
            Role::Assistant,
            &[P::Thinking("signed reasoning"), P::Call("{}")],
        )
        .unwrap();
        h.append(&mut m, Role::User, &[P::Result(1, &output(1_500, turn))])
            .unwrap();
        h.build(&mut m);
        assert!(m.tokens() <= budget);
        if m.record.raised.contains(&Warning::Deferred) {
            deferred = true;
            assert!(m.record.compaction.is_none());
        }
    }
    assert!(deferred);
}

#[test]
fn results_must_answer_the_calls_before_them() {
    let mut m = Manager::new("options", config(10_000.0), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("go")]).unwrap();
    let refused = h
        .append(&mut m, Role::User, &[P::Result(1, "x")])
        .unwrap_err();
    assert_eq!(refused.why, Rejection::UnknownCall);
    h.append(&mut m, Role::Assistant, &[P::Call("{}"), P::Call("{}")])
        .unwrap();
    h.append(&mut m, Role::User, &[P::Result(1, "a")]).unwrap();
    let twice = h
        .append(&mut m, Role::User, &[P::Result(1, "a again")])
        .unwrap_err();
    assert_eq!(twice.why, Rejection::AnsweredTwice);
    let misplaced = h.append(&mut m, Role::User, &[P::Call("{}")]).unwrap_err();
    assert_eq!(
        (misplaced.why, misplaced.part),
        (Rejection::Misplaced, Some(0))
    );
    h.append(&mut m, Role::User, &[P::Text("something else")])
        .unwrap();
    let late = h
        .append(&mut m, Role::User, &[P::Result(2, "b, too late")])
        .unwrap_err();
    assert_eq!(late.why, Rejection::NotTheLastCalls);
    // A refused batch leaves nothing behind.
    let len = m.history.messages.len();
    let calls = m.history.calls.len();
    let batch = vec![
        NewMessage {
            role: Role::Assistant,
            framing: 0.0,
            parts: vec![Part::new(Kind::Call, 2, 1.0, None)],
        },
        NewMessage {
            role: Role::User,
            framing: 0.0,
            parts: vec![],
        },
    ];
    assert_eq!(m.append(batch).unwrap_err().message, 1);
    assert_eq!(
        (m.history.messages.len(), m.history.calls.len()),
        (len, calls)
    );
}

#[test]
fn an_unanswered_call_gets_a_marked_result() {
    let mut m = Manager::new("options", config(10_000.0), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("go")]).unwrap();
    h.append(&mut m, Role::Assistant, &[P::Call("{}"), P::Call("{}")])
        .unwrap();
    h.append(&mut m, Role::User, &[P::Result(2, "first only")])
        .unwrap();
    let (plan, _) = h.build(&mut m);
    let marked: Vec<u32> = plan
        .emits
        .iter()
        .flat_map(|e| match e {
            Emit::Message { unanswered, .. } => unanswered.clone(),
            _ => vec![],
        })
        .collect();
    assert_eq!(marked, vec![1]);
}

#[test]
fn a_failed_build_leaves_everything_as_it_was() {
    let budget = 20_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("go")]).unwrap();
    for turn in 0..8 {
        tool_turn(&mut h, &mut m, 4_000, turn);
        h.build(&mut m);
    }
    tool_turn(&mut h, &mut m, 4_000, 99);
    let before = format!(
        "{:?}",
        (
            &m.history,
            m.first_live,
            m.summary_tokens,
            &m.last,
            m.requests,
            &m.index,
            m.lines.len()
        )
    );
    m.begin();
    let mut need = m.plan().unwrap();
    let mut steps = 0;
    while need != Need::Done && steps < 3 {
        need = match need {
            Need::Persist { .. } => m.persisted(Some("x".into()), f64::NAN),
            Need::Placeholder { .. } | Need::Cut { .. } => m.measured(10.0),
            Need::Summarize { .. } => m.no_summarizer(),
            Need::PersistSpan { .. } => m.span_persisted(Some("s".into()), 20.0),
            Need::PersistGroup { .. } => m.group_persisted(Some("g".into()), 20.0),
            Need::MergeSpans { .. } => m.spans_merged(Some("m".into()), 20.0),
            Need::Done => Need::Done,
        };
        steps += 1;
    }
    m.rollback();
    assert_eq!(
        format!(
            "{:?}",
            (
                &m.history,
                m.first_live,
                m.summary_tokens,
                &m.last,
                m.requests,
                &m.index,
                m.lines.len()
            )
        ),
        before
    );
}

#[test]
fn breakpoints_are_few_and_mark_the_previous_end_and_this_one() {
    let mut m = Manager::new("options", config(50_000.0), 100.0, 50.0).unwrap();
    let mut h = Host {
        fixed: true,
        ..Host::default()
    };
    h.append(&mut m, Role::User, &[P::Text("go")]).unwrap();
    tool_turn(&mut h, &mut m, 1_000, 0);
    h.build(&mut m);
    for turn in 1..5 {
        for k in 0..12 {
            tool_turn(&mut h, &mut m, 100, turn * 100 + k);
        }
        m.begin();
        let mut need = m.plan().unwrap();
        while need != Need::Done {
            need = m.persisted(Some("id".into()), f64::NAN);
        }
        let plan = m.render(true);
        m.commit();
        assert!(plan.breakpoints.len() <= render::MAX_BREAKPOINTS);
        assert_eq!(plan.breakpoints[0], 0, "after the fixed texts");
        assert_eq!(*plan.breakpoints.last().unwrap(), plan.emits.len() - 1);
        assert_eq!(
            plan.breakpoints.len(),
            3,
            "and where the previous request ended"
        );
    }
}

#[test]
fn the_fixed_texts_must_leave_room() {
    let err = Manager::new("options", config(10_000.0), 3_000.0, 1_500.0).unwrap_err();
    assert_eq!(err.field, "options.budget");
    assert!(
        err.message.contains("system prompt (3000 tokens)"),
        "{}",
        err.message
    );
    assert!(
        Config::new(
            "options",
            10_000.0,
            Options {
                low_water: Some(0.95),
                ..Options::default()
            }
        )
        .is_err()
    );
}

#[test]
fn the_ledger_serializes_once() {
    let mut m = Manager::new("options", config(20_000.0), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("go")]).unwrap();
    for turn in 0..30 {
        tool_turn(&mut h, &mut m, 4_000, turn);
        h.build(&mut m);
    }
    let json = m.record.to_json();
    for key in [
        "\"request\":",
        "\"tokens\":",
        "\"rawTokens\":",
        "\"sections\":",
        "\"cache\":",
        "\"sessionRelativeCost\":",
        "\"calibration\":",
    ] {
        assert!(json.contains(key), "{key} in {json}");
    }
}

#[test]
fn consecutive_assistant_messages_are_one_turn() {
    let mut m = Manager::new("options", config(10_000.0), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("go")]).unwrap();
    h.append(
        &mut m,
        Role::Assistant,
        &[P::Text("reading"), P::Call("{\"a\":1}")],
    )
    .unwrap();
    h.append(&mut m, Role::Assistant, &[P::Call("{\"b\":2}")])
        .unwrap();
    h.append(&mut m, Role::Tool, &[P::Result(2, "a")]).unwrap();
    h.append(&mut m, Role::Tool, &[P::Result(1, "b")]).unwrap();
    let groups: Vec<usize> = m.history.messages.iter().map(|x| x.group).collect();
    assert_eq!(groups, vec![0, 1, 1, 1, 1]);
    assert!(m.history.calls.iter().all(|c| c.answer.is_some()));
}

#[test]
fn a_failed_turn_takes_back_what_it_appended() {
    let mut m = Manager::new("options", config(20_000.0), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("go")]).unwrap();
    h.append(&mut m, Role::Assistant, &[P::Call("{}")]).unwrap();
    h.build(&mut m);
    let before = format!(
        "{:?}",
        (&m.history, m.first_live, &m.calibration, m.tail_tokens)
    );
    m.begin();
    m.append(vec![NewMessage {
        role: Role::User,
        framing: 3.0,
        parts: vec![Part::new(Kind::Result, 3, 1.0, Some(0))],
    }])
    .unwrap();
    m.set_tail(40.0);
    m.calibration.observe(100.0, 150.0).unwrap();
    m.rollback();
    assert_eq!(
        format!(
            "{:?}",
            (&m.history, m.first_live, &m.calibration, m.tail_tokens)
        ),
        before
    );
    assert!(
        m.history.calls[0].answer.is_none(),
        "the call is open again"
    );
}

#[test]
fn a_tail_comes_last_and_leaves_the_prefix_cached() {
    let mut m = Manager::new("options", config(20_000.0), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("go")]).unwrap();
    m.set_tail(30.0);
    let (first, _) = h.build(&mut m);
    assert!(matches!(first.emits.last(), Some(Emit::Tail)));
    h.append(&mut m, Role::Assistant, &[P::Text("done")])
        .unwrap();
    m.set_tail(35.0);
    let (second, _) = h.build(&mut m);
    assert_eq!(
        second.prefix,
        first.prefix + m.history.messages[0].tokens() - first.prefix
    );
}

#[test]
fn assistant_texts_in_a_row_are_turns_of_their_own_and_stay_in_budget() {
    let budget = 8_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host {
        summarizer: Some(|_| "short".into()),
        ..Host::default()
    };
    for turn in 0..60 {
        h.append(
            &mut m,
            Role::Assistant,
            &[P::Text(&"words ".repeat(400 + turn))],
        )
        .unwrap();
        h.build(&mut m);
        assert!(m.tokens() <= budget, "turn {turn}: {}", m.tokens());
    }
    assert!(m.summary_tokens > 0.0, "the oldest turns were summarized");
}

#[test]
fn a_store_that_fails_keeps_outputs_cut_not_masked() {
    let mut m = Manager::new("options", config(20_000.0), 0.0, 0.0).unwrap();
    let mut h = Host {
        fail_store: true,
        ..Host::default()
    };
    h.append(&mut m, Role::User, &[P::Text("go")]).unwrap();
    for turn in 0..40 {
        tool_turn(&mut h, &mut m, 4_000, turn);
        h.build(&mut m);
        assert!(m.tokens() <= 20_000.0, "turn {turn}");
        if let Some(c) = &m.record.compaction {
            assert!(c.masked.is_empty());
            assert!(m.record.raised.contains(&Warning::StoreFailed));
        }
    }
    assert!(h.stored.is_empty());
}

#[test]
fn cuts_never_split_a_surrogate_pair() {
    let text: Vec<u16> = "ab😀cd😀ef".encode_utf16().collect();
    let window = |at: usize| crate::base::text::Probe {
        start: at - 1,
        units: crate::base::cut::Units(text[at - 1..(at + 1).min(text.len())].to_vec()),
    };
    // head 3 would end inside the first 😀; tail 3 would start inside the second.
    assert_eq!(cut_bounds(3, &window(3), 3, &window(7), 10), (2, 2));
    assert_eq!(cut_bounds(2, &window(2), 2, &window(8), 10), (2, 2));
}

/// A head ends after a line break, and a tail starts after one, where one is near.
#[test]
fn cuts_land_on_line_breaks_where_one_is_near() {
    let text: String = (0..100)
        .map(|i| format!("line {i:04} of the log\n"))
        .collect();
    let units = crate::base::cut::Units::of(&text);
    let n = units.0.len();
    let whole = crate::base::text::Probe { start: 0, units };
    // Lines are 21 units long: a head of 1,000 ends after line 47 (987 units), a tail of
    // 1,000 starts at a line's start.
    let (head, tail) = cut_bounds(1_000, &whole, 1_000, &whole, n);
    assert_eq!(head, 987);
    assert_eq!((n - tail) % 21, 0, "the tail starts a line");
    assert!(tail <= 1_000 && tail > 1_000 - 21);
    // No line break near: the cut stays where it was.
    let flat = "x".repeat(3_000);
    let flat = crate::base::text::Probe::of(&flat);
    assert_eq!(
        cut_bounds(1_000, &flat, 1_000, &flat, 3_000),
        (1_000, 1_000)
    );
}

#[test]
fn calibration_makes_the_bound_the_providers() {
    let budget = 10_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host {
        summarizer: Some(|_| "short".into()),
        ..Host::default()
    };
    for ours in [1000.0, 2000.0, 3000.0, 4000.0] {
        m.calibration.observe(ours, 1.5 * ours).unwrap();
    }
    for turn in 0..80 {
        h.append(&mut m, Role::User, &[P::Text(&format!("turn {turn}"))])
            .unwrap();
        h.append(
            &mut m,
            Role::Assistant,
            &[P::Text(&"reasoning ".repeat(60))],
        )
        .unwrap();
        h.build(&mut m);
        assert!(1.5 * m.raw_tokens() <= budget, "turn {turn}");
    }
}

#[test]
fn a_calibration_that_outgrew_the_budget_is_named_and_a_reset_recovers() {
    let mut m = Manager::new("options", config(50_000.0), 25.0, 0.0).unwrap();
    for ours in [1000.0, 2000.0, 3000.0, 4000.0] {
        m.calibration.observe(ours, 40_000.0 + ours).unwrap();
    }
    let err = m.plan().unwrap_err();
    assert_eq!(err.field, "calibration");
    assert!(err.message.contains("overhead 40000"), "{}", err.message);
    assert!(
        err.message.contains("resetCalibration()"),
        "{}",
        err.message
    );
    m.calibration.reset();
    assert!(m.plan().is_ok());
}

#[test]
fn the_ledger_escapes_what_it_writes() {
    let r = ledger::Ledger {
        counter: "a\"b\\c\n\u{1}é😀".into(),
        ..ledger::Ledger::default()
    };
    let json = r.to_json();
    assert!(
        json.contains(r#""counter":"a\"b\\c\u000a\u0001é😀""#),
        "{json}"
    );
}

mod fold;

mod replay;
mod state;
