//! The JS face of the rules. Everything that knows about `wasm_bindgen` lives here.
//!
//! State shared with in-flight promises sits in `Rc<RefCell<_>>` and is never borrowed
//! across an `.await`: each async method makes its decision synchronously, then awaits
//! the host's callback with no borrow held, so un-awaited concurrent calls interleave.

mod budget;
mod composer;
mod handoff;
mod js;
mod management;
mod monitor;
mod pruners;
mod refresher;
mod runner;
mod saop;
mod serial;
mod text;
mod tokens;
mod turns;
mod types;
mod window;
mod window_composer;
