//! `AgentRunner`'s turn ([4_USER_FEATURES-REQ-083], seed 002's turn loop) as a machine
//! that never calls the host: each turn it says which step comes next, and a failed turn
//! is rolled back as a whole.
//!
//! The steps, in order: add the user's input; run context management; compose the window
//! and build the prompt; call the LLM; record the response's tokens, and hand off at the
//! threshold; then, for a response with an envelope, inject the refresh, stamp it, keep it
//! in the context, and log it. Every step that can fail runs before the log append, the
//! last host call; then the turn commits.

use crate::base::args::{non_negative, whole_number};
use crate::base::frame::Frame;
use crate::base::text::{Probe, cut_end};
use crate::seeds::monitor::ThresholdMonitor;
use devs_context_errors::FieldError;

/// `context.currentObservation` keeps this much of the newest observation; the whole
/// output goes to `pendingToolOutputs`.
pub const OBSERVATION_CHARS: usize = 4000;

crate::codes! {
    /// A step of a turn, as the shell reads it: one digit of [`pack_steps`]'s number.
    pub enum Step {
        AddInput = 0,
        Manage = 1,
        Compose = 2,
        CallLlm = 3,
        Handoff = 4,
        Inject = 5,
        Stamp = 6,
        KeepEnvelope = 7,
        Log = 8,
        Commit = 9,
    }
}

/// Steps cross as digits of this base after a leading 1: every code is below it.
pub const STEP_BASE: u32 = 16;

/// `steps`, in order, as one number: their codes as base-[`STEP_BASE`] digits after a
/// leading 1, the first step the highest digit (read by `pkg/src/seeds/runner.ts`).
pub fn pack_steps(steps: impl IntoIterator<Item = Step>) -> f64 {
    steps.into_iter().fold(1.0, |packed, step| {
        packed * f64::from(STEP_BASE) + f64::from(step.code())
    })
}

/// Which optional parts a runner was given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Parts {
    pub management: bool,
    pub injector: bool,
    pub tracker: bool,
    pub log: bool,
    /// The monitor counts every token entering the context, not only the response's.
    pub refresh_on_context: bool,
}

#[derive(Debug, Clone)]
pub struct Runner {
    parts: Parts,
    turn_count: u32,
    monitor: ThresholdMonitor,
}

/// One turn in flight.
#[derive(Debug, Clone)]
pub struct Turn {
    pub number: u32,
    steps: Vec<Step>,
    next: usize,
    monitor_before: ThresholdMonitor,
}

impl Turn {
    pub fn next_step(&mut self) -> Option<Step> {
        let step = self.steps.get(self.next).copied();
        self.next += usize::from(step.is_some());
        step
    }
}

impl Runner {
    pub fn new(threshold_tokens: Option<f64>, parts: Parts) -> Result<Self, FieldError> {
        let threshold = match threshold_tokens {
            None => crate::seeds::monitor::DEFAULT_THRESHOLD_TOKENS,
            Some(n) => ThresholdMonitor::checked_threshold("options.thresholdTokens", n)?,
        };
        Ok(Self {
            parts,
            turn_count: 0,
            monitor: ThresholdMonitor::new(threshold),
        })
    }

    pub fn turn_count(&self) -> u32 {
        self.turn_count
    }

    pub fn accumulated(&self) -> f64 {
        self.monitor.accumulated()
    }

    /// Starts turn `turn_count + 1`. Turns run one at a time.
    pub fn begin(&self, has_input: bool) -> Turn {
        let mut steps = Vec::with_capacity(6);
        if has_input {
            steps.push(Step::AddInput);
        }
        if self.parts.management {
            steps.push(Step::Manage);
        }
        steps.extend([Step::Compose, Step::CallLlm]);
        Turn {
            number: self.turn_count + 1,
            steps,
            next: 0,
            monitor_before: self.monitor,
        }
    }

