//! The options' compatibility key, as the rules write it (`context::config_key`): the
//! shell stores it with every snapshot and session, and restores only under the same.

use devs_context_rules::base::text::split_texts;
use devs_context_rules::context::config_key::{KeyOptions, config_key as key};
use wasm_bindgen::prelude::*;

/// `protected`: the protected tools' names joined, with their UTF-16 lengths in `lens`.
#[allow(clippy::too_many_arguments)]
#[wasm_bindgen(js_name = configKey)]
pub fn config_key(
    budget: f64,
    shares: &[f64],
    system_tokens: f64,
    pinned_tokens: f64,
    cache_control: bool,
    recall: bool,
    protected: &str,
    lens: &[u32],
) -> String {
    let tools = split_texts(protected, lens);
    key(&KeyOptions {
        budget,
        shares,
        system_tokens,
        pinned_tokens,
        cache_control,
        recall,
        protected_tools: &tools,
    })
}
