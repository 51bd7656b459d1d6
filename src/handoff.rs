//! The summarization handoff's prompt and the refresh turn.

use devs_context_rules::base::frame::Frame;
use devs_context_rules::base::text::is_blank;
use devs_context_rules::seeds::handoff::prompt;
use wasm_bindgen::prelude::*;

use crate::{Out, probes, report};
use devs_context_rules::base::text::split_texts;

/// `[call?, start, end, prompt]` over `[agentId, content0, …]`; see `handoff::prompt`.
#[wasm_bindgen(js_name = handoffPrompt)]
pub fn handoff_prompt(
    turn_indexes: &[f64],
    roles: &str,
    role_lens: &[u32],
    contents: &str,
    content_lens: &[u32],
    start: usize,
) -> Out<String> {
    let mut f = Frame::new();
    report(prompt(
        &mut f,
        turn_indexes,
        &split_texts(roles, role_lens),
        &probes(contents, content_lens, start),
    ))?;
    Ok(f.into_string())
}

/// True when `text` is only whitespace (JS `trim() === ''`): an empty summary.
#[wasm_bindgen(js_name = isBlank)]
pub fn blank(text: &str) -> bool {
    is_blank(text)
}
