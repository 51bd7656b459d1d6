//! `AgentRunner`: the seeds wired into one host-agnostic turn loop.
//!
//! A turn: age the pending tool outputs, run `applyContextManagement` (when configured),
//! compose the window, render the prompt, call the LLM, record the response's tokens (and
//! hand off at the threshold), then inject, stamp and log the response's envelope. Every
//! fallible host callback runs before the host's tracker and log are touched, and a
//! failed turn restores the runner and the context, so nothing is half-applied.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Date, JsString, Object, Promise};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use super::handoff::read_role;
use super::js::{self, JsNode, JsResult, js};
use super::management::{Job, agent_turn, shown_text};
use super::monitor::threshold_option;
use super::saop::INVALID_ENVELOPE;
use super::serial::Serial;
use super::text::{cut, js_string};
use super::tokens::Counter;
use super::window::{array, turn_entry};
use crate::js_errors::with_code;
use crate::rules::handoff::context_refresh_content;
use crate::rules::monitor::ThresholdMonitor;
use crate::rules::prompt::{PromptParts, PromptSink, ToolMeta, TurnMeta, render_prompt};
use crate::rules::saop::validate_envelope;

#[wasm_bindgen(raw_module = "../../src/runtime.js")]
extern "C" {
    /// UTF-8 byte length of a JS string, measured in JS.
    #[wasm_bindgen(js_name = utf8Length)]
    fn utf8_length(text: &JsString) -> f64;
}

/// `context.currentObservation` keeps this much of the newest observation; the whole
/// output goes to `pendingToolOutputs`.
const OBSERVATION_CHARS: usize = 4000;

/// Runs an agent turn by turn ([4_USER_FEATURES-REQ-083], seed 002's turn loop).
#[wasm_bindgen]
pub struct AgentRunner {
    config: Rc<Config>,
    state: Rc<RefCell<State>>,
    turns: Serial,
}

struct Config {
    agent_id: String,
    task_goal: JsValue,
    llm: JsValue,
    composer: JsValue,
    handoff: JsValue,
    counter: Counter,
    /// `contextManagement.context` and `.deps`, when given.
    management: Option<(JsValue, JsValue)>,
    tracker: Option<JsValue>,
    log: Option<JsValue>,
    injector: Option<JsValue>,
}

struct State {
    turn_count: u32,
    monitor: ThresholdMonitor,
    /// The whole conversation, as `TurnEntry` objects owned by this runner.
    history: Array,
}

#[wasm_bindgen]
impl AgentRunner {
    /// @throws {TypeError} naming the option that is missing or of the wrong type.
    /// @throws {RangeError} when `thresholdTokens` is not a whole number >= 1.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "AgentRunnerOptions")] options: JsValue,
    ) -> JsResult<AgentRunner> {
        js(js::object("options", &options))?;
        let agent_id = js(js::non_empty_string(
            "options.agentId",
            &js::get(&options, "agentId")?,
        ))?;
        let task_goal = js::get(&options, "taskGoal")?;
        js(js::string("options.taskGoal", &task_goal))?;
        let threshold = threshold_option(
            "options.thresholdTokens",
            js::get(&options, "thresholdTokens")?,
        )?;
        let config = Config {
            agent_id,
            task_goal,
            llm: holder(&options, "llm", &["complete"])?,
            composer: holder(&options, "composer", &["compose"])?,
            handoff: holder(&options, "handoff", &["transfer"])?,
            counter: Counter::from_option(
                js::get(&options, "countTokens")?,
                "options.countTokens",
            )?,
            management: management_option(&options)?,
            tracker: optional_holder(&options, "tracker", &["nextIndex", "attach", "toLogEntry"])?,
            log: optional_holder(&options, "log", &["append"])?,
            injector: optional_holder(&options, "injector", &["injectIfNeeded"])?,
        };
        Ok(Self {
            config: Rc::new(config),
            state: Rc::new(RefCell::new(State {
                turn_count: 0,
                monitor: ThresholdMonitor::new(threshold),
                history: Array::new(),
            })),
            turns: Serial::default(),
        })
    }

    /// Turns completed so far.
    #[wasm_bindgen(getter, js_name = turnCount)]
    pub fn turn_count(&self) -> u32 {
        self.state.borrow().turn_count
    }

    /// Response tokens counted since the last context refresh.
    #[wasm_bindgen(getter, js_name = accumulatedTokens)]
    pub fn accumulated_tokens(&self) -> f64 {
        self.state.borrow().monitor.accumulated()
    }

    /// The conversation so far, oldest first, in a new array.
    #[wasm_bindgen(getter, unchecked_return_type = "TurnEntry[]")]
    pub fn turns(&self) -> Array {
        self.state.borrow().history.slice(0, u32::MAX)
    }

    /// Runs one turn, with `input` (if given) as the user's message. Calls made before
    /// earlier turns finish wait their turn. If any callback fails, the promise rejects
    /// with its error and the runner and its context are left exactly as before the call.
    #[wasm_bindgen(js_name = runTurn, unchecked_return_type = "Promise<AgentTurnResult>")]
    pub fn run_turn(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | undefined")] input: Option<JsValue>,
    ) -> Promise {
        let input = input.unwrap_or_default();
        if !input.is_undefined()
            && let Err(err) = js(js::string("input", &input))
        {
            return Promise::reject(&err);
        }
        let (config, state) = (Rc::clone(&self.config), Rc::clone(&self.state));
        self.turns.run(async move {
            // Turns run one at a time, so nothing else changes the state in between.
            let before = Snapshot::take(&config, &state)?;
            let outcome = run(&config, &state, input).await;
            if outcome.is_err() {
                before.restore(&config, &state);
            }
            outcome
        })
    }
}

