//! `applyContextManagement` (seed 002): run on every turn, in a fixed order: count the
//! turns' tokens, compose the window, prune if needed, persist then truncate each large
//! tool output, then recount. Nothing the caller passed in is mutated: on success
//! `context.turns` and `context.pendingToolOutputs` are replaced with new arrays, and on
//! failure the context is left exactly as it was.

use js_sys::{Array, Date, JsString, Object, Promise, WeakSet};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::js::{self, JsResult, js};
use super::pruners::agent_role;
use super::text::{cut, js_string};
use super::tokens::Counter;
use super::window::array;
use crate::rules::pruner::{
    DEFAULT_SATURATION_RATIO, fallback_start, saturation_point, splits_pair,
};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = warn)]
    fn console_warn(message: &str);
}

thread_local! {
    // Summary turns this module made: a context holding only one of them is already
    // pruned, whatever a host's `shouldPrune` says, so a second call never prunes again.
    static SUMMARY_TURNS: WeakSet = WeakSet::new();
}

/// Runs the seed's context management on `context`.
#[wasm_bindgen(js_name = applyContextManagement, unchecked_return_type = "Promise<AppliedContextResult>")]
pub fn apply_context_management(
    #[wasm_bindgen(unchecked_param_type = "OrchestratorContext")] context: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ContextManagementDeps")] deps: JsValue,
) -> Promise {
    match Job::prepare(context, &deps) {
        Ok(job) => future_to_promise(async move { Ok(job.run().await?.result) }),
        Err(err) => Promise::reject(&err),
    }
}

/// What one run produced: the seed's result and, for the runner, the composed window.
pub struct Applied {
    pub result: JsValue,
    pub composed: JsValue,
}

/// One checked call of `applyContextManagement`.
pub struct Job {
    context: JsValue,
    turns: Array,
    outputs: Array,
    budget: JsValue,
    total_budget: f64,
    composer: JsValue,
    pruner: JsValue,
    tool_pruner: JsValue,
    repo: JsValue,
    logger: JsValue,
    counter: Counter,
}

impl Job {
    pub fn prepare(context: JsValue, deps: &JsValue) -> JsResult<Job> {
        js(js::object("context", &context))?;
        js(js::object("deps", deps))?;
        let turns = js(array("context.turns", &js::get(&context, "turns")?))?;
        let outputs = js(array(
            "context.pendingToolOutputs",
            &js::get(&context, "pendingToolOutputs")?,
        ))?;
        js(array("context.envelopes", &js::get(&context, "envelopes")?))?;
        for key in ["goal", "map", "plan", "tas", "currentObservation"] {
            js(js::string(
                &format!("context.{key}"),
                &js::get(&context, key)?,
            ))?;
        }
        let budget = js::get(&context, "budget")?;
        let total_budget = super::budget::read_total_budget("context.budget", &budget)?;
        let member = |key: &str, methods: &[&str]| -> JsResult<JsValue> {
            let value = js::get(deps, key)?;
            js(js::object(&format!("deps.{key}"), &value))?;
            for method in methods {
                js::method(&value, method, &format!("deps.{key}.{method}"))?;
            }
            Ok(value)
        };
        let logger = js::get(deps, "logger")?;
        if !logger.is_undefined() {
            js(js::object("deps.logger", &logger))?;
            js::method(&logger, "warn", "deps.logger.warn")?;
        }
        Ok(Job {
            composer: member("composer", &["compose"])?,
            pruner: member("pruner", &["shouldPrune", "prune"])?,
            tool_pruner: member(
                "toolOutputPruner",
                &["shouldTruncate", "persistRaw", "truncate"],
            )?,
            repo: member("stateRepository", &[])?,
            counter: Counter::from_option(js::get(deps, "countTokens")?, "deps.countTokens")?,
            logger,
            context,
            turns,
            outputs,
            budget,
            total_budget,
        })
    }

