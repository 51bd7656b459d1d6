//! `ContextPruner` ([3_MCP-TAS-024]): at 90% of the budget the turns are summarized, with
//! the Plan, the TAS and the failing Observation kept verbatim.

use super::args::FieldError;

pub const DEFAULT_SATURATION_RATIO: f64 = 0.90;

pub fn checked_ratio(field: &str, value: f64) -> Result<f64, FieldError> {
    if value.is_finite() && value > 0.0 && value <= 1.0 {
        Ok(value)
    } else {
        Err(FieldError::range_error(
            field,
            format!("must be in (0, 1], got {}", super::args::show_number(value)),
        ))
    }
}

/// The token count at which pruning starts.
pub fn saturation_point(total_budget: f64, ratio: f64) -> f64 {
    total_budget * ratio
}

pub fn should_prune(tokens: f64, total_budget: f64, ratio: f64) -> bool {
    tokens >= saturation_point(total_budget, ratio)
}

/// The summarizer prompt. The three sections to keep are given in full and named twice:
/// in the instruction and in their headings.
pub fn prune_prompt(
    turns: &[(&str, &str)],
    plan: &str,
    tas: &str,
    current_observation: &str,
) -> String {
    let body: usize = turns.iter().map(|(_, c)| c.len() + 16).sum();
    let mut prompt =
        String::with_capacity(body + plan.len() + tas.len() + current_observation.len() + 1024);
    prompt.push_str(
        "You are compressing the context of a coding agent that is running out of room.\n\
         Summarize the conversation turns below into a short account of what was tried, what \
         was learned and what remains to do.\n\
         Keep these three sections VERBATIM, character for character, at the top of your \
         summary: the Plan, the TAS, and the current failing Observation. Do not shorten, \
         paraphrase or reorder them.\n\n",
    );
    for (heading, text) in [
        ("Plan", plan),
        ("TAS", tas),
        ("Current failing Observation", current_observation),
    ] {
        prompt.push_str(&format!("## {heading} (keep verbatim)\n{text}\n\n"));
    }
    prompt.push_str("## Turns to summarize\n");
    for (role, content) in turns {
        prompt.push_str(&format!("\n[{role}]\n{content}\n"));
    }
    prompt
}

/// The loop guard's deterministic cut: the first turn to keep so that the newest turns
/// stay under `limit` tokens. A `user` turn right after a `model` turn is a tool result
/// answering that call, so the cut never falls between them.
/// Returns `turns.len()` when not even the newest turn (or pair) fits whole.
pub fn fallback_start(roles_and_tokens: &[(&str, f64)], limit: f64) -> usize {
    let n = roles_and_tokens.len();
    let mut used = 0.0;
    let mut start = n;
    while start > 0 && used + roles_and_tokens[start - 1].1 < limit {
        used += roles_and_tokens[start - 1].1;
        start -= 1;
    }
    if start > 0 && start < n && splits_pair(roles_and_tokens, start) {
        start += 1;
    }
    start
}

/// True when keeping `turns[start..]` would keep a tool result without its call.
pub fn splits_pair(turns: &[(&str, f64)], start: usize) -> bool {
    start > 0 && turns[start].0 == "user" && turns[start - 1].0 == "model"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prunes_at_ninety_percent() {
        assert!(!should_prune(719_999.0, 800_000.0, 0.9));
        assert!(should_prune(720_000.0, 800_000.0, 0.9));
        assert!(checked_ratio("r", 0.0).is_err());
        assert!(checked_ratio("r", 1.5).is_err());
    }

    #[test]
    fn the_prompt_keeps_plan_tas_and_observation_verbatim() {
        let p = prune_prompt(
            &[("user", "hi"), ("model", "ok")],
            "PLAN-1",
            "TAS-2",
            "FAIL-3",
        );
        assert!(p.contains("VERBATIM"));
        assert!(p.contains("## Plan (keep verbatim)\nPLAN-1\n"));
        assert!(p.contains("## TAS (keep verbatim)\nTAS-2\n"));
        assert!(p.contains("## Current failing Observation (keep verbatim)\nFAIL-3\n"));
        assert!(p.ends_with("\n[user]\nhi\n\n[model]\nok\n"));
    }

    #[test]
    fn fallback_keeps_the_newest_turns_under_the_limit() {
        let turns = [
            ("user", 50.0),
            ("model", 30.0),
            ("model", 30.0),
            ("model", 30.0),
        ];
        assert_eq!(fallback_start(&turns, 100.0), 1);
        assert_eq!(fallback_start(&turns, 61.0), 2);
        assert_eq!(fallback_start(&turns, 10.0), 4);
    }

    #[test]
    fn fallback_never_keeps_a_tool_result_without_its_call() {
        // model (call) → user (result): a cut that would start at the result skips it.
        let turns = [
            ("user", 10.0),
            ("model", 40.0),
            ("user", 40.0),
            ("model", 10.0),
        ];
        assert_eq!(fallback_start(&turns, 60.0), 3);
        assert!(splits_pair(&turns, 2));
        assert!(!splits_pair(&turns, 1));
    }
}
