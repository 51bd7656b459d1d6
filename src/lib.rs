//! `@devs/context`: the context rules of the devs agent orchestrator.
//!
//! `rules` is plain Rust and is what `cargo test` exercises; `bindings` is the only
//! place that knows about JavaScript, and turns the rules into the npm package's classes.

pub mod rules;

mod bindings;
