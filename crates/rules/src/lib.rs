//! The context rules of the devs agent orchestrator. Nothing in here touches
//! `wasm_bindgen`, JavaScript or I/O: every rule takes plain data and returns plain data,
//! so it is tested natively with `cargo test` and reused by any host.
//!
//! A rule that needs the host (a summary, an LLM answer, a store write) never calls it.
//! It says what it needs, and takes the answer back as a commit or a rollback.
//!
//! Three groups: [`base`], what every rule shares (argument checks, frames, texts, cuts);
//! [`context`], the context manager (`ContextManager` and the `bounded` option); and
//! [`seeds`], the rules of the five seeds, one module a rule; and [`media`], images and
//! documents measured the way providers bill them.

pub mod base;
pub mod context;
pub mod media;
pub mod seeds;
