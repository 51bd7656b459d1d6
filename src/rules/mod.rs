//! The pure rules. Nothing in here touches `wasm_bindgen`, `js_sys` or I/O, so every
//! rule can be tested natively and reused by any host.

pub mod args;
#[cfg(feature = "tokenizer-module")]
pub mod bpe;
pub mod budget;
pub mod clock;
pub mod composer;
pub mod cut;
pub mod handoff;
pub mod monitor;
pub mod prompt;
pub mod pruner;
pub mod refresh;
pub mod ring;
pub mod saop;
pub mod tokens;
pub mod tool_output;
pub mod turns;
pub mod window;
