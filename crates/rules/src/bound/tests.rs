//! The bound, driven the way the TS shell drives it: a host that counts with `length / 4`,
//! keeps the texts, builds the cut and placeholder texts from the rules' frames, and
//! renders every prompt to check it against the budget by counting the whole text.

use super::*;
use crate::frame::{Frame, Reader};
use crate::text::{Probe, cut_end};
use crate::tokens::approx_tokens;

fn tokens(text: &str) -> f64 {
    approx_tokens(text.encode_utf16().count()) as f64
}

#[derive(Default)]
struct Host {
    texts: Vec<String>,
    outputs: Vec<Option<String>>,
    tools: Vec<String>,
    shown_texts: Vec<String>,
    shown_outputs: Vec<String>,
    stored: Vec<String>,
    summary: String,
    summarizer_prompts: Vec<f64>,
    fail_store: bool,
    summarizer: Option<fn(usize) -> String>,
}

fn units_of(text: &str) -> usize {
    text.encode_utf16().count()
}

impl Host {
    fn add(
        &mut self,
        b: &mut Bound,
        kind: Kind,
        turn: u32,
        text: &str,
        output: Option<&str>,
        tool: &str,
    ) {
        self.texts.push(text.into());
        self.outputs.push(output.map(String::from));
        self.tools.push(tool.into());
        self.shown_texts.push(text.into());
        self.shown_outputs.push(output.unwrap_or("").into());
        let out = output.map(|o| Part::new(units_of(o), tokens(o)));
        b.add(kind, turn, Part::new(units_of(text), tokens(text)), out);
    }

    fn turn(&mut self, b: &mut Bound) -> String {
        let mut need = b.plan().unwrap();
        loop {
            need = match need {
                Need::Done => break,
                Need::Persist { item } => {
                    if self.fail_store {
                        b.persisted(false)
                    } else {
                        self.stored.push(self.outputs[item].clone().unwrap());
                        b.persisted(true)
                    }
                }
                Need::Placeholder { item } => {
                    let call = &self.texts[item];
                    let end = cut_end(&Probe::of(call), PLACEHOLDER_CALL_CHARS, false);
                    let mut f = Frame::new();
                    f.text(|p| placeholder(p, b.items[item].output.unwrap().tokens, end));
                    let id = format!("raw-{item}");
                    let text = Reader::new(&f.into_string()).text(&[
                        &self.tools[item],
                        call,
                        &id,
                        "success",
                    ]);
                    let t = tokens(&text);
                    self.shown_outputs[item] = text;
                    b.measured(t)
                }
                Need::Cut {
                    item,
                    which,
                    head,
                    tail,
                } => {
                    let whole = match which {
                        Which::Text => self.texts[item].clone(),
                        Which::Output => self.outputs[item].clone().unwrap(),
                    };
                    let n = units_of(&whole);
                    let (head, tail) = (head.min(n), tail.min(n - head.min(n)));
                    let mut f = Frame::new();
                    f.text(|p| cut_text(p, n, head, tail, which == Which::Output));
                    let text = Reader::new(&f.into_string()).text(&[&whole, "raw-x"]);
                    let t = tokens(&text);
                    match which {
                        Which::Text => self.shown_texts[item] = text,
                        Which::Output => self.shown_outputs[item] = text,
                    }
                    b.measured(t)
                }
                Need::Summarize { from, to } => {
                    let mut hosts = vec![self.summary.clone()];
                    for i in from..to {
                        hosts.extend([
                            self.shown_texts[i].clone(),
                            self.shown_outputs[i].clone(),
                            self.tools[i].clone(),
                        ]);
                    }
                    let mut f = Frame::new();
                    f.text(|p| summarizer_prompt(p, b, from, to));
                    let hosts: Vec<&str> = hosts.iter().map(String::as_str).collect();
                    let prompt = Reader::new(&f.into_string()).text(&hosts);
                    self.summarizer_prompts.push(tokens(&prompt));
                    match self.summarizer {
                        None => b.no_summarizer(),
                        Some(make) => {
                            self.summary = make(to);
                            b.summarized(tokens(&self.summary))
                        }
                    }
                }
            };
        }
        self.render(b)
    }