/// `options[key]`, an object with `methods`.
fn holder(options: &JsValue, key: &str, methods: &[&str]) -> JsResult<JsValue> {
    let value = js::get(options, key)?;
    js(js::object(&format!("options.{key}"), &value))?;
    for method in methods {
        js::method(&value, method, &format!("options.{key}.{method}"))?;
    }
    Ok(value)
}

fn optional_holder(options: &JsValue, key: &str, methods: &[&str]) -> JsResult<Option<JsValue>> {
    if js::get(options, key)?.is_undefined() {
        return Ok(None);
    }
    holder(options, key, methods).map(Some)
}

fn management_option(options: &JsValue) -> JsResult<Option<(JsValue, JsValue)>> {
    let value = js::get(options, "contextManagement")?;
    if value.is_undefined() {
        return Ok(None);
    }
    js(js::object("options.contextManagement", &value))?;
    let context = js::get(&value, "context")?;
    let deps = js::get(&value, "deps")?;
    // Checked now, so a bad context fails at construction rather than on turn one.
    Job::prepare(context.clone(), &deps)
        .map_err(|err| rename(err, "context", "options.contextManagement.context"))?;
    Ok(Some((context, deps)))
}

/// Prefixes the `field` of a rule error raised for a nested option.
fn rename(err: JsValue, from: &str, to: &str) -> JsValue {
    if let Some(field) = js::get(&err, "field").ok().and_then(|f| f.as_string())
        && let Some(rest) = field.strip_prefix(from)
    {
        js::set(&err, "field", &format!("{to}{rest}").into());
        if let Some(message) = js::get(&err, "message").ok().and_then(|m| m.as_string()) {
            js::set(
                &err,
                "message",
                &message.replacen(&field, &format!("{to}{rest}"), 1).into(),
            );
        }
    }
    err
}

/// What a failed turn must put back.
struct Snapshot {
    turn_count: u32,
    /// A pruning swaps the history array, so the array itself is kept, with its length.
    history: Array,
    history_len: u32,
    accumulated: f64,
    /// The context's replaceable members, as they were.
    context: Vec<(&'static str, JsValue)>,
}

const CONTEXT_MEMBERS: [&str; 5] = [
    "turns",
    "envelopes",
    "pendingToolOutputs",
    "plan",
    "currentObservation",
];

impl Snapshot {
    fn take(config: &Config, state: &Rc<RefCell<State>>) -> JsResult<Self> {
        let context = match &config.management {
            Some((ctx, _)) => CONTEXT_MEMBERS
                .iter()
                .map(|k| Ok((*k, js::get(ctx, k)?)))
                .collect::<JsResult<_>>()?,
            None => Vec::new(),
        };
        let s = state.borrow();
        Ok(Self {
            turn_count: s.turn_count,
            history: s.history.clone(),
            history_len: s.history.length(),
            accumulated: s.monitor.accumulated(),
            context,
        })
    }

