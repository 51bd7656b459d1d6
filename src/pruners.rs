//! `ContextPruner` and `ToolOutputPruner`.

use devs_context_rules::seeds::pruner::{AgentRole, prune_prompt};
use devs_context_rules::seeds::tool_output::{check_entry, summary};
use wasm_bindgen::prelude::*;

use crate::{Out, frame, probe, report};
use devs_context_rules::base::text::split_texts;

/// The pruner's prompt over `[plan, tas, currentObservation, content0, …]`.
#[wasm_bindgen(js_name = prunePrompt)]
pub fn prune_prompt_text(roles: &str, role_lens: &[u32]) -> Out<String> {
    let roles = report(AgentRole::all_checked(
        "turns",
        &split_texts(roles, role_lens),
    ))?;
    Ok(frame(|f| {
        f.text(|p| prune_prompt(p, &roles));
    }))
}

/// `shouldTruncate` for many entries: 1 due, 0 not, 2 invalid (see `tool_output::due_all`).
#[wasm_bindgen(js_name = toolOutputsDue)]
pub fn tool_outputs_due(byte_sizes: &[f64], turn_ages: &[f64], captured_at_ms: &[f64]) -> Vec<u8> {
    devs_context_rules::seeds::tool_output::due_all(byte_sizes, turn_ages, captured_at_ms)
}

#[wasm_bindgen(js_name = checkToolOutput)]
pub fn check_tool_output(
    field: &str,
    byte_size: f64,
    turn_age: f64,
    captured_at_ms: f64,
) -> Out<()> {
    report(check_entry(field, byte_size, turn_age, captured_at_ms))
}

/// The truncated summary over `[rawContent, toolName, location?]`.
#[wasm_bindgen(js_name = truncationSummary)]
pub fn truncation_summary(
    window: &str,
    start: usize,
    byte_size: f64,
    host_location: bool,
) -> String {
    let probe = probe(window, start);
    frame(|f| {
        f.text(|p| summary(p, &probe, byte_size, host_location));
    })
}