    fn render(&self, b: &Bound) -> String {
        let mut hosts: Vec<String> = vec![
            "GOAL".into(),
            "PLAN".into(),
            String::new(),
            self.summary.clone(),
        ];
        for i in b.first_live..b.items.len() {
            hosts.extend([
                self.shown_texts[i].clone(),
                self.shown_outputs[i].clone(),
                self.tools[i].clone(),
            ]);
        }
        let mut f = Frame::new();
        f.text(|p| b.render(p, false));
        let hosts: Vec<&str> = hosts.iter().map(String::as_str).collect();
        Reader::new(&f.into_string()).text(&hosts)
    }
}

fn bound(budget: f64) -> Bound {
    Bound::new(
        Config::new(budget, None, None, None).unwrap(),
        tokens("GOAL") + tokens("PLAN"),
    )
    .unwrap()
}

#[test]
fn a_small_history_is_sent_whole() {
    let mut b = bound(10_000.0);
    let mut h = Host::default();
    h.add(&mut b, Kind::User, 1, "fix the parser", None, "");
    h.add(
        &mut b,
        Kind::Tool,
        1,
        "{\"cmd\":\"cargo test\"}",
        Some("1 failed"),
        "bash",
    );
    let prompt = h.turn(&mut b);
    assert!(prompt.starts_with("# Goal\nGOAL\n\n# Plan\nPLAN\n"));
    assert!(
        prompt
            .contains("## tool bash (turn 1)\ncall: {\"cmd\":\"cargo test\"}\noutput:\n1 failed\n")
    );
    assert_eq!(b.steps, Steps::default());
    assert!(
        b.raw_tokens() >= tokens(&prompt),
        "the sum never falls below the whole"
    );
}

#[test]
fn outputs_that_left_recent_past_become_placeholders_after_they_are_stored() {
    let mut b = bound(100_000.0);
    let mut h = Host::default();
    for turn in 1..=10 {
        h.add(
            &mut b,
            Kind::Tool,
            turn,
            &format!("{{\"path\":\"src/file{turn}.rs\"}}"),
            Some(&"x".repeat(2000)),
            "read_file",
        );
    }
    let prompt = h.turn(&mut b);
    assert_eq!(b.steps.masked, vec![0, 1, 2, 3]);
    assert_eq!(h.stored.len(), 4, "each masked output stored first");
    assert!(prompt.contains(
        "[output of read_file {\"path\":\"src/file1.rs\"} (success, 500 tokens) stored as raw-0]"
    ));
    assert_eq!(
        prompt.matches(&"x".repeat(2000)).count(),
        6,
        "Recent Past stays whole"
    );
}

#[test]
fn a_fresh_output_over_its_share_is_cut_head_and_tail() {
    let mut b = bound(20_000.0);
    let mut h = Host::default();
    let huge = format!("HEAD{}TAIL", "y".repeat(1_000_000));
    h.add(
        &mut b,
        Kind::Tool,
        1,
        "{\"cmd\":\"git diff\"}",
        Some(&huge),
        "bash",
    );
    let prompt = h.turn(&mut b);
    assert_eq!(b.steps.cut, vec![(0, Which::Output)]);
    assert!(prompt.contains("HEAD") && prompt.contains("TAIL"));
    assert!(prompt.contains("characters cut; the whole output is stored as raw-x"));
    assert!(tokens(&prompt) <= 20_000.0);
    assert!(b.items[0].output.unwrap().shown_tokens <= b.config.part_cap());
}

fn summary_of(to: usize) -> String {
    format!("summary up to item {to} ").repeat(20)
}