    fn restore(self, config: &Config, state: &Rc<RefCell<State>>) {
        if let Some((ctx, _)) = &config.management {
            for (key, value) in &self.context {
                js::set(ctx, key, value);
            }
        }
        let mut s = state.borrow_mut();
        s.turn_count = self.turn_count;
        self.history.set_length(self.history_len);
        s.history = self.history;
        s.monitor.restore(self.accumulated);
    }
}

async fn run(config: &Config, state: &Rc<RefCell<State>>, input: JsValue) -> JsResult<JsValue> {
    let (turn, history) = {
        let s = state.borrow();
        (s.turn_count + 1, s.history.clone())
    };
    // History entries are only ever appended; a pruning swaps the array below.
    let mut history = history;
    if input.is_string() {
        history.push(&turn_entry(turn.into(), &config.agent_id, "user", &input));
        if let Some((ctx, _)) = &config.management {
            append(ctx, "turns", &agent_turn("user", &input))?;
        }
    }

    // Context management, before the prompt is built.
    let mut managed = None;
    if let Some((ctx, deps)) = &config.management {
        age_tool_outputs(ctx)?;
        let applied = Job::prepare(ctx.clone(), deps)?.run().await?;
        if js::get(&applied.result, "prunedOccurred")?.is_truthy() {
            history = history_from(&js::get(ctx, "turns")?, turn, &config.agent_id)?;
            state.borrow_mut().history = history.clone();
        }
        managed = Some(applied);
    }

    let window = js::call_method(
        &config.composer,
        "compose",
        "composer.compose",
        &[
            history.clone().into(),
            config.task_goal.clone(),
            turn.into(),
        ],
    )?;
    let (prompt, window_turns) =
        build_prompt(config, &window, managed.as_ref().map(|m| &m.composed))?;

    let request = Object::new();
    js::set(&request, "agentId", &config.agent_id.as_str().into());
    js::set(&request, "turnIndex", &turn.into());
    js::set(&request, "prompt", &prompt);
    js::set(&request, "window", &window);
    let response = js::settle(js::call_method(
        &config.llm,
        "complete",
        "llm.complete",
        &[request.into()],
    )?)
    .await?;
    js(js::object("llm.complete()", &response))?;
    let text = js::get(&response, "text")?;
    let tokens = config.counter.count(&text, "llm.complete().text")?;
    let envelope = js::get(&response, "envelope")?;
    if !envelope.is_undefined() && !envelope.is_null() {
        validate_envelope(&JsNode(envelope.clone())).map_err(|mut err| {
            err.field = format!("llm.complete().envelope.{}", err.field)
                .replace(".envelope.envelope", ".envelope");
            with_code(err, INVALID_ENVELOPE)
        })?;
    }
    history.push(&turn_entry(
        turn.into(),
        &config.agent_id,
        "assistant",
        &text,
    ));
    if let Some((ctx, _)) = &config.management {
        append(ctx, "turns", &agent_turn("model", &text))?;
    }

    // The threshold, and the handoff it triggers.
    let crossing = js(state.borrow_mut().monitor.record(tokens))?;
    let mut refresh = JsValue::NULL;
    if crossing.is_some() {
        let recent = recent_turns(&history, window_turns);
        let summary = js::settle(js::call_method(
            &config.handoff,
            "transfer",
            "handoff.transfer",
            &[config.agent_id.as_str().into(), recent.into()],
        )?)
        .await?;
        if !summary.is_null() && !summary.is_undefined() {
            let text = js(js::string(
                "handoff.transfer().summaryText",
                &js::get(&summary, "summaryText")?,
            ))?;
            // Appended without recording: the summary's tokens bypass the monitor.
            history.push(&turn_entry(
                turn.into(),
                &config.agent_id,
                "user",
                &JsValue::from(context_refresh_content(&text)),
            ));
            refresh = summary;
        }
    }

    // The envelope: inject (may call the host's summary provider), then stamp and log.
    let mut stamped = JsValue::NULL;
    if !envelope.is_undefined() && !envelope.is_null() {
        let mut current = envelope;
        if let Some(injector) = &config.injector {
            let pending = js::call_method(
                injector,
                "injectIfNeeded",
                "injector.injectIfNeeded",
                &[current, turn.into()],
            )?;
            current = js::settle(pending).await?;
        }
        if let Some(tracker) = &config.tracker {
            js::call_method(tracker, "nextIndex", "tracker.nextIndex", &[])?;
            current = js::call_method(tracker, "attach", "tracker.attach", &[current])?;
            if let Some(log) = &config.log {
                let entry = js::call_method(tracker, "toLogEntry", "tracker.toLogEntry", &[])?;
                js::call_method(log, "append", "log.append", &[entry])?;
            }
        }
        if let Some((ctx, _)) = &config.management {
            record_envelope(ctx, &current)?;
        }
        stamped = current;
    }
    state.borrow_mut().turn_count = turn;

    let result = Object::new();
    js::set(&result, "turnIndex", &turn.into());
    js::set(&result, "response", &response);
    js::set(&result, "window", &window);
    js::set(&result, "tokensRecorded", &tokens.into());
    js::set(&result, "contextRefresh", &refresh);
    js::set(&result, "envelope", &stamped);
    js::set(
        &result,
        "contextManagement",
        &managed.map_or(JsValue::NULL, |m| m.result),
    );
    Ok(result.into())
}

/// `context[key] = [...context[key], value]`: a new array, never the host's mutated.
fn append(ctx: &JsValue, key: &str, value: &JsValue) -> JsResult<()> {
    let current: Array = js::get(ctx, key)?.unchecked_into();
    js::set(ctx, key, &current.concat(&Array::of1(value)));
    Ok(())
}

/// One turn older: whole outputs get a copy with `turnAge + 1`; truncated ones stay.
fn age_tool_outputs(ctx: &JsValue) -> JsResult<()> {
    let outputs: Array = js::get(ctx, "pendingToolOutputs")?.unchecked_into();
    let aged: Array = outputs
        .iter()
        .map(|entry| {
            let age = js::get(&entry, "turnAge")?;
            match age.as_f64() {
                Some(n) => {
                    let copy = js::shallow_copy(&entry);
                    js::set(&copy, "turnAge", &(n + 1.0).into());
                    Ok(copy.into())
                }
                None => Ok(entry),
            }
        })
        .collect::<JsResult<_>>()?;
    js::set(ctx, "pendingToolOutputs", &aged);
    Ok(())
}

/// Keeps the envelope, its plan and observation, and its output as a pending tool output.
/// The context's copy of the envelope holds only the head of a long output, so the whole
/// output is in the window once, under Tool outputs, where it is persisted and truncated.
fn record_envelope(ctx: &JsValue, envelope: &JsValue) -> JsResult<()> {
    let thought = js::get(envelope, "thought")?;
    js::set(ctx, "plan", &js::get(&thought, "plan")?);
    let observation = js::get(envelope, "observation")?;
    let output = js_string(
        "envelope.observation.output",
        &js::get(&observation, "output")?,
    )?;
    let status = js::get(&observation, "status")?
        .as_string()
        .unwrap_or_default();
    let tool_name = js::get(&js::get(envelope, "action")?, "tool_name")?;
    let (head, long) = cut(&output, OBSERVATION_CHARS, false);
    js::set(
        ctx,
        "currentObservation",
        &JsString::from(format!("{status}: ")).concat(&head),
    );
    if long {
        let note = format!(
            "\n[{} more characters: the whole output is under Tool outputs]",
            output.length() - head.length()
        );
        let obs = js::shallow_copy(&observation);
        js::set(&obs, "output", &head.concat(&note.into()));
        let kept = js::shallow_copy(envelope);
        js::set(&kept, "observation", &obs);
        append(ctx, "envelopes", &kept.into())?;
    } else {
        append(ctx, "envelopes", envelope)?;
    }
    if output.length() > 0 {
        let entry = Object::new();
        js::set(&entry, "toolName", &tool_name);
        js::set(&entry, "rawContent", &output);
        js::set(&entry, "byteSize", &utf8_length(&output).into());
        js::set(&entry, "turnAge", &0.into());
        js::set(&entry, "capturedAt", &Date::now().into());
        append(ctx, "pendingToolOutputs", &entry.into())?;
    }
    Ok(())
}

/// After a pruning, the runner's history restarts from the pruned turns.
fn history_from(turns: &JsValue, turn: u32, agent_id: &str) -> JsResult<Array> {
    let turns: Array = js(array("context.turns", turns))?;
    turns
        .iter()
        .map(|t| {
            let role = if js::get(&t, "role")?.as_string().as_deref() == Some("model") {
                "assistant"
            } else {
                "user"
            };
            Ok(turn_entry(
                turn.into(),
                agent_id,
                role,
                &js::get(&t, "content")?,
            ))
        })
        .collect()
}

/// The prompt, assembled by concatenating JS strings: no text is copied into wasm. Also
/// returns how many turns the window holds, which the handoff needs.
fn build_prompt(
    config: &Config,
    window: &JsValue,
    composed: Option<&JsValue>,
) -> JsResult<(JsString, usize)> {
    let field = "composer.compose().turns";
    js(js::object("composer.compose()", window))?;
    let turns = js(array(field, &js::get(window, "turns")?))?;
    let mut texts: Vec<JsString> = Vec::new();
    let mut push = |text: JsString| {
        texts.push(text);
        texts.len() - 1
    };

    let (goal, map, recent_past) = match composed {
        Some(composed) => {
            let slots: Array = js(array(
                "composer.compose().slots",
                &js::get(composed, "slots")?,
            ))?;
            let slot =
                |i: u32| js_string("composed slot content", &js::get(&slots.get(i), "content")?);
            (push(slot(0)?), Some(push(slot(1)?)), Some(push(slot(2)?)))
        }
        None => (push(js_string("taskGoal", &config.task_goal)?), None, None),
    };

    let mut roles = Vec::with_capacity(turns.length() as usize);
    for (i, turn) in turns.iter().enumerate() {
        let at = format!("{field}[{i}]");
        let role = read_role(&at, &turn)?;
        let turn_index = js(js::number(
            &format!("{at}.turnIndex"),
            &js::get(&turn, "turnIndex")?,
        ))?;
        let content = push(js_string(
            &format!("{at}.content"),
            &js::get(&turn, "content")?,
        )?);
        roles.push((role.name(), turn_index, content));
    }
    let metas: Vec<TurnMeta> = roles
        .iter()
        .map(|&(role, turn_index, content)| TurnMeta {
            turn_index,
            role,
            content,
        })
        .collect();

    let mut tools = Vec::new();
    if let Some((ctx, _)) = &config.management {
        let outputs: Array = js::get(ctx, "pendingToolOutputs")?.unchecked_into();
        for output in outputs.iter() {
            let name = js::get(&output, "toolName")?
                .as_string()
                .unwrap_or_default();
            let shown = shown_text(&output)?;
            tools.push((
                name,
                push(js_string("pendingToolOutputs[].rawContent", &shown)?),
            ));
        }
    }
    let tool_metas: Vec<ToolMeta> = tools
        .iter()
        .map(|(name, content)| ToolMeta {
            tool_name: name,
            content: *content,
        })
        .collect();

    let parts = PromptParts {
        goal,
        map,
        recent_past,
        turns: &metas,
        tool_outputs: &tool_metas,
    };
    let mut sink = JsSink {
        texts: &texts,
        out: JsString::from(""),
        pending: String::new(),
    };
    render_prompt(&parts, &mut sink);
    Ok((sink.out.concat(&JsString::from(sink.pending)), metas.len()))
}

/// A prompt sink that concatenates JS strings; the rule's own text is flushed in runs.
struct JsSink<'a> {
    texts: &'a [JsString],
    out: JsString,
    pending: String,
}

impl PromptSink for JsSink<'_> {
    fn text(&mut self, text: &str) {
        self.pending.push_str(text);
    }
    fn content(&mut self, index: usize) {
        let pending = JsString::from(std::mem::take(&mut self.pending));
        self.out = self.out.concat(&pending).concat(&self.texts[index]);
    }
}

/// The newest `count` turns of the conversation, this turn's response included.
fn recent_turns(history: &Array, count: usize) -> Array {
    let len = history.length();
    history.slice(len.saturating_sub(count.max(1) as u32), len)
}
