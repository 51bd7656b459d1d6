//! The rules of the five seeds, one module a rule:
//! - seed 000: [`refresher`] (`ContextRefresher`, `OrchestratorContextInjector`);
//! - seed 001: [`window`] (`SlidingRelevanceWindow`, `SpecRefreshProtocol`);
//! - seed 002: [`management`] (`applyContextManagement`), [`window_composer`] and
//!   [`budget`] (`WindowComposer`), [`pruner`] (`ContextPruner`), [`tool_output`]
//!   (`ToolOutputPruner`), and the turn loop of [`runner`] (`AgentRunner`) with its
//!   [`prompt`] and its index of the pending outputs, [`pending`];
//! - seed 003: [`monitor`] (`TokenThresholdMonitor`), [`handoff`] (`SummarizationHandoff`);
//! - seed 004: [`tracker`] (`TurnTracker`) with its [`clock`], [`log`] (`AgentLogStore`);
//! - the SAOP envelope all of them pass: [`saop`].

pub mod budget;
pub mod clock;
pub mod handoff;
pub mod log;
pub mod management;
pub mod monitor;
pub mod ops;
pub mod pending;
pub mod prompt;
pub mod pruner;
pub mod refresher;
pub mod runner;
pub mod saop;
pub mod tool_output;
pub mod tracker;
pub mod window;
pub mod window_composer;
