//! Runs async jobs one after another in call order, without holding any borrow while a
//! job waits: concurrent, un-awaited calls queue instead of interleaving.

use std::cell::RefCell;
use std::future::Future;

use js_sys::Promise;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::{JsFuture, future_to_promise};

#[derive(Default)]
pub struct Serial {
    tail: RefCell<Option<Promise>>,
}

impl Serial {
    /// Starts `job` once every job queued before it has settled (whatever its outcome).
    pub fn run<F>(&self, job: F) -> Promise
    where
        F: Future<Output = Result<JsValue, JsValue>> + 'static,
    {
        let previous = self.tail.borrow_mut().take();
        let promise = future_to_promise(async move {
            if let Some(previous) = previous {
                // The earlier job's caller sees its failure; it does not stop this one.
                let _ = JsFuture::from(previous).await;
            }
            job.await
        });
        *self.tail.borrow_mut() = Some(promise.clone());
        promise
    }
}
