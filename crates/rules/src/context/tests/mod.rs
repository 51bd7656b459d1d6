//! The manager, driven the way the TS shell drives it: a host that keeps the texts,
//! counts with `length / 4`, stores what it is asked to, builds placeholder, cut and
//! summarizer texts from the rules' frames, and follows each plan.

use std::collections::HashMap;

use super::config::{Config, Options};
use super::journal::{self, Event};
use super::render::{Emit, Plan, cut_text};
use super::*;
use crate::base::frame::{Frame, Pieces, Reader};
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
/// Visible to the tests beside each rule (`steps/tests/`), as to these.
pub(super) struct Host {
    /// Texts and labels (tool names) by message, then part.
    pub(super) texts: Vec<Vec<String>>,
    labels: Vec<Vec<String>>,
    shown: HashMap<(usize, usize), String>,
    summary: String,
    pub(super) stored: Vec<String>,
    calls: u32,
    fail_store: bool,
    pub(super) summarizer: Option<fn(&str) -> String>,
    pub(super) summarizer_calls: usize,
    /// The spans whose transcripts were stored, in order.
    spans: Vec<(usize, usize)>,
    /// Every event applied, in order: the manager's journal.
    events: Vec<Event>,
    /// What each stored text is, in one line (`index::body`), by id.
    lines: HashMap<String, String>,
    /// The host sends a system prompt or pinned texts.
    fixed: bool,
    /// The host's `beforeCompaction` defers each build's compaction.
    defer: bool,
    /// Cuts show the whole text, as a call's input of many short values shortens to itself.
    uncuttable: bool,
    /// The cuts asked.
    cuts: usize,
}

