//! How the runner turns a context window into the prompt text it sends the LLM.
//!
//! The rule emits the prompt as pieces to a [`PromptSink`]: the text it writes itself,
//! and references to texts the host holds (turn contents, slots, tool outputs). A JS host
//! keeps those as JS strings and never copies them into wasm just to paste them back out.

/// What the prompt needs of a turn besides its content.
#[derive(Debug, Clone, Copy)]
pub struct TurnMeta<'a> {
    pub turn_index: f64,
    pub role: &'a str,
    /// The host text holding the turn's content.
    pub content: usize,
}

/// A pending tool output: its tool, and the host text shown for it.
#[derive(Debug, Clone, Copy)]
pub struct ToolMeta<'a> {
    pub tool_name: &'a str,
    pub content: usize,
}

/// Everything a prompt is made of. Texts are referred to by index.
#[derive(Debug, Clone, Copy)]
pub struct PromptParts<'a> {
    pub goal: usize,
    /// The Map and Recent Past slots, when context management composed them.
    pub map: Option<usize>,
    pub recent_past: Option<usize>,
    pub turns: &'a [TurnMeta<'a>],
    pub tool_outputs: &'a [ToolMeta<'a>],
}

/// Receives the prompt in order.
pub trait PromptSink {
    fn text(&mut self, text: &str);
    /// Host text number `index`, verbatim.
    fn content(&mut self, index: usize);
}

/// `# Goal`, then `# Map` and `# Recent Past` when present ([3_MCP-TAS-047]'s order), then
/// `# Conversation` with each turn under `## role (turn N)`, then `# Tool outputs`.
/// Injected turns (negative `turn_index`) get no turn number.
pub fn render_prompt(parts: &PromptParts<'_>, sink: &mut impl PromptSink) {
    section(sink, "# Goal\n", parts.goal);
    if let Some(map) = parts.map {
        section(sink, "\n# Map\n", map);
    }
    if let Some(recent) = parts.recent_past {
        section(sink, "\n# Recent Past\n", recent);
    }
    if parts.map.is_some() || parts.recent_past.is_some() {
        sink.text("\n# Conversation\n");
    }
    for turn in parts.turns {
        let number = if turn.turn_index >= 0.0 {
            format!(" (turn {})", super::args::show_number(turn.turn_index))
        } else {
            String::new()
        };
        section(sink, &format!("\n## {}{number}\n", turn.role), turn.content);
    }
    if !parts.tool_outputs.is_empty() {
        sink.text("\n# Tool outputs\n");
        for tool in parts.tool_outputs {
            section(sink, &format!("\n## {}\n", tool.tool_name), tool.content);
        }
    }
}

fn section(sink: &mut impl PromptSink, heading: &str, content: usize) {
    sink.text(heading);
    sink.content(content);
    sink.text("\n");
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

    fn turns() -> [TurnMeta<'static>; 2] {
        [
            TurnMeta {
                turn_index: -1.0,
                role: "user",
                content: 1,
            },
            TurnMeta {
                turn_index: 3.0,
                role: "assistant",
                content: 2,
            },
        ]
    }

    #[test]
    fn goal_first_then_turns_in_order() {
        let texts = ["fix it", "[SPEC REFRESH]", "patched"];
        let mut out = Text(String::new(), &texts);
        let parts = PromptParts {
            goal: 0,
            map: None,
            recent_past: None,
            turns: &turns(),
            tool_outputs: &[],
        };
        render_prompt(&parts, &mut out);
        assert_eq!(
            out.0,
            "# Goal\nfix it\n\n## user\n[SPEC REFRESH]\n\n## assistant (turn 3)\npatched\n"
        );
    }

    #[test]
    fn goal_map_recent_past_then_conversation_and_tool_outputs() {
        let texts = ["G", "S", "A", "M", "R", "OUT"];
        let mut out = Text(String::new(), &texts);
        let tools = [ToolMeta {
            tool_name: "run_tests",
            content: 5,
        }];
        let parts = PromptParts {
            goal: 0,
            map: Some(3),
            recent_past: Some(4),
            turns: &turns(),
            tool_outputs: &tools,
        };
        render_prompt(&parts, &mut out);
        assert_eq!(
            out.0,
            "# Goal\nG\n\n# Map\nM\n\n# Recent Past\nR\n\n# Conversation\n\n## user\nS\n\n## assistant (turn 3)\nA\n\n# Tool outputs\n\n## run_tests\nOUT\n"
        );
    }
}