#[test]
fn a_long_history_is_summarized_in_capped_chunks_and_always_fits() {
    let budget = 8_000.0;
    let mut b = bound(budget);
    let mut h = Host {
        summarizer: Some(summary_of),
        ..Host::default()
    };
    for turn in 1..=200u32 {
        h.add(&mut b, Kind::User, turn, &"question ".repeat(40), None, "");
        h.add(
            &mut b,
            Kind::Tool,
            turn,
            "{\"q\":1}",
            Some(&"answer ".repeat(300)),
            "search",
        );
        let prompt = h.turn(&mut b);
        assert!(
            tokens(&prompt) <= budget,
            "turn {turn}: {} > {budget}",
            tokens(&prompt)
        );
        assert!(b.prompt_tokens() <= budget);
        // Pairs together: an output line always follows its call.
        assert_eq!(
            prompt.matches("\ncall: ").count(),
            prompt.matches("\noutput:\n").count()
        );
    }
    assert!(b.summary_tokens > 0.0, "the history was summarized");
    let cap = b.config.summarizer_cap();
    assert!(
        h.summarizer_prompts.iter().all(|&t| t <= cap),
        "every summarizer prompt under {cap}: {:?}",
        h.summarizer_prompts
    );
}

#[test]
fn without_a_summarizer_the_oldest_items_are_dropped_and_the_newest_kept() {
    let budget = 4_000.0;
    let mut b = bound(budget);
    let mut h = Host::default();
    let mut dropped = false;
    for turn in 1..=60u32 {
        h.add(
            &mut b,
            Kind::Assistant,
            turn,
            &"thinking ".repeat(100),
            None,
            "",
        );
        let prompt = h.turn(&mut b);
        assert!(tokens(&prompt) <= budget);
        assert!(
            prompt.contains(&format!("## assistant (turn {turn})")),
            "the newest is kept"
        );
        dropped |= b.steps.dropped.is_some();
    }
    assert!(dropped);
    assert!(
        b.steps
            .warnings
            .iter()
            .any(|w| w.contains("summarizer failed"))
            || b.steps.dropped.is_some()
    );
}

#[test]
fn a_store_that_fails_keeps_outputs_cut_not_masked() {
    let mut b = bound(50_000.0);
    let mut h = Host {
        fail_store: true,
        ..Host::default()
    };
    for turn in 1..=10 {
        h.add(&mut b, Kind::Tool, turn, "{}", Some("out"), "t");
    }
    let prompt = h.turn(&mut b);
    assert!(b.steps.masked.is_empty());
    assert!(!prompt.contains("stored as"));
    assert!(
        b.steps
            .warnings
            .iter()
            .any(|w| w.contains("could not be stored"))
    );
}

#[test]
fn a_summary_over_its_cap_falls_back_to_the_cut_with_a_warning() {
    let budget = 4_000.0;
    let mut b = bound(budget);
    let mut h = Host {
        summarizer: Some(|_| "long ".repeat(2_000)),
        ..Host::default()
    };
    let mut warned = false;
    for turn in 1..=40u32 {
        h.add(&mut b, Kind::User, turn, &"words ".repeat(200), None, "");
        let prompt = h.turn(&mut b);
        assert!(tokens(&prompt) <= budget);
        warned |= b.steps.warnings.iter().any(|w| w.contains("over its cap"));
    }
    assert!(warned);
    assert_eq!(b.summary_tokens, 0.0);
}

#[test]
fn the_ledger_sections_add_up() {
    let mut b = bound(3_000.0);
    let mut h = Host {
        summarizer: Some(summary_of),
        ..Host::default()
    };
    for turn in 1..=30u32 {
        h.add(&mut b, Kind::User, turn, "hello there", None, "");
        h.add(&mut b, Kind::Tool, turn, "{}", Some(&"z".repeat(900)), "t");
        h.turn(&mut b);
        let sum: f64 = b.sections().iter().sum();
        assert!((sum - b.raw_tokens()).abs() < 1e-9);
    }
}

