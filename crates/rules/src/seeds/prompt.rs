//! How the runner turns a context window into the prompt text it sends the LLM.
//!
//! The prompt is written as pieces (see [`crate::base::frame`]): the rule's headings around the
//! host's texts, which a JS host keeps as JS strings and never copies into wasm.
//!
//! Host texts: `GOAL`, `MAP` and `RECENT_PAST` (the last two only when context management
//! composed them), then each turn's content, then each pending tool output's name and the
//! text shown for it.

use crate::base::args::show_number;
use crate::base::frame::Pieces;

pub const GOAL: usize = 0;
pub const MAP: usize = 1;
pub const RECENT_PAST: usize = 2;
const FIRST_TURN: usize = 3;

/// Host text of turn `i`'s content.
pub fn turn_text(i: usize) -> usize {
    FIRST_TURN + i
}

/// Host texts of pending output `j`'s tool name and shown text, after `turns` turns.
pub fn tool_texts(turns: usize, j: usize) -> (usize, usize) {
    let name = FIRST_TURN + turns + 2 * j;
    (name, name + 1)
}

/// What the prompt needs of a turn besides its content.
#[derive(Debug, Clone, Copy)]
pub struct TurnMeta<'a> {
    pub turn_index: f64,
    pub role: &'a str,
}

/// `# Goal`, then `# Map` and `# Recent Past` when present ([3_MCP-TAS-047]'s order), then
/// `# Conversation` with each turn under `## role (turn N)`, then `# Tool outputs`.
/// Injected turns (negative `turn_index`) get no turn number.
pub fn render(p: &mut Pieces<'_>, slots: bool, turns: &[TurnMeta<'_>], tool_outputs: usize) {
    head(p, slots);
    for (i, turn) in turns.iter().enumerate() {
        turn_heading(p, turn);
        p.host(turn_text(i)).lit("\n");
    }
    if tool_outputs > 0 {
        p.lit(TOOLS_HEADING);
        for j in 0..tool_outputs {
            let (name, content) = tool_texts(turns.len(), j);
            render_tool(p, name, content);
        }
    }
}

const TOOLS_HEADING: &str = "\n# Tool outputs\n";

/// One pending output's entry under `# Tool outputs`: host texts `name`, `content`.
pub fn render_tool(p: &mut Pieces<'_>, name: usize, content: usize) {
    p.lit("\n## ").host(name).lit("\n").host(content).lit("\n");
}

/// Host texts of [`render_kept`]: those of [`render`] but for the outputs, whose entries
/// (each a [`render_tool`]) the host keeps as one text, `TOOLS`, from prompt to prompt.
pub const TOOLS: usize = 3;
const FIRST_KEPT_TURN: usize = 4;

/// Host text of turn `i`'s content in [`render_kept`].
pub fn kept_turn_text(i: usize) -> usize {
    FIRST_KEPT_TURN + i
}

/// [`render`]'s text with the Tool outputs' entries as one host text, `TOOLS`: the seeds
/// show every pending output on every turn, so a host that keeps that text and appends the
/// entries of new outputs writes each entry once, not once per turn it stays pending.
pub fn render_kept(p: &mut Pieces<'_>, slots: bool, turns: &[TurnMeta<'_>], has_tools: bool) {
    head(p, slots);
    for (i, turn) in turns.iter().enumerate() {
        turn_heading(p, turn);
        p.host(kept_turn_text(i)).lit("\n");
    }
    if has_tools {
        p.lit(TOOLS_HEADING).host(TOOLS);
    }
}

/// `# Goal`, then, with the slots, `# Map`, `# Recent Past` and the `# Conversation` heading.
fn head(p: &mut Pieces<'_>, slots: bool) {
    section(p, "# Goal\n", GOAL);
    if slots {
        section(p, "\n# Map\n", MAP);
        section(p, "\n# Recent Past\n", RECENT_PAST);
        p.lit("\n# Conversation\n");
    }
}

fn turn_heading(p: &mut Pieces<'_>, turn: &TurnMeta<'_>) {
    p.lit("\n## ").lit(turn.role);
    if turn.turn_index >= 0.0 {
        p.lit(" (turn ");
        let mut digits = [0u8; 20];
        match whole_digits(turn.turn_index, &mut digits) {
            Some(text) => p.lit(text),
            None => p.lit(&show_number(turn.turn_index)),
        };
        p.lit(")");
    }
    p.lit("\n");
}

/// A whole number below 2^53 in decimal, as `show_number` writes it, without formatting
/// machinery (a prompt writes one per turn of its window, every turn); `None` for any other.
fn whole_digits(value: f64, buf: &mut [u8; 20]) -> Option<&str> {
    if !((0.0..9_007_199_254_740_992.0).contains(&value) && value.fract() == 0.0) {
        return None;
    }
    let mut n = value as u64;
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[at..]).ok()
}

fn section(p: &mut Pieces<'_>, heading: &str, text: usize) {
    p.lit(heading).host(text).lit("\n");
}

#[cfg(test)]
#[path = "tests/prompt.rs"]
mod tests;
