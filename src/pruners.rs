//! `ContextPruner` and `ToolOutputPruner`.

use devs_context_rules::seeds::pruner::{
    AgentRole, DEFAULT_SATURATION_RATIO, checked_ratio, prune_prompt, should_prune_checked,
};
use devs_context_rules::seeds::tool_output::{
    check_entry, check_location, should_truncate, summary,
};
use wasm_bindgen::prelude::*;

use crate::{Out, frame, probe, report};
use devs_context_rules::base::text::split_texts;

#[wasm_bindgen(js_name = saturationRatio)]
pub fn saturation_ratio(value: Option<f64>) -> Out<f64> {
    report(checked_ratio("options.saturationRatio", value))
}

/// The ratio the loop guard uses: the pruner's own when it has a valid one.
#[wasm_bindgen(js_name = loopGuardRatio)]
pub fn loop_guard_ratio(value: Option<f64>) -> f64 {
    checked_ratio("saturationRatio", value).unwrap_or(DEFAULT_SATURATION_RATIO)
}

#[wasm_bindgen(js_name = shouldPrune)]
pub fn should_prune(tokens: f64, total_budget: f64, ratio: f64) -> Out<bool> {
    report(should_prune_checked(tokens, total_budget, ratio))
}

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

/// Whether a `ToolOutputEntry`'s numbers pass `checkToolOutput`, without naming a field:
/// the check made on every entry, every turn; the named report comes only on failure.
#[wasm_bindgen(js_name = toolOutputOk)]
pub fn tool_output_ok(byte_size: f64, turn_age: f64, captured_at_ms: f64) -> bool {
    check_entry("", byte_size, turn_age, captured_at_ms).is_ok()
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

#[wasm_bindgen(js_name = checkRawLocation)]
pub fn check_raw_location(len: usize) -> Out<()> {
    report(check_location(len))
}

#[wasm_bindgen(js_name = shouldTruncate)]
pub fn should_truncate_entry(turn_age: f64, byte_size: f64) -> bool {
    should_truncate(turn_age, byte_size)
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
