//! The memory rules of seeds 001 and 003 over a long scripted session, driven the way the
//! TS shell drives them: the window slides, the specs come back every 10 turns, and the
//! runner hands off at the threshold.

use devs_context_rules::base::frame::{Frame, Reader};
use devs_context_rules::base::text::Probe;
use devs_context_rules::base::tokens::approx_tokens;
use devs_context_rules::seeds::handoff;
use devs_context_rules::seeds::runner::{Parts, Runner, Step};
use devs_context_rules::seeds::window::{injection, spec_due, window_start};

#[test]
fn a_thousand_turn_session_refreshes_specs_and_context_on_schedule() {
    let mut runner = Runner::new(Some(800_000.0), Parts::default()).unwrap();
    let response = "z".repeat(4_000); // 1,000 tokens a turn
    let mut history: Vec<String> = Vec::new();
    let (mut spec_turns, mut handoffs) = (Vec::new(), Vec::new());

    for _ in 1..=1000 {
        let mut turn = runner.begin(true);
        assert_eq!(turn.next_step(), Some(Step::AddInput));
        history.push(format!("user message {}", turn.number));
        assert!(history.len() - window_start(history.len(), 20) <= 20);
        if spec_due(f64::from(turn.number)).unwrap() {
            spec_turns.push(turn.number);
        }
        assert_eq!(turn.next_step(), Some(Step::Compose));
        assert_eq!(turn.next_step(), Some(Step::CallLlm));
        history.push(response.clone());
        let tokens = approx_tokens(response.len()) as f64;
        runner.record(&mut turn, tokens, tokens, false).unwrap();
        while let Some(step) = turn.next_step() {
            if step == Step::Handoff {
                handoffs.push(turn.number);
                // The summary's own tokens are never recorded.
                history.push("[CONTEXT REFRESH]\nsummary".into());
            }
        }
        runner.commit(&turn);
    }

    assert_eq!(spec_turns.len(), 100);
    assert_eq!(spec_turns[..3], [10, 20, 30]);
    assert_eq!(handoffs, vec![800]);
    assert_eq!(runner.accumulated(), 200_000.0);
    let mut frame = Frame::new();
    frame.text(|p| injection(p, &[Probe::of("t"), Probe::of("p")]));
    let text = Reader::new(&frame.into_string()).text(&["TAS", "t", "PRD", "p"]);
    assert_eq!(text, "[SPEC REFRESH]\n\n## TAS\nt\n## PRD\np\n");
}

#[test]
fn the_handoff_prompt_only_carries_conversation_turns() {
    let contents = [
        "fix the parser",
        "<400 KB of test output>",
        "patched the lexer",
    ];
    let roles = ["user", "tool", "assistant"];
    let probes: Vec<Probe> = contents.iter().map(|c| Probe::of(c)).collect();
    let mut frame = Frame::new();
    handoff::prompt(&mut frame, &[1.0, 2.0, 3.0], &roles, &probes).unwrap();
    let values = frame.into_string();
    let mut r = Reader::new(&values);
    assert_eq!((r.num(), r.num(), r.num()), (1.0, 1.0, 3.0));
    let prompt = r.text(&["dev-1", contents[0], contents[1], contents[2]]);
    assert!(prompt.contains("fix the parser") && prompt.contains("patched the lexer"));
    assert!(!prompt.contains("400 KB"));
}
