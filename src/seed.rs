//! The seeds' free rules over numbers, one crossing for any of them (`seeds::ops::SeedFn`).

use devs_context_rules::base::args::non_negative;
use devs_context_rules::base::tokens::approx_tokens;
use devs_context_rules::seeds::ops::SeedFn;
use devs_context_rules::seeds::pruner::{
    DEFAULT_SATURATION_RATIO, checked_ratio, should_prune_checked,
};
use devs_context_rules::seeds::runner;
use devs_context_rules::seeds::tool_output::{check_entry, check_location, should_truncate};
use devs_context_rules::seeds::window::{spec_due, window_start};
use wasm_bindgen::prelude::*;

use crate::monitor::checked_count;
use crate::{Out, report};

/// A rule of `SeedFn`'s over `a`, `b`, `c` (what each takes is written beside its code);
/// a yes or no comes back as 1 or 0.
#[wasm_bindgen]
pub fn seed(op: u8, a: f64, b: f64, c: f64) -> Out<f64> {
    let yes = |y: bool| f64::from(u8::from(y));
    let given = (b == 1.0).then_some(a);
    Ok(match crate::op("seed", SeedFn::from_code(op))? {
        SeedFn::ApproxTokens => approx_tokens(a as usize) as f64,
        SeedFn::CheckedCount => checked_count(a)?,
        SeedFn::CheckInputTokens => report(non_negative("llm.complete().usage.inputTokens", a))?,
        SeedFn::SaturationRatio => report(checked_ratio("options.saturationRatio", given))?,
        SeedFn::LoopGuardRatio => {
            checked_ratio("saturationRatio", given).unwrap_or(DEFAULT_SATURATION_RATIO)
        }
        SeedFn::ShouldPrune => yes(report(should_prune_checked(a, b, c))?),
        SeedFn::ToolOutputOk => yes(check_entry("", a, b, c).is_ok()),
        SeedFn::CheckRawLocation => {
            report(check_location(a as usize))?;
            0.0
        }
        SeedFn::ShouldTruncate => yes(should_truncate(a, b)),
        SeedFn::SpecDue => yes(report(spec_due(a))?),
        SeedFn::WindowStart => window_start(a as usize, b as usize) as f64,
        SeedFn::ComposePlan => {
            let start = window_start(a as usize, b as usize) as f64;
            if report(spec_due(c))? {
                -(start + 1.0)
            } else {
                start
            }
        }
        SeedFn::RecentStart => runner::recent_start(a as usize, b as usize) as f64,
    })
}
