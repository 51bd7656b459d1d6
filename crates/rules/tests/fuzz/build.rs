//! One build, as `pkg/src/context/build.ts` drives it: each need answered the way the shell
//! answers it, with the rules' own frames (bodies, placeholders, cuts, transcripts, the
//! summarizer's prompt), the plan decoded and read as `plan.ts` reads it, the ledger parsed
//! as JSON; a host callback failing at any step takes the build back.

use devs_context_rules::base::frame::{Frame, HOST, Pieces, REF_END, TEXT_END, is_mark};
use devs_context_rules::base::text::Probe;
use devs_context_rules::context::journal::Event;
use devs_context_rules::context::render::{self, Emit, Plan};
use devs_context_rules::context::{Kind, Need, index, shorten, transcript};

use super::host::Host;

/// How the host answers a build's needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// The store fails: never (0), always (1), every other time (2).
    pub store: u8,
    /// The summarizer: none (0), answers (1), throws (2), answers past its cap (3).
    pub summarizer: u8,
    /// A host callback (the counter, `onLedger`) throws at this step: the build is taken back.
    pub fail_at: Option<u16>,
    /// `beforeCompaction` defers a compaction that is due.
    pub defer: bool,
}

/// What the host puts back when a build is taken back: the texts shown, the summary, the
/// store's size, the index lines.
type Before = (
    std::collections::HashMap<(usize, usize), String>,
    String,
    usize,
    std::collections::HashMap<String, String>,
);

/// How a build ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Built {
    Sent(Plan),
    /// Refused (too large, a calibration that leaves no room) or failed: taken back.
    TakenBack,
}

/// Host texts pasted into a frame's next text, as `frameText` does; a reference past them
/// is a shell crash.
pub fn paste(frame: &str, hosts: &[&str], what: &str) -> String {
    let mut out: Vec<u16> = Vec::new();
    let mut rest = frame;
    loop {
        let at = rest
            .find(is_mark)
            .unwrap_or_else(|| panic!("shell: {what}: a text that does not end"));
        out.extend(rest[..at].encode_utf16());
        let mark = rest[at..].chars().next().unwrap_or(TEXT_END);
        rest = &rest[at + mark.len_utf8()..];
        if mark == TEXT_END {
            return String::from_utf16_lossy(&out);
        }
        assert!(mark == HOST, "shell: {what}: a mark {mark:?} inside a text");
        let end = rest.find(REF_END).expect("a reference ends");
        let nums: Vec<i64> = rest[..end].split(',').map(|p| p.parse().unwrap()).collect();
        rest = &rest[end + REF_END.len_utf8()..];
        let host: Vec<u16> = hosts
            .get(nums[0] as usize)
            .unwrap_or_else(|| {
                panic!(
                    "shell: {what} names host text {} of {}",
                    nums[0],
                    hosts.len()
                )
            })
            .encode_utf16()
            .collect();
        let (s, e) = match nums[..] {
            [_] => (0, host.len()),
            [_, s, e] if e < 0 => (s as usize, host.len()),
            [_, s, e] => (s as usize, e as usize),
            _ => panic!("shell: {what}: a reference of {} numbers", nums.len()),
        };
        let piece = host
            .get(s..e)
            .unwrap_or_else(|| panic!("shell: {what}: units {s}..{e} of a text of {}", host.len()));
        out.extend_from_slice(piece);
    }
}

