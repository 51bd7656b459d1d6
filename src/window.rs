//! Seed 001: the sliding window and the spec refresh.

use devs_context_rules::seeds::window::{check_specs, injection, max_turns};
use wasm_bindgen::prelude::*;

use crate::{Out, frame, probes, report};
use devs_context_rules::base::text::Probe;
use devs_context_rules::base::text::split_batch;

/// `maxTurns` (`undefined`: 20), checked under `field`.
#[wasm_bindgen(js_name = maxTurns)]
pub fn max_turns_of(field: &str, value: Option<f64>) -> Out<usize> {
    report(max_turns(field, value))
}

/// The `[SPEC REFRESH]` text over `[name0, content0, name1, …]`, from content probes.
#[wasm_bindgen(js_name = specInjection)]
pub fn spec_injection(joined: &str, lens: &[u32], start: usize) -> String {
    let probes = probes(joined, lens, start);
    frame(|f| {
        f.text(|p| injection(p, &probes));
    })
}

/// A composer's documents, whole: checked, then their injection text.
#[wasm_bindgen(js_name = composerSpecs)]
pub fn composer_specs(field: &str, contents: &str, lens: &[u32]) -> Out<String> {
    let contents = split_batch(contents, lens);
    report(check_specs(field, &contents))?;
    let whole: Vec<Probe> = contents.into_iter().map(Probe::from).collect();
    Ok(frame(|f| {
        f.text(|p| injection(p, &whole));
    }))
}
