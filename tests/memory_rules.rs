//! The memory rules of seeds 001 and 003 over a long scripted session: the window slides,
//! the specs come back every 10 turns, and the monitor hands off at the threshold.

use devs_context::rules::handoff::{Role, TurnView, build_prompt, context_refresh_content};
use devs_context::rules::monitor::ThresholdMonitor;
use devs_context::rules::tokens::{ApproxCounter, TokenCounter};
use devs_context::rules::window::{injection_content, should_inject_spec, window_start};

#[test]
fn a_thousand_turn_session_refreshes_specs_and_context_on_schedule() {
    let counter = ApproxCounter;
    let mut monitor = ThresholdMonitor::new(800_000.0);
    let response = "z".repeat(4_000); // 1,000 tokens a turn
    let mut contents: Vec<String> = Vec::new();
    let (mut spec_turns, mut handoffs) = (Vec::new(), Vec::new());

    for turn in 1..=1000u64 {
        contents.push(format!("user message {turn}"));
        let start = window_start(contents.len(), 20);
        assert!(contents.len() - start <= 20);
        if should_inject_spec(turn) {
            spec_turns.push(turn);
        }
        contents.push(response.clone());
        if monitor
            .record(counter.count(&response) as f64)
            .unwrap()
            .is_some()
        {
            handoffs.push(turn);
            // The summary's own tokens are never recorded.
            contents.push(context_refresh_content("summary"));
        }
    }

    assert_eq!(spec_turns.len(), 100);
    assert_eq!(spec_turns[..3], [10, 20, 30]);
    assert_eq!(handoffs, vec![800]);
    assert_eq!(monitor.accumulated(), 200_000.0);
    assert!(injection_content([("TAS", "t"), ("PRD", "p")]).starts_with("[SPEC REFRESH]"));
}

#[test]
fn the_handoff_prompt_only_carries_conversation_turns() {
    let turns = [
        TurnView {
            turn_index: 1.0,
            role: Role::User,
            content: "fix the parser",
        },
        TurnView {
            turn_index: 2.0,
            role: Role::Tool,
            content: "<400 KB of test output>",
        },
        TurnView {
            turn_index: 3.0,
            role: Role::Assistant,
            content: "patched the lexer",
        },
    ];
    let prompt = build_prompt("dev-1", &turns).unwrap();
    assert!(prompt.contains("fix the parser") && prompt.contains("patched the lexer"));
    assert!(!prompt.contains("400 KB"));
}