fn framed(write: impl FnOnce(&mut Pieces<'_>)) -> String {
    let mut f = Frame::new();
    f.text(write);
    f.into_string()
}

/// The shell's own texts (`ownText`): the summary in its wrapper.
fn own_summary(summary: &str) -> String {
    let mut f = Frame::new();
    transcript::own_texts(&mut f);
    paste(&f.into_string(), &[summary], "ownText")
}

impl Host {
    fn store_text(&mut self, text: String, style: &Style, asked: &mut u32) -> Option<String> {
        *asked += 1;
        let fails = match style.store {
            1 => true,
            2 => asked.is_multiple_of(2),
            _ => false,
        };
        if fails {
            return None;
        }
        self.store.push(text);
        Some(self.store.len().to_string())
    }

    /// Notes stored text `id`'s body, and gives its index line's tokens.
    fn line(&mut self, id: &str, body: String) -> f64 {
        let line = paste(&framed(index::line), &[&body], "index line");
        self.lines.entry(id.to_string()).or_insert(body);
        Host::count(&line) + 1.0
    }

    /// The args of the call a result answers (`History.args`).
    fn args(&self, i: usize, k: usize) -> String {
        let p = self.m.part(i, k);
        if p.kind != Kind::Result {
            return String::new();
        }
        p.call
            .and_then(|c| self.m.history.calls.get(c as usize))
            .filter(|c| c.message < self.m.history.messages.len())
            .and_then(|c| match self.messages.get(c.message) {
                Some(Some(parts)) => parts.get(c.part).map(|p| p.text.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }

    fn what(&self, i: usize, k: usize, text: &str) -> (index::What, String) {
        match self.m.part(i, k).kind {
            Kind::Result => (index::What::Output, index::describe(&self.args(i, k))),
            Kind::Image => (
                index::What::Image {
                    width: 640,
                    height: 480,
                },
                String::new(),
            ),
            Kind::Document => (index::What::Document { pages: 3 }, String::new()),
            _ => (index::What::Text, index::one_line(text, 100)),
        }
    }

    fn persist(&mut self, i: usize, k: usize, style: &Style, asked: &mut u32) -> Event {
        let kept = self.part(i, k, "Persist").clone();
        let media = kept.kind.media();
        let Some(id) = self.store_text(kept.text.clone(), style, asked) else {
            return Event::Stored {
                id: None,
                line: f64::NAN,
            };
        };
        let p = *self.m.part(i, k);
        let names = if media {
            Vec::new()
        } else {
            index::names(&kept.text, index::MAX_NAMES, self.m.names_chars(false))
        };
        let (what, description) = self.what(i, k, &kept.text);
        let frame = framed(|pieces| index::body(pieces, what, p.tokens, &description, &names));
        let label = self.label(i, k);
        let body = paste(&frame, &[&id, &label], "index_body");
        let line = self.line(&id, body);
        Event::Stored { id: Some(id), line }
    }

    /// A part shown as `text`: the shell's count of it (`show`).
    fn show(&mut self, i: usize, k: usize, text: String) -> f64 {
        let kept = self.part(i, k, "a shown part").clone();
        let mut tokens = Host::count(&text) + self.setup.format.framing().1;
        let named = match kept.kind {
            Kind::Result => kept.id.clone().unwrap_or_default(),
            Kind::Call | Kind::ServerCall => {
                format!("{} {}", kept.label, kept.id.as_deref().unwrap_or(""))
            }
            _ => String::new(),
        };
        if !named.trim().is_empty() {
            tokens += Host::count(&named);
        }
        self.shown.insert((i, k), text);
        tokens
    }

    fn placeholder(&mut self, i: usize, k: usize) -> f64 {
        let kept = self.part(i, k, "Placeholder").clone();
        let id = self.m.store_id(i, k).map(String::from);
        if kept.kind.call() {
            let units: Vec<u16> = kept.text.encode_utf16().collect();
            if shorten::parses(&units) {
                let frame = framed(|p| {
                    shorten::shorten(p, &units, shorten::Mode::Mask, id.as_deref());
                });
                let text = paste(&frame, &[&kept.text], "shortenCall");
                return self.show(i, k, text);
            }
        }
        let (what, description) = match kept.kind {
            Kind::Result => (index::What::Output, index::describe(&self.args(i, k))),
            _ => (self.what(i, k, &kept.text).0, String::new()),
        };
        let p = *self.m.part(i, k);
        let frame = framed(|pieces| index::body(pieces, what, p.tokens, &description, &[]));
        let label = self.label(i, k);
        let body = paste(
            &frame,
            &[id.as_deref().unwrap_or(""), &label],
            "placeholder_body",
        );
        let text = paste(&framed(index::placeholder), &[&body], "placeholder");
        self.show(i, k, text)
    }

    fn cut(&mut self, i: usize, k: usize, head: usize, tail: usize) -> f64 {
        let kept = self.part(i, k, "Cut").clone();
        let id = self.m.store_id(i, k).map(String::from);
        let units: Vec<u16> = kept.text.encode_utf16().collect();
        if kept.kind.call() && shorten::parses(&units) {
            let mode = shorten::Mode::Cut { keep: head + tail };
            let frame = framed(|p| {
                shorten::shorten(p, &units, mode, id.as_deref());
            });
            let text = paste(&frame, &[&kept.text], "shortenCall");
            return self.show(i, k, text);
        }
        // `cutText`: the probes the shell slices, the bounds, then the text.
        let n = units.len();
        let w = render::LINE_WINDOW;
        let head_start = head.saturating_sub(w);
        let tail_start = n.saturating_sub(tail);
        let head_probe = Probe {
            start: head_start,
            units: devs_context_rules::base::cut::Units(
                units[head_start.min(n)..(head + 1).min(n)].to_vec(),
            ),
        };
        let tail_probe = Probe {
            start: tail_start.saturating_sub(1),
            units: devs_context_rules::base::cut::Units(
                units[tail_start.saturating_sub(1).min(n)..(tail_start + w).min(n)].to_vec(),
            ),
        };
        let (head, tail) = render::cut_bounds(head, &head_probe, tail, &tail_probe, n);
        let frame = framed(|p| render::cut_text(p, n, head, tail, id.is_some()));
        let text = paste(
            &frame,
            &[&kept.text, id.as_deref().unwrap_or("")],
            "cutText",
        );
        self.show(i, k, text)
    }

    /// `[(text as shown, label) per part of messages from..to]`, as the shell gives them.
    fn span_hosts(&self, mut out: Vec<String>, from: usize, to: usize, why: &str) -> Vec<String> {
        for i in from..to {
            let parts = match self.messages.get(i) {
                Some(Some(parts)) => parts.len(),
                Some(None) => 0,
                None => panic!("shell: {why} names message {i} of {}", self.messages.len()),
            };
            for k in 0..parts {
                let kept = &self.messages[i].as_ref().unwrap()[k];
                let text = if kept.kind.media() {
                    self.m.store_id(i, k).unwrap_or("").to_string()
                } else {
                    self.shown_text(i, k).unwrap_or_else(|| kept.text.clone())
                };
                out.push(text);
                out.push(self.label(i, k));
            }
        }
        out
    }

    fn persist_span(&mut self, from: usize, to: usize, style: &Style, asked: &mut u32) -> Event {
        let hosts = self.span_hosts(Vec::new(), from, to, "PersistSpan");
        let hosts: Vec<&str> = hosts.iter().map(String::as_str).collect();
        let frame = framed(|p| transcript::transcript(p, &self.m, from, to));
        let text = paste(&frame, &hosts, "transcript");
        let names = index::names(&text, usize::MAX, self.m.names_chars(true));
        let tokens = self.m.fold_tokens(from, to);
        let Some(id) = self.store_text(text, style, asked) else {
            return Event::SpanStored {
                id: None,
                line: f64::NAN,
            };
        };
        let frame = framed(|p| index::body(p, index::What::Span { from, to }, tokens, "", &names));
        let body = paste(&frame, &[&id, ""], "span_body");
        let line = self.line(&id, body);
        Event::SpanStored { id: Some(id), line }
    }

    fn summarize(&mut self, from: usize, to: usize, style: &Style) -> Event {
        let instruction = transcript::DEFAULT_SUMMARY_INSTRUCTION.to_string();
        let hosts = self.span_hosts(
            vec![instruction.clone(), self.summary.clone()],
            from,
            to,
            "Summarize",
        );
        let hosts: Vec<&str> = hosts.iter().map(String::as_str).collect();
        let frame = framed(|p| transcript::summarizer_prompt(p, &self.m, from, to));
        let prompt = paste(&frame, &hosts, "summarizer_prompt");
        let frame = framed(|p| transcript::summarizer_instruction(p, &self.m, from, to));
        let _ = paste(
            &frame,
            &["the start", &instruction],
            "summarizer_instruction",
        );
        // The protected texts and the user's words a summary carries: the rules say how many.
        let carried: Vec<f64> = (from..to)
            .rev()
            .flat_map(|i| (0..self.m.history.messages[i].parts.len()).map(move |k| (i, k)))
            .filter(|&(i, k)| self.m.part(i, k).protected)
            .map(|(i, k)| self.m.part(i, k).tokens)
            .collect();
        if !carried.is_empty() {
            let n = self.m.carried(&carried);
            assert!(n <= carried.len(), "carried {n} of {}", carried.len());
        }
        let summary = match style.summarizer {
            0 if carried.is_empty() => return Event::NoSummarizer,
            0 => self.summary.clone(),
            2 => return Event::SummaryFailed,
            3 => prompt.repeat(3),
            _ => format!(
                "summary of {from}..{to}: {}",
                &prompt[..prompt.len().min(600)]
            ),
        };
        let tokens = Host::count(&own_summary(&summary)) + self.setup.format.framing().0;
        self.summary = summary;
        Event::Summarized(tokens)
    }

    fn group(&mut self, count: usize, style: &Style, asked: &mut u32) -> Event {
        let ids: Vec<String> = self.m.index.grouped_ids(count).map(String::from).collect();
        let all = count + self.m.index.group.as_ref().map_or(0, |g| g.1);
        let listing = format!("listing of {}", ids.join(", "));
        let Some(id) = self.store_text(listing, style, asked) else {
            return Event::Listed {
                id: None,
                line: f64::NAN,
            };
        };
        let frame = framed(|p| index::body(p, index::What::Group { count: all }, 0.0, "", &[]));
        let body = paste(&frame, &[&id, ""], "group_body");
        let line = self.line(&id, body);
        Event::Listed { id: Some(id), line }
    }

    fn merge(&mut self, count: usize, style: &Style, asked: &mut u32) -> Event {
        let (ids, from, to) = self.m.index.merged(count);
        let ids: Vec<String> = ids.into_iter().map(String::from).collect();
        let mut texts = Vec::new();
        for id in &ids {
            match id
                .parse::<usize>()
                .ok()
                .and_then(|n| self.store.get(n.wrapping_sub(1)))
            {
                Some(t) => texts.push(t.clone()),
                None => panic!("shell: MergeSpans names {id}, which the store never gave"),
            }
        }
        let text = texts.join("\n\n");
        let names = index::names(&text, usize::MAX, self.m.names_chars(true));
        let tokens = self.m.fold_tokens(from, to);
        let Some(id) = self.store_text(text, style, asked) else {
            return Event::Merged {
                id: None,
                line: f64::NAN,
            };
        };
        let frame = framed(|p| index::body(p, index::What::Span { from, to }, tokens, "", &names));
        let body = paste(&frame, &[&id, ""], "merged_body");
        let line = self.line(&id, body);
        Event::Merged { id: Some(id), line }
    }

    /// One build, answered in `style`: its plan, or taken back.
    pub fn build(&mut self, style: &Style) -> Built {
        self.must(Event::Begin);
        let before = (
            self.shown.clone(),
            self.summary.clone(),
            self.store.len(),
            self.lines.clone(),
        );
        if style.defer && self.m.compaction_due().is_some() {
            self.must(Event::Defer);
        }
        let mut need = match self.ev(Event::Plan) {
            Ok(need) => need,
            Err(_) => return self.take_back(before),
        };
        let (mut steps, mut asked) = (0u16, 0u32);
        while need != Need::Done {
            if style.fail_at == Some(steps) {
                return self.take_back(before);
            }
            steps += 1;
            assert!(
                steps < 20_000,
                "a build asked {steps} times and is not done"
            );
            let answer = match need {
                Need::Done | Need::Measure | Need::Fit => unreachable!(),
                Need::TooLarge { message, part } => {
                    let e = self.m.too_large(message, part, "messages[0]");
                    assert!(
                        e.field == "messages[0]" || e.field == "options.budget",
                        "{e:?}"
                    );
                    return self.take_back(before);
                }
                Need::Persist { message, part } => self.persist(message, part, style, &mut asked),
                Need::Placeholder { message, part } => {
                    Event::Measured(self.placeholder(message, part))
                }
                Need::Cut {
                    message,
                    part,
                    head,
                    tail,
                } => Event::Measured(self.cut(message, part, head, tail)),
                Need::Summarize { from, to } => self.summarize(from, to, style),
                Need::Restate { from, to } => {
                    // The protected texts that left, newest first: the rules say how many.
                    let carried: Vec<f64> = (from..to)
                        .rev()
                        .flat_map(|i| {
                            (0..self.m.history.messages[i].parts.len())
                                .rev()
                                .map(move |k| (i, k))
                        })
                        .filter(|&(i, k)| self.m.part(i, k).protected)
                        .map(|(i, k)| self.m.part(i, k).tokens)
                        .collect();
                    let n = if carried.is_empty() {
                        0
                    } else {
                        self.m.carried(&carried)
                    };
                    assert!(n <= carried.len(), "restated {n} of {}", carried.len());
                    let t: f64 = carried[..n].iter().sum();
                    Event::Summarized(if n == 0 { 0.0 } else { t + 8.0 })
                }
                Need::PersistSpan { from, to } => self.persist_span(from, to, style, &mut asked),
                Need::PersistGroup { count } => self.group(count, style, &mut asked),
                Need::MergeSpans { count } => self.merge(count, style, &mut asked),
            };
            need = self.must(answer);
        }
        self.must(Event::Render {
            has_fixed: self.setup.has_fixed(),
        });
        let plan = self
            .m
            .pending_plan()
            .cloned()
            .expect("a rendered build has its plan");
        self.read_plan(&plan);
        let json = self.m.record.to_json();
        if let Err(e) = serde_json::from_str::<serde_json::Value>(&json) {
            panic!(
                "shell: the ledger is not JSON ({e}): {}",
                &json[..json.len().min(300)]
            );
        }
        if style.fail_at == Some(steps) {
            // `onLedger` threw after the render.
            return self.take_back(before);
        }
        self.must(Event::Commit);
        self.release();
        Built::Sent(plan)
    }

    fn take_back(&mut self, before: Before) -> Built {
        self.m.rollback();
        // A rollback is no event: the journal drops the build's (`Engine.rollback` does not
        // write them), so the events since its begin go.
        let begin = self
            .events
            .iter()
            .rposition(|e| *e == Event::Begin)
            .expect("the build's begin");
        self.events.truncate(begin);
        (self.shown, self.summary, _, self.lines) = before;
        self.refused += 1;
        Built::TakenBack
    }

    /// The plan as `plan.ts` decodes it and `planOf` reads it: every message it names is
    /// one the shell holds, every part one of its parts, every call one it knows.
    fn read_plan(&self, plan: &Plan) {
        self.check_pairs(plan);
        let encoded = plan.encode();
        let decoded = Plan::decode(&encoded)
            .unwrap_or_else(|e| panic!("shell: the plan does not decode: {e}"));
        assert!(
            decoded.emits == plan.emits && decoded.breakpoints == plan.breakpoints,
            "shell: the plan decodes as another"
        );
        for e in &plan.emits {
            if let Emit::Message {
                index,
                changed,
                unanswered,
            } = e
            {
                assert!(
                    matches!(self.messages.get(*index), Some(Some(_))),
                    "shell: the plan sends message {index}, which the shell released"
                );
                for &(k, _) in changed {
                    self.part(*index, k, "the plan");
                }
                for &c in unanswered {
                    let c = c as usize;
                    assert!(
                        c < self.call_ids.len(),
                        "shell: the plan marks call {c} of {}",
                        self.call_ids.len()
                    );
                }
            }
        }
    }
}
