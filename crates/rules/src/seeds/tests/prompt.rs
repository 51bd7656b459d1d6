use super::*;
use crate::base::frame::{Frame, Reader};

fn turns() -> [TurnMeta<'static>; 2] {
    [
        TurnMeta {
            turn_index: -1.0,
            role: "user",
        },
        TurnMeta {
            turn_index: 3.0,
            role: "assistant",
        },
    ]
}

fn text(slots: bool, tools: usize, hosts: &[&str]) -> String {
    let mut frame = Frame::new();
    frame.text(|p| render(p, slots, &turns(), tools));
    Reader::new(&frame.into_string()).text(hosts)
}

#[test]
fn goal_first_then_turns_in_order() {
    assert_eq!(
        text(false, 0, &["fix it", "", "", "[SPEC REFRESH]", "patched"]),
        "# Goal\nfix it\n\n## user\n[SPEC REFRESH]\n\n## assistant (turn 3)\npatched\n"
    );
}

#[test]
fn the_kept_form_with_the_entries_appended_is_the_prompt() {
    let outputs = [("run_tests", "OUT"), ("grep", ""), ("ls", "a\nb")];
    for slots in [false, true] {
        for n in 0..=outputs.len() {
            let mut hosts = vec!["G", "M", "R", "S", "A"];
            for (name, shown) in &outputs[..n] {
                hosts.extend([*name, *shown]);
            }
            // The host's kept text: each entry written once, in order.
            let mut kept = String::new();
            for (name, shown) in &outputs[..n] {
                let mut frame = Frame::new();
                frame.text(|p| render_tool(p, 0, 1));
                kept += &Reader::new(&frame.into_string()).text(&[name, shown]);
            }
            let mut frame = Frame::new();
            frame.text(|p| render_kept(p, slots, &turns(), n > 0));
            let got = Reader::new(&frame.into_string()).text(&["G", "M", "R", &kept, "S", "A"]);
            assert_eq!(got, text(slots, n, &hosts), "slots {slots}, {n} outputs");
        }
    }
}

#[test]
fn turn_numbers_are_written_as_show_number_writes_them() {
    for n in [
        0.0,
        1.0,
        9.0,
        10.0,
        12345.0,
        9_007_199_254_740_991.0,
        9_007_199_254_740_992.0,
        1e21,
        2.5,
    ] {
        let turns = [TurnMeta {
            turn_index: n,
            role: "user",
        }];
        let mut frame = Frame::new();
        frame.text(|p| render(p, false, &turns, 0));
        let got = Reader::new(&frame.into_string()).text(&["G", "", "", "S"]);
        assert_eq!(
            got,
            format!("# Goal\nG\n\n## user (turn {})\nS\n", show_number(n))
        );
    }
}

#[test]
fn goal_map_recent_past_then_conversation_and_tool_outputs() {
    assert_eq!(
        text(true, 1, &["G", "M", "R", "S", "A", "run_tests", "OUT"]),
        "# Goal\nG\n\n# Map\nM\n\n# Recent Past\nR\n\n# Conversation\n\n## user\nS\n\n## assistant (turn 3)\nA\n\n# Tool outputs\n\n## run_tests\nOUT\n"
    );
}