pub(super) enum P<'a> {
    Text(&'a str),
    Thinking(&'a str),
    Call(&'a str),
    /// A result of the call `n` calls back (1: the last call made).
    Result(u32, &'a str),
    /// A call, and a result, of a protected tool (`todo`).
    ProtectedCall(&'a str),
    ProtectedResult(u32, &'a str),
    /// The provider's compaction (its summary's text).
    Compaction(&'a str),
    /// A server tool's call, and its result in the same assistant turn, `n` calls back.
    ServerCall(&'a str),
    ServerResult(u32, &'a str),
    /// An image in the result of the call `n` calls back (0: at the top of a message),
    /// its bytes standing in as the text.
    Image(u32, &'a str),
}

impl Host {
    /// A manager of `budget` with no fixed texts, and this host, which has sent `task`.
    pub(super) fn start(mut self, budget: f64, task: &str) -> (Manager, Self) {
        let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
        self.append(&mut m, Role::User, &[P::Text(task)]).unwrap();
        (m, self)
    }

    pub(super) fn append(
        &mut self,
        m: &mut Manager,
        role: Role,
        parts: &[P<'_>],
    ) -> Result<(), Refused> {
        let mut texts = Vec::new();
        let mut labels = Vec::new();
        let mut new = Vec::new();
        let mut calls = self.calls;
        for p in parts {
            let protected = matches!(p, P::ProtectedCall(_) | P::ProtectedResult(..));
            let (kind, text, call) = match *p {
                P::Text(t) => (Kind::Text, t, None),
                P::Thinking(t) => (Kind::Thinking, t, None),
                P::Call(t) | P::ProtectedCall(t) => {
                    calls += 1;
                    (Kind::Call, t, None)
                }
                P::ServerCall(t) => {
                    calls += 1;
                    (Kind::ServerCall, t, None)
                }
                P::Compaction(t) => (Kind::Compaction, t, None),
                P::Result(back, t) | P::ProtectedResult(back, t) => {
                    (Kind::Result, t, calls.checked_sub(back))
                }
                // As a result: counted from the calls made so far, those of this message included.
                P::ServerResult(back, t) => (Kind::Result, t, calls.checked_sub(back)),
                P::Image(0, t) => (Kind::Image, t, None),
                P::Image(back, t) => (Kind::Image, t, calls.checked_sub(back)),
            };
            texts.push(text.to_string());
            labels.push(match kind {
                Kind::Call | Kind::Result if protected => "todo".into(),
                Kind::ServerCall => "web_search".into(),
                Kind::Call | Kind::Result => "bash".into(),
                _ => String::new(),
            });
            new.push(Part {
                protected,
                ..Part::new(kind, units(text), tokens(text), call)
            });
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
        channel::reads_as_declared(&need.encode(m));
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

    pub(super) fn shown(&self, i: usize, k: usize) -> String {
        self.shown
            .get(&(i, k))
            .cloned()
            .unwrap_or_else(|| self.texts[i][k].clone())
    }

    /// One build, committed: the plan, and the request's text.
    pub(super) fn build(&mut self, m: &mut Manager) -> (Plan, String) {
        self.ev(m, Event::Begin);
        if self.defer {
            self.ev(m, Event::Defer);
        }
        let mut need = self.ev(m, Event::Plan);
        loop {
            need = match need {
                Need::Done => break,
                Need::Measure | Need::Fit => unreachable!("a reply to an aside"),
                Need::TooLarge { message, part } => {
                    let e = m.too_large(message, part, "part");
                    m.rollback();
                    panic!("the build was refused: {e}");
                }
                Need::Persist { message, part } => {
                    let stored = (!self.fail_store).then(|| {
                        let text = self.texts[message][part].clone();
                        let p = *m.part(message, part);
                        let (what, description) = if p.kind == Kind::Result {
                            (
                                index::What::Output,
                                index::describe("{\"command\":\"cargo test\"}"),
                            )
                        } else {
                            (index::What::Text, index::one_line(&text, 100))
                        };
                        let names = index::names(&text, index::MAX_NAMES, m.names_chars(false));
                        self.keep(text, "bash", |pieces| {
                            index::body(pieces, what, p.tokens, &description, &names)
                        })
                    });
                    let (id, line) = answer(stored);
                    self.ev(m, Event::Stored { id, line })
                }
                Need::PersistSpan { from, to } => {
                    let stored = (!self.fail_store).then(|| {
                        let hosts = self.span_texts(Vec::new(), from, to);
                        let hosts: Vec<&str> = hosts.iter().map(String::as_str).collect();
                        let text = written(|p| transcript::transcript(p, m, from, to), &hosts);
                        let names = index::names(&text, usize::MAX, m.names_chars(true));
                        self.spans.push((from, to));
                        let tokens = m.fold_tokens(from, to);
                        self.keep(text, "", |p| {
                            index::body(p, index::What::Span { from, to }, tokens, "", &names)
                        })
                    });
                    let (id, line) = answer(stored);
                    self.ev(m, Event::SpanStored { id, line })
                }
                Need::PersistGroup { count } => {
                    // The listing before it first, so every grouped id stays reachable.
                    let listed: Vec<String> =
                        m.index.grouped_ids(count).map(String::from).collect();
                    let all = count + m.index.group.as_ref().map_or(0, |g| g.1);
                    let (id, line) =
                        self.keep(format!("listing of {}", listed.join(", ")), "", |p| {
                            index::body(p, index::What::Group { count: all }, 0.0, "", &[])
                        });
                    self.ev(m, Event::Listed { id: Some(id), line })
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
                    let tokens = m.fold_tokens(from, to);
                    let (id, line) = self.keep(text, "", |p| {
                        index::body(p, index::What::Span { from, to }, tokens, "", &names)
                    });
                    self.ev(m, Event::Merged { id: Some(id), line })
                }
                Need::Placeholder { message, part } => {
                    let id = m.store_id(message, part).unwrap().to_string();
                    let text = written(index::placeholder, &[&self.lines[&id]]);
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
                    let id = m.store_id(message, part).unwrap_or("").to_string();
                    self.cuts += 1;
                    let text = if self.uncuttable {
                        whole
                    } else {
                        written(|p| cut_text(p, n, head, tail, true), &[&whole, &id])
                    };
                    let t = tokens(&text);
                    self.shown.insert((message, part), text);
                    self.ev(m, Event::Measured(t))
                }
                Need::Restate { from, to } => {
                    // As the shell does: the protected texts that left, newest first, as
                    // many as the rules say fit, in the summary's place.
                    let texts: Vec<String> = (from..to)
                        .rev()
                        .flat_map(|i| {
                            (0..m.history.messages[i].parts.len())
                                .rev()
                                .map(move |k| (i, k))
                        })
                        .filter(|&(i, k)| m.part(i, k).protected)
                        .map(|(i, k)| self.texts[i][k].clone())
                        .collect();
                    let n = if texts.is_empty() {
                        0
                    } else {
                        let tokens = texts.iter().map(|t| tokens(t)).collect();
                        self.ev(m, Event::Carried { tokens });
                        m.told.1
                    };
                    if n == 0 {
                        self.ev(m, Event::Summarized(0.0))
                    } else {
                        self.summary = texts[..n].join("\n");
                        let t = tokens(&own_text(0, &self.summary));
                        self.ev(m, Event::Summarized(t))
                    }
                }
                Need::Summarize { from, to } => {
                    let hosts = self.span_texts(
                        vec![
                            transcript::DEFAULT_SUMMARY_INSTRUCTION.to_string(),
                            self.summary.clone(),
                        ],
                        from,
                        to,
                    );
                    let hosts: Vec<&str> = hosts.iter().map(String::as_str).collect();
                    let prompt = written(|p| transcript::summarizer_prompt(p, m, from, to), &hosts);
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

    /// `before`, then the texts of messages `from..to` as shown, each with its label: the
    /// host texts a span's frame reads.
    fn span_texts(&self, mut before: Vec<String>, from: usize, to: usize) -> Vec<String> {
        for i in from..to {
            for k in 0..self.texts[i].len() {
                before.push(self.shown(i, k));
                before.push(self.labels[i][k].clone());
            }
        }
        before
    }

    /// Stores `text` under the next id and writes its index line: the id, and the line's tokens.
    fn keep(
        &mut self,
        text: String,
        label: &str,
        write: impl FnOnce(&mut Pieces<'_>),
    ) -> (String, f64) {
        self.stored.push(text);
        let id = format!("{}", self.stored.len());
        let t = self.line(&id, label, write);
        (id, t)
    }

    /// Writes the index line of stored text `id` from the rules' frame; its tokens.
    fn line(&mut self, id: &str, label: &str, write: impl FnOnce(&mut Pieces<'_>)) -> f64 {
        let body = written(write, &[id, label]);
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
            out.push_str(&written(|p| index::header(p, true), &[]));
            for id in m.index.ids() {
                out.push('\n');
                out.push_str(&written(index::line, &[&self.lines[id]]));
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

/// The text the shell makes of what `write` frames, from the host texts it names.
fn written(write: impl FnOnce(&mut Pieces<'_>), hosts: &[&str]) -> String {
    let mut f = Frame::new();
    f.text(write);
    Reader::new(&f.into_string()).text(hosts)
}

/// What a store answers: the id and the index line's tokens, or, failed, no id and no line.
fn answer(stored: Option<(String, f64)>) -> (Option<String>, f64) {
    stored.map_or((None, f64::NAN), |(id, line)| (Some(id), line))
}

/// The manager's own words, as the shell reads them from `transcript::own_texts`.
fn own_text(n: usize, summary: &str) -> String {
    let mut f = Frame::new();
    transcript::own_texts(&mut f);
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

mod anchor;
mod budget;
mod cache;
mod channel;
mod clock;
mod compaction;
mod cut;
mod fold;
mod fuzzed;
mod history;
mod images;
mod ledger;
mod protect;
mod recorded;
mod replay;
mod restate;
mod rollback;
mod state;
