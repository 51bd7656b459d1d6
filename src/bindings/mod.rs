//! The JS face of the rules. Everything that knows about `wasm_bindgen` lives here.
//!
//! State shared with in-flight promises sits in `Rc<RefCell<_>>` and is never borrowed
//! across an `.await`: each async method makes its decision synchronously, then awaits
//! the host's callback with no borrow held, so un-awaited concurrent calls interleave.

mod errors;
mod js;
mod refresher;
mod saop;
mod turns;
mod types;
