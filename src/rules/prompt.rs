//! How the runner turns a context window into the prompt text it sends the LLM.

use super::handoff::TurnView;

/// `# Goal`, then each turn of the window under a `## role (turn N)` heading, in order.
pub fn render_prompt(task_goal: &str, turns: &[TurnView<'_>]) -> String {
    let body: usize = turns.iter().map(|t| t.content.len() + 32).sum();
    let mut prompt = String::with_capacity(task_goal.len() + body + 16);
    prompt.push_str("# Goal\n");
    prompt.push_str(task_goal);
    prompt.push('\n');
    for turn in turns {
        prompt.push_str("\n## ");
        prompt.push_str(turn.role.name());
        if turn.turn_index >= 0.0 {
            prompt.push_str(&format!(
                " (turn {})",
                super::args::show_number(turn.turn_index)
            ));
        }
        prompt.push('\n');
        prompt.push_str(turn.content);
        prompt.push('\n');
    }
    prompt
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::handoff::Role;

    #[test]
    fn goal_first_then_turns_in_order() {
        let turns = [
            TurnView {
                turn_index: -1.0,
                role: Role::User,
                content: "[SPEC REFRESH]",
            },
            TurnView {
                turn_index: 3.0,
                role: Role::Assistant,
                content: "patched",
            },
        ];
        assert_eq!(
            render_prompt("fix it", &turns),
            "# Goal\nfix it\n\n## user\n[SPEC REFRESH]\n\n## assistant (turn 3)\npatched\n"
        );
    }
}