    pub async fn run(self) -> JsResult<Applied> {
        // (1) count
        let current = self.count_turns(&self.turns, "context.turns")?;
        // (2) compose
        let composed =
            js::settle(self.call(&self.composer, "compose", &["goal", "map", "envelopes"])?)
                .await?;
        js(js::object("composer.compose()", &composed))?;
        // (3) prune if needed
        let (turns, pruned) = self.prune(current).await?;
        // (4) persist, then truncate
        let (outputs, truncated) = self.truncate_outputs().await?;
        // (5) recount from the final window
        // Unpruned turns are the ones counted in step (1).
        let turn_tokens = if pruned {
            self.count_turns(&turns, "context.turns")?
        } else {
            current
        };
        let used = js(js::number(
            "composer.compose().totalTokensUsed",
            &js::get(&composed, "totalTokensUsed")?,
        ))? + turn_tokens
            + self.count_outputs(&outputs)?;

        js::set(&self.context, "turns", &turns);
        js::set(&self.context, "pendingToolOutputs", &outputs);
        let result = Object::new();
        js::set(&result, "windowUsedTokens", &used.into());
        js::set(&result, "prunedOccurred", &pruned.into());
        js::set(&result, "truncatedOutputCount", &(truncated as f64).into());
        Ok(Applied {
            result: result.into(),
            composed,
        })
    }

    fn call(&self, target: &JsValue, method: &str, context_keys: &[&str]) -> JsResult<JsValue> {
        let args: Vec<JsValue> = context_keys
            .iter()
            .map(|k| js::get(&self.context, k))
            .collect::<JsResult<_>>()?;
        js::call_method(target, method, &format!("deps.{method}"), &args)
    }

    fn count_turns(&self, turns: &Array, field: &str) -> JsResult<f64> {
        Ok(self
            .counter
            .count_each(turns, "content", field)?
            .iter()
            .sum())
    }

    fn count_outputs(&self, outputs: &Array) -> JsResult<f64> {
        let mut total = 0.0;
        for (i, output) in outputs.iter().enumerate() {
            let text = shown_text(&output)?;
            total += self.counter.count(
                &text,
                &format!("context.pendingToolOutputs[{i}].rawContent"),
            )?;
        }
        Ok(total)
    }

    async fn prune(&self, current: f64) -> JsResult<(Array, bool)> {
        let copy = self.turns.slice(0, self.turns.length());
        if already_pruned(&self.turns) {
            return Ok((copy, false));
        }
        let due = js::call_method(
            &self.pruner,
            "shouldPrune",
            "deps.pruner.shouldPrune",
            &[current.into(), self.budget.clone()],
        )?;
        if !js::settle(due).await?.is_truthy() {
            return Ok((copy, false));
        }
        let pruned = js::settle(self.call(
            &self.pruner,
            "prune",
            &["turns", "plan", "tas", "currentObservation"],
        )?)
        .await?;
        js(js::object("pruner.prune()", &pruned))?;
        let summary = js_string("pruner.prune().summary", &js::get(&pruned, "summary")?)?;
        let limit = saturation_point(self.total_budget, self.ratio()?);
        let summary_tokens = self.counter.count(&summary, "pruner.prune().summary")?;
        if summary_tokens < limit {
            let turn = agent_turn("user", &summary);
            SUMMARY_TURNS.with(|set| set.add(turn.unchecked_ref()));
            return Ok((Array::of1(&turn), true));
        }
        // Loop guard: a summary this large would be pruned again on the very next turn.
        let kept = self.newest_within(limit)?;
        self.warn(&format!(
            "applyContextManagement: the summary is {summary_tokens} tokens, at or above the saturation point of {limit}; \
             kept the newest {} of {} turns instead",
            kept.length(),
            self.turns.length()
        ))?;
        Ok((kept, true))
    }

    /// The pruner's saturation ratio when it exposes one (ours does), else the default.
    fn ratio(&self) -> JsResult<f64> {
        Ok(js::get(&self.pruner, "saturationRatio")?
            .as_f64()
            .filter(|r| *r > 0.0 && *r <= 1.0)
            .unwrap_or(DEFAULT_SATURATION_RATIO))
    }

