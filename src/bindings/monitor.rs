//! Seed 003: `TokenThresholdMonitor`.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Date, Function, Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::js::{self, IntoJs, JsResult, js};
use super::tokens::Counter;
use crate::rules::monitor::{DEFAULT_THRESHOLD_TOKENS, ThresholdMonitor};

/// Accumulates token counts and calls `onThresholdExceeded` each time the total reaches
/// `thresholdTokens` (default 800,000), resetting before the callback runs
/// ([4_USER_FEATURES-REQ-083]).
#[wasm_bindgen]
pub struct TokenThresholdMonitor {
    rule: Rc<RefCell<ThresholdMonitor>>,
    callback: Function,
    counter: Counter,
}

#[wasm_bindgen]
impl TokenThresholdMonitor {
    /// @throws {TypeError} when `onThresholdExceeded` (or `countTokens`) is not a function.
    /// @throws {RangeError} when `thresholdTokens` is not a whole number >= 1.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "TokenThresholdMonitorConfig")] config: JsValue,
    ) -> JsResult<TokenThresholdMonitor> {
        js(js::object("config", &config))?;
        let callback = js::method(&config, "onThresholdExceeded", "config.onThresholdExceeded")?;
        let threshold = threshold_option(
            "config.thresholdTokens",
            js::get(&config, "thresholdTokens")?,
        )?;
        let counter = Counter::from_option(js::get(&config, "countTokens")?, "config.countTokens")?;
        Ok(Self {
            rule: Rc::new(RefCell::new(ThresholdMonitor::new(threshold))),
            callback,
            counter,
        })
    }

    #[wasm_bindgen(getter, js_name = thresholdTokens)]
    pub fn threshold_tokens(&self) -> f64 {
        self.rule.borrow().threshold()
    }

    /// Adds `tokens`. When the total reaches the threshold it captures
    /// `{ totalTokens, triggeredAt }`, resets the total to 0, then awaits
    /// `onThresholdExceeded(event)` before resolving. Tokens recorded while the callback
    /// runs count toward the next window, and each crossing calls back exactly once. If
    /// the callback fails, the promise rejects with its error and the window's tokens are
    /// put back, so none are lost.
    /// @throws {TypeError|RangeError} (as a rejection) for a non-number, negative, NaN or
    /// infinite `tokens`.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn record(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] tokens: JsValue,
    ) -> Promise {
        match js(js::number("tokens", &tokens)) {
            Ok(n) => self.add(n),
            Err(err) => Promise::reject(&err),
        }
    }

    /// `record(countTokens(text))`, with this monitor's counter.
    #[wasm_bindgen(js_name = recordText, unchecked_return_type = "Promise<void>")]
    pub fn record_text(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Promise {
        match self.counter.count(&text, "text") {
            Ok(n) => self.add(n),
            Err(err) => Promise::reject(&err),
        }
    }

    /// Sets the running total to 0.
    pub fn reset(&self) {
        self.rule.borrow_mut().reset();
    }

    /// The running total since the last reset.
    #[wasm_bindgen(js_name = getAccumulatedTokens)]
    pub fn get_accumulated_tokens(&self) -> f64 {
        self.rule.borrow().accumulated()
    }
}

impl TokenThresholdMonitor {
    fn add(&self, tokens: f64) -> Promise {
        let crossing = match self.rule.borrow_mut().record(tokens) {
            Ok(Some(crossing)) => crossing,
            Ok(None) => return Promise::resolve(&JsValue::UNDEFINED),
            Err(err) => return Promise::reject(&err.into_js()),
        };
        let event = refresh_event(crossing.total_tokens);
        let rule = Rc::clone(&self.rule);
        // Called at once, as the seed does. Queueing callbacks behind one another would
        // deadlock a callback that itself awaits a record crossing the threshold again.
        let called = self.callback.call1(&JsValue::UNDEFINED, &event);
        future_to_promise(async move {
            match async { js::settle(called?).await }.await {
                Ok(_) => Ok(JsValue::UNDEFINED),
                Err(err) => {
                    rule.borrow_mut().rollback(crossing);
                    Err(err)
                }
            }
        })
    }
}

/// `{ totalTokens, triggeredAt }`.
pub fn refresh_event(total_tokens: f64) -> JsValue {
    let event = Object::new();
    js::set(&event, "totalTokens", &total_tokens.into());
    js::set(&event, "triggeredAt", &Date::new_0());
    event.into()
}

/// Reads an optional `thresholdTokens`: `undefined` gives 800,000.
pub fn threshold_option(field: &str, value: JsValue) -> JsResult<f64> {
    match js(js::optional_number(field, &value))? {
        None => Ok(DEFAULT_THRESHOLD_TOKENS),
        Some(n) => js(ThresholdMonitor::checked_threshold(field, n)),
    }
}
