//! `AgentRunner`: seeds 001 and 003 wired into one host-agnostic turn loop.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Date, JsString, Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::handoff::read_role;
use super::js::{self, js, JsResult};
use super::monitor::threshold_option;
use super::serial::Serial;
use super::tokens::Counter;
use super::window::array;
use crate::rules::args::FieldError;
use crate::rules::handoff::context_refresh_content;
use crate::rules::monitor::ThresholdMonitor;
use crate::rules::prompt::{render_prompt, PromptSink, TurnMeta};

/// Runs an agent turn by turn: compose the window, call the LLM, count the response's
/// tokens, and at the threshold hand the recent turns to the summarizer and re-inject the
/// summary as a `[CONTEXT REFRESH]` user turn (whose tokens bypass the monitor).
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
        let llm = method_holder(&options, "llm", "complete")?;
        let composer = method_holder(&options, "composer", "compose")?;
        let handoff = method_holder(&options, "handoff", "transfer")?;
        let threshold = threshold_option(
            "options.thresholdTokens",
            js::get(&options, "thresholdTokens")?,
        )?;
        let counter =
            Counter::from_option(js::get(&options, "countTokens")?, "options.countTokens")?;
        Ok(Self {
            config: Rc::new(Config {
                agent_id,
                task_goal,
                llm,
                composer,
                handoff,
                counter,
            }),
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
    /// with its error and the runner is left exactly as before the call.
    #[wasm_bindgen(js_name = runTurn, unchecked_return_type = "Promise<AgentTurnResult>")]
    pub fn run_turn(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | undefined")] input: Option<JsValue>,
    ) -> Promise {
        let input = input.unwrap_or_default();
        if !input.is_undefined() {
            if let Err(err) = js(js::string("input", &input)) {
                return Promise::reject(&err);
            }
        }
        let (config, state) = (Rc::clone(&self.config), Rc::clone(&self.state));
        self.turns.run(async move {
            // Turns run one at a time, so nothing else changes the state in between.
            let before = Snapshot::take(&state);
            let outcome = run(&config, &state, input).await;
            if outcome.is_err() {
                before.restore(&state);
            }
            outcome
        })
    }
}

fn method_holder(options: &JsValue, key: &str, method: &str) -> JsResult<JsValue> {
    let value = js::get(options, key)?;
    js(js::object(&format!("options.{key}"), &value))?;
    js::method(&value, method, &format!("options.{key}.{method}"))?;
    Ok(value)
}

/// What a failed turn must put back.
struct Snapshot {
    turn_count: u32,
    history_len: u32,
    accumulated: f64,
}

impl Snapshot {
    fn take(state: &Rc<RefCell<State>>) -> Self {
        let s = state.borrow();
        Self {
            turn_count: s.turn_count,
            history_len: s.history.length(),
            accumulated: s.monitor.accumulated(),
        }
    }

    fn restore(self, state: &Rc<RefCell<State>>) {
        let mut s = state.borrow_mut();
        s.turn_count = self.turn_count;
        s.history.set_length(self.history_len);
        s.monitor.restore(self.accumulated);
    }
}

async fn run(config: &Config, state: &Rc<RefCell<State>>, input: JsValue) -> JsResult<JsValue> {
    let (turn, history) = {
        let s = state.borrow();
        (s.turn_count + 1, s.history.clone())
    };
    if input.is_string() {
        history.push(&turn_entry(turn, &config.agent_id, "user", &input));
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
    let window_turns = read_window(&window)?;
    let prompt = prompt_for(
        &config.task_goal.as_string().unwrap_or_default(),
        &window_turns,
    );

    let request = Object::new();
    js::set(&request, "agentId", &config.agent_id.as_str().into());
    js::set(&request, "turnIndex", &turn.into());
    js::set(&request, "prompt", &prompt.into());
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
    history.push(&turn_entry(turn, &config.agent_id, "assistant", &text));

    let crossing = js(state.borrow_mut().monitor.record(tokens))?;
    let mut refresh = JsValue::NULL;
    if crossing.is_some() {
        let recent = recent_turns(&history, window_turns.len());
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
                turn,
                &config.agent_id,
                "user",
                &JsValue::from(context_refresh_content(&text)),
            ));
            refresh = summary;
        }
    }
    state.borrow_mut().turn_count = turn;

    let result = Object::new();
    js::set(&result, "turnIndex", &turn.into());
    js::set(&result, "response", &response);
    js::set(&result, "window", &window);
    js::set(&result, "tokensRecorded", &tokens.into());
    js::set(&result, "contextRefresh", &refresh);
    Ok(result.into())
}

/// A window turn as the prompt needs it; the content stays a JS string.
struct WindowTurn {
    turn_index: f64,
    role: String,
    content: JsString,
}

/// The window's turns, checked, for the prompt.
fn read_window(window: &JsValue) -> JsResult<Vec<WindowTurn>> {
    let field = "composer.compose().turns";
    js(js::object("composer.compose()", window))?;
    let turns = js(array(field, &js::get(window, "turns")?))?;
    turns
        .iter()
        .enumerate()
        .map(|(i, turn)| {
            let at = format!("{field}[{i}]");
            let role = read_role(&at, &turn)?;
            let turn_index = js(js::number(
                &format!("{at}.turnIndex"),
                &js::get(&turn, "turnIndex")?,
            ))?;
            let content = js::get(&turn, "content")?;
            let content = content.dyn_into::<JsString>().map_err(|v| {
                js::IntoJs::into_js(FieldError::type_error(
                    format!("{at}.content"),
                    format!("must be a string, got {}", js::describe(&v)),
                ))
            })?;
            Ok(WindowTurn {
                turn_index,
                role: role.name().to_string(),
                content,
            })
        })
        .collect()
}

/// Renders the prompt by concatenating JS strings: turn contents are never copied into wasm.
fn prompt_for(task_goal: &str, turns: &[WindowTurn]) -> JsString {
    struct Sink<'a> {
        turns: &'a [WindowTurn],
        out: JsString,
        pending: String,
    }
    impl PromptSink for Sink<'_> {
        fn text(&mut self, text: &str) {
            self.pending.push_str(text);
        }
        fn content(&mut self, index: usize) {
            let pending = JsString::from(std::mem::take(&mut self.pending));
            self.out = self.out.concat(&pending).concat(&self.turns[index].content);
        }
    }
    let metas: Vec<TurnMeta> = turns
        .iter()
        .map(|t| TurnMeta {
            turn_index: t.turn_index,
            role: &t.role,
        })
        .collect();
    let mut sink = Sink {
        turns,
        out: JsString::from(""),
        pending: String::new(),
    };
    render_prompt(task_goal, &metas, &mut sink);
    sink.out.concat(&JsString::from(sink.pending))
}

/// The newest `count` turns of the conversation, this turn's response included.
fn recent_turns(history: &Array, count: usize) -> Array {
    let len = history.length();
    history.slice(len.saturating_sub(count.max(1) as u32), len)
}

fn turn_entry(turn: u32, agent_id: &str, role: &str, content: &JsValue) -> JsValue {
    let entry = Object::new();
    js::set(&entry, "turnIndex", &turn.into());
    js::set(&entry, "agentId", &agent_id.into());
    js::set(&entry, "role", &role.into());
    js::set(&entry, "content", content);
    js::set(&entry, "createdAt", &Date::new_0());
    entry.into()
}