    /// Records the turn's tokens and plans the rest of the turn: the handoff when the
    /// threshold was reached, then the envelope's steps when the response had one. The
    /// monitor gets the response's tokens or, with `refresh_on_context`, every token that
    /// entered the context this turn (`context_tokens`).
    pub fn record(
        &mut self,
        turn: &mut Turn,
        response_tokens: f64,
        context_tokens: f64,
        has_envelope: bool,
    ) -> Result<(), FieldError> {
        let counted = if self.parts.refresh_on_context {
            context_tokens
        } else {
            response_tokens
        };
        let tokens = non_negative("countTokens()", counted)?;
        if self.monitor.record(tokens)?.is_some() {
            turn.steps.push(Step::Handoff);
        }
        if has_envelope {
            if self.parts.injector {
                turn.steps.push(Step::Inject);
            }
            if self.parts.tracker {
                turn.steps.push(Step::Stamp);
            }
            if self.parts.management {
                turn.steps.push(Step::KeepEnvelope);
            }
            if self.parts.tracker && self.parts.log {
                turn.steps.push(Step::Log);
            }
        }
        turn.steps.push(Step::Commit);
        Ok(())
    }

    pub fn commit(&mut self, turn: &Turn) {
        self.turn_count = turn.number;
    }

    /// Undoes everything the turn did to the runner's own state.
    pub fn rollback(&mut self, turn: &Turn) {
        self.monitor = turn.monitor_before;
    }

    /// The runner's own state between turns: `[turn_count, fresh, carried]`.
    pub fn state(&self) -> [f64; 3] {
        let [fresh, carried] = self.monitor.counts();
        [f64::from(self.turn_count), fresh, carried]
    }

    /// Takes back a `state()` (from a snapshot, under `field`), all or nothing.
    pub fn resume(&mut self, field: &str, state: &[f64]) -> Result<(), FieldError> {
        if state.len() != 3 {
            return Err(FieldError::type_error(
                field,
                format!(
                    "must be [turnCount, fresh, carried], got {} numbers",
                    state.len()
                ),
            ));
        }
        let turns = whole_number(&format!("{field}[0]"), state[0], 0)?;
        let turn_count = u32::try_from(turns)
            .map_err(|_| FieldError::range_error(format!("{field}[0]"), "must be under 2^32"))?;
        self.monitor = self.monitor.resumed(field, state[1], state[2])?;
        self.turn_count = turn_count;
        Ok(())
    }
}

/// How many of the newest history turns the handoff summarizes: those the window held.
pub fn recent_start(history_len: usize, window_turns: usize) -> usize {
    history_len.saturating_sub(window_turns.max(1))
}

/// Each pending output one turn older; `NaN` stays `NaN` (a truncated output has no age).
pub fn aged(turn_ages: &[f64]) -> Vec<f64> {
    turn_ages.iter().map(|a| a + 1.0).collect()
}

/// Host texts of [`observation`].
pub const STATUS: usize = 0;
pub const OUTPUT: usize = 1;

/// What the context keeps of an envelope's observation, written to `frame`: a flag, 1 when
/// the output goes to `pendingToolOutputs` (it is not empty); a flag, 1 when the output is
/// longer than [`OBSERVATION_CHARS`]; `currentObservation` (`status: head`);
/// and, when long, the output the context's copy of the envelope holds (the head and a
/// note that the whole output is under Tool outputs). `probe` is at least the output's
/// first `OBSERVATION_CHARS + 1` units; `output_len` its whole length.
pub fn observation(frame: &mut Frame, probe: &Probe, output_len: usize) {
    let end = cut_end(probe, OBSERVATION_CHARS, false);
    frame.flag(output_len > 0);
    frame.flag(end.is_some());
    frame.text(|p| {
        p.host(STATUS).lit(": ").host_range(OUTPUT, 0, end);
    });
    if let Some(end) = end {
        frame.text(|p| {
            p.host_range(OUTPUT, 0, Some(end)).lit(&format!(
                "\n[{} more characters: the whole output is under Tool outputs]",
                output_len - end
            ));
        });
    }
}

#[cfg(test)]
#[path = "tests/runner.rs"]
mod tests;