#[test]
fn calibration_makes_the_bound_the_providers() {
    let budget = 10_000.0;
    let mut b = bound(budget);
    let mut h = Host {
        summarizer: Some(summary_of),
        ..Host::default()
    };
    for ours in [1000.0, 2000.0, 3000.0, 4000.0] {
        b.calibration.observe(ours, 1.5 * ours).unwrap();
    }
    for turn in 1..=80u32 {
        h.add(
            &mut b,
            Kind::Assistant,
            turn,
            &"reasoning ".repeat(60),
            None,
            "",
        );
        let prompt = h.turn(&mut b);
        assert!(1.5 * tokens(&prompt) <= budget, "turn {turn}");
    }
}

#[test]
fn pinned_content_that_leaves_no_room_is_refused_at_construction() {
    let config = Config::new(10_000.0, None, None, None).unwrap();
    let err = Bound::new(config, 6_000.0).unwrap_err();
    assert_eq!(err.field, "options.bounded.budget");
    assert!(
        err.message.contains("6000 tokens pinned"),
        "{}",
        err.message
    );
    assert!(Config::new(500.0, None, None, None).is_err());
    assert_eq!(
        Config::new(10_000.0, None, Some(0.5), None)
            .unwrap_err()
            .field,
        "options.bounded.partShare"
    );
}

#[test]
fn a_failed_turn_is_rolled_back_whole() {
    let budget = 5_000.0;
    let mut b = bound(budget);
    let mut h = Host {
        summarizer: Some(summary_of),
        ..Host::default()
    };
    for turn in 1..=20u32 {
        h.add(&mut b, Kind::Tool, turn, "{}", Some(&"w".repeat(3000)), "t");
        b.begin();
        h.turn(&mut b);
        b.commit();
    }
    let before = (
        b.items.clone(),
        b.first_live,
        b.summary_tokens,
        b.raw_tokens(),
    );
    b.begin();
    h.add(
        &mut b,
        Kind::Tool,
        21,
        "{}",
        Some(&"v".repeat(400_000)),
        "t",
    );
    h.turn(&mut b);
    assert_ne!(b.items.len(), before.0.len());
    b.rollback();
    assert_eq!(
        (
            b.items.clone(),
            b.first_live,
            b.summary_tokens,
            b.raw_tokens()
        ),
        before
    );
}

#[test]
fn the_ledger_is_json_with_sections_and_steps() {
    let mut b = bound(100_000.0);
    let mut h = Host::default();
    for turn in 1..=8 {
        h.add(&mut b, Kind::Tool, turn, "{}", Some("out"), "t");
    }
    h.turn(&mut b);
    let json = b.ledger_json();
    assert!(
        json.starts_with("{\"budget\":100000,\"promptTokens\":"),
        "{json}"
    );
    assert!(
        json.contains("\"masked\":[{\"item\":0,\"turn\":1},{\"item\":1,\"turn\":2}]"),
        "{json}"
    );
    assert!(
        json.contains("\"summarized\":null,\"dropped\":null"),
        "{json}"
    );
}

#[test]
fn cuts_never_split_a_surrogate_pair() {
    let text: Vec<u16> = "ab😀cd😀ef".encode_utf16().collect();
    let window = |at: usize| Probe {
        start: at - 1,
        units: crate::cut::Units(text[at - 1..(at + 1).min(text.len())].to_vec()),
    };
    // head 3 would end inside the first 😀; tail 3 would start inside the second.
    assert_eq!(cut_bounds(3, &window(3), 3, &window(7), 10), (2, 2));
    assert_eq!(cut_bounds(2, &window(2), 2, &window(8), 10), (2, 2));
}

#[test]
fn a_calibration_that_outgrew_the_budget_is_named_and_a_reset_recovers() {
    let mut b = bound(50_000.0);
    b.pinned_tokens = 25.0;
    for ours in [1000.0, 2000.0, 3000.0, 4000.0] {
        b.calibration.observe(ours, 40_000.0 + ours).unwrap();
    }
    let err = b.plan().unwrap_err();
    assert_eq!(err.field, "calibration");
    assert!(err.message.contains("overhead 40000"), "{}", err.message);
    assert!(
        err.message.contains("resetCalibration()"),
        "{}",
        err.message
    );
    b.calibration.reset();
    assert!(b.plan().is_ok());
}