    /// The deterministic cut: the newest turns under `limit` tokens, never keeping a tool
    /// result without its call. If not even the newest turn fits, it is kept cut down.
    fn newest_within(&self, limit: f64) -> JsResult<Array> {
        let mut roles_tokens = Vec::with_capacity(self.turns.length() as usize);
        for (i, turn) in self.turns.iter().enumerate() {
            let at = format!("context.turns[{i}]");
            let tokens = self
                .counter
                .count(&js::get(&turn, "content")?, &format!("{at}.content"))?;
            roles_tokens.push((agent_role(&at, &turn)?, tokens));
        }
        let view: Vec<(&str, f64)> = roles_tokens.iter().map(|(r, t)| (r.as_str(), *t)).collect();
        let n = view.len();
        let start = fallback_start(&view, limit);
        if start < n {
            return Ok(self.turns.slice(start as u32, n as u32));
        }
        // Nothing fits whole: keep the newest turn, or the newest call/result pair, cut.
        let first = if n >= 2 && splits_pair(&view, n - 1) {
            n - 2
        } else {
            n.saturating_sub(1)
        };
        let share = (((limit - 1.0).max(0.0) * 4.0) as usize) / (n - first).max(1);
        let kept = Array::new();
        for turn in self.turns.slice(first as u32, n as u32).iter() {
            let content: JsString = js::get(&turn, "content")?.unchecked_into();
            let copy = js::shallow_copy(&turn);
            js::set(&copy, "content", &cut(&content, share, true).0);
            kept.push(&copy);
        }
        Ok(kept)
    }

    async fn truncate_outputs(&self) -> JsResult<(Array, usize)> {
        let out = Array::new();
        let mut truncated = 0;
        for entry in self.outputs.iter() {
            if is_truncated(&entry)? {
                // Already a `TruncatedToolOutput`: nothing left to persist or cut.
                out.push(&entry);
                continue;
            }
            let due = js::call_method(
                &self.tool_pruner,
                "shouldTruncate",
                "deps.toolOutputPruner.shouldTruncate",
                std::slice::from_ref(&entry),
            )?;
            if !js::settle(due).await?.is_truthy() {
                out.push(&entry);
                continue;
            }
            let persisted = js::call_method(
                &self.tool_pruner,
                "persistRaw",
                "deps.toolOutputPruner.persistRaw",
                &[entry.clone(), self.repo.clone()],
            );
            let persisted = match persisted {
                Ok(pending) => js::settle(pending).await,
                Err(err) => Err(err),
            };
            if let Err(err) = persisted {
                // Nothing lost: without a stored raw copy the output stays whole.
                let tool = js::get(&entry, "toolName")?
                    .as_string()
                    .unwrap_or_else(|| "(unnamed tool)".into());
                self.warn(&format!(
                    "applyContextManagement: persistRaw failed for tool {tool}; its output stays whole in the context ({})",
                    error_text(&err)
                ))?;
                out.push(&entry);
                continue;
            }
            let small = js::call_method(
                &self.tool_pruner,
                "truncate",
                "deps.toolOutputPruner.truncate",
                &[entry],
            )?;
            out.push(&js::settle(small).await?);
            truncated += 1;
        }
        Ok((out, truncated))
    }

    fn warn(&self, message: &str) -> JsResult<()> {
        if self.logger.is_undefined() {
            console_warn(message);
            Ok(())
        } else {
            js::call_method(&self.logger, "warn", "deps.logger.warn", &[message.into()]).map(drop)
        }
    }
}

/// An `AgentTurn` created now.
pub fn agent_turn(role: &str, content: &JsValue) -> JsValue {
    let turn = Object::new();
    js::set(&turn, "role", &role.into());
    js::set(&turn, "content", content);
    js::set(&turn, "timestampMs", &Date::now().into());
    turn.into()
}

/// What a pending tool output shows: a truncated output its `summary`, a whole one its
/// `rawContent`.
pub fn shown_text(output: &JsValue) -> JsResult<JsValue> {
    match js::get(output, "summary")? {
        summary if summary.is_string() => Ok(summary),
        _ => js::get(output, "rawContent"),
    }
}

fn is_truncated(entry: &JsValue) -> JsResult<bool> {
    Ok(js::get(entry, "summary")?.is_string() && js::get(entry, "rawContent")?.is_undefined())
}

fn already_pruned(turns: &Array) -> bool {
    turns.length() == 1 && SUMMARY_TURNS.with(|set| set.has(&turns.get(0).unchecked_into()))
}

fn error_text(err: &JsValue) -> String {
    js::get(err, "message")
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| err.as_string())
        .unwrap_or_else(|| js::describe(err))
}
