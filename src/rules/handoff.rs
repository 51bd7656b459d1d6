//! The summarization handoff: a window of turns becomes one medium-term summary, which
//! the runner re-injects as a `[CONTEXT REFRESH]` turn ([4_USER_FEATURES-REQ-083]).

use super::tokens::truncate_utf16;

/// Each turn's content is cut to this many UTF-16 units in the prompt.
pub const MAX_TURN_CHARS: usize = 1500;
pub const CONTEXT_REFRESH_PREFIX: &str = "[CONTEXT REFRESH]";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
    Tool,
}

impl Role {
    pub const NAMES: [&'static str; 3] = ["user", "assistant", "tool"];

    pub fn parse(name: &str) -> Option<Role> {
        match name {
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            "tool" => Some(Role::Tool),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// What the handoff reads of a turn.
#[derive(Debug, Clone, Copy)]
pub struct TurnView<'a> {
    pub turn_index: f64,
    pub role: Role,
    pub content: &'a str,
}

/// The summarizer prompt, or `None` when no turn is left to summarize (an empty window,
/// or only tool output): then the LLM is not called at all.
pub fn build_prompt(agent_id: &str, turns: &[TurnView<'_>]) -> Option<String> {
    let mut kept = turns.iter().filter(|t| t.role != Role::Tool).peekable();
    kept.peek()?;
    let mut prompt = format!(
        "Summarize the conversation of agent {agent_id} below into a medium-term memory it can \
         continue from. Keep the decisions made, the files touched, the errors seen, the current \
         plan and the open questions. Tool output is omitted.\n"
    );
    for turn in kept {
        let index = super::args::show_number(turn.turn_index);
        prompt.push_str(&format!("\n[turn {index}] {}:\n", turn.role.name()));
        prompt.push_str(truncate_utf16(turn.content, MAX_TURN_CHARS));
        prompt.push('\n');
    }
    Some(prompt)
}

/// First and last `turnIndex` the summary covers.
pub fn turn_range(turns: &[TurnView<'_>]) -> Option<(f64, f64)> {
    turns
        .iter()
        .map(|t| t.turn_index)
        .fold(None, |range, i| match range {
            None => Some((i, i)),
            Some((lo, hi)) => Some((lo.min(i), hi.max(i))),
        })
}

/// The synthetic turn the runner appends after a handoff.
pub fn context_refresh_content(summary_text: &str) -> String {
    format!("{CONTEXT_REFRESH_PREFIX}\n{summary_text}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(i: f64, role: Role, content: &str) -> TurnView<'_> {
        TurnView {
            turn_index: i,
            role,
            content,
        }
    }

    #[test]
    fn leaves_tool_turns_out_and_cuts_each_turn() {
        let long = "Q".repeat(2000);
        let turns = [
            turn(4.0, Role::User, "fix the parser"),
            turn(5.0, Role::Tool, "TOOL OUTPUT"),
            turn(6.0, Role::Assistant, &long),
        ];
        let prompt = build_prompt("dev-1", &turns).unwrap();
        assert!(prompt.contains("agent dev-1"));
        assert!(prompt.contains("[turn 4] user:\nfix the parser\n"));
        assert!(!prompt.contains("TOOL OUTPUT"));
        assert_eq!(prompt.matches('Q').count(), 1500);
        assert_eq!(turn_range(&turns), Some((4.0, 6.0)));
    }

    #[test]
    fn nothing_to_summarize_gives_none() {
        assert_eq!(build_prompt("a", &[]), None);
        assert_eq!(build_prompt("a", &[turn(1.0, Role::Tool, "out")]), None);
        assert_eq!(turn_range(&[]), None);
    }

    #[test]
    fn refresh_turn_is_prefixed() {
        assert_eq!(context_refresh_content("S"), "[CONTEXT REFRESH]\nS");
        assert_eq!(Role::parse("tool"), Some(Role::Tool));
        assert_eq!(Role::parse("system"), None);
        assert_eq!(Role::Assistant.name(), "assistant");
    }
}
