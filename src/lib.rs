//! `@devs/context`: the context rules of the devs agent orchestrator.
//!
//! `rules` is plain Rust and is what `cargo test` exercises; `bindings` is the only
//! place that knows about JavaScript, and turns the rules into the npm package's classes.

pub mod rules;

mod js_errors;

// One crate, two wasm modules: the rules (default) and, with `tokenizer-module`, the exact
// tokenizers, so neither carries the other's code.
#[cfg(not(feature = "tokenizer-module"))]
mod bindings;
#[cfg(feature = "tokenizer-module")]
mod tokenizer_bindings;
