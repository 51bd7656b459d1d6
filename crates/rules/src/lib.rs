//! The context rules of the devs agent orchestrator. Nothing in here touches
//! `wasm_bindgen`, JavaScript or I/O: every rule takes plain data and returns plain data,
//! so it is tested natively with `cargo test` and reused by any host.
//!
//! A rule that needs the host (a summary, an LLM answer, a store write) never calls it.
//! It says what it needs, and takes the answer back as a commit or a rollback.

pub mod args;
pub mod budget;
pub mod calibration;
pub mod clock;
pub mod composer;
pub mod context;
pub mod cut;
pub mod frame;
pub mod handoff;
pub mod log;
pub mod management;
pub mod monitor;
pub mod prompt;
pub mod pruner;
pub mod refresh;
pub mod ring;
pub mod runner;
pub mod saop;
pub mod text;
pub mod tokens;
pub mod tool_output;
pub mod turns;
pub mod window;
