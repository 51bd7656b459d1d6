//! How the runner turns a context window into the prompt text it sends the LLM.
//!
//! The rule emits the prompt as pieces to a [`PromptSink`]: the text it writes itself,
//! and references to turn contents. A JS host keeps those contents as JS strings and
//! never copies them into wasm just to paste them back out.

/// What the prompt needs of a turn besides its content.
#[derive(Debug, Clone, Copy)]
pub struct TurnMeta<'a> {
    pub turn_index: f64,
    pub role: &'a str,
}

/// Receives the prompt in order.
pub trait PromptSink {
    fn text(&mut self, text: &str);
    /// The content of `turns[index]`, verbatim.
    fn content(&mut self, index: usize);
}

/// `# Goal`, then each turn of the window under a `## role (turn N)` heading, in order.
/// Injected turns (negative `turn_index`) get no turn number.
pub fn render_prompt(task_goal: &str, turns: &[TurnMeta<'_>], sink: &mut impl PromptSink) {
    sink.text("# Goal\n");
    sink.text(task_goal);
    sink.text("\n");
    for (index, turn) in turns.iter().enumerate() {
        let number = if turn.turn_index >= 0.0 {
            format!(" (turn {})", super::args::show_number(turn.turn_index))
        } else {
            String::new()
        };
        sink.text(&format!("\n## {}{number}\n", turn.role));
        sink.content(index);
        sink.text("\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Text<'a>(String, &'a [&'a str]);

    impl PromptSink for Text<'_> {
        fn text(&mut self, text: &str) {
            self.0.push_str(text);
        }
        fn content(&mut self, index: usize) {
            self.0.push_str(self.1[index]);
        }
    }

    #[test]
    fn goal_first_then_turns_in_order() {
        let turns = [
            TurnMeta {
                turn_index: -1.0,
                role: "user",
            },
            TurnMeta {
                turn_index: 3.0,
                role: "assistant",
            },
        ];
        let mut out = Text(String::new(), &["[SPEC REFRESH]", "patched"]);
        render_prompt("fix it", &turns, &mut out);
        assert_eq!(
            out.0,
            "# Goal\nfix it\n\n## user\n[SPEC REFRESH]\n\n## assistant (turn 3)\npatched\n"
        );
    }
}
