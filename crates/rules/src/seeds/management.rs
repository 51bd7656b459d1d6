//! Seed 002's `applyContextManagement` ([3_MCP-TAS-047], [3_MCP-TAS-024],
//! [8_RISKS-REQ-012]) as a machine that never calls the host: it says what it needs next,
//! the host does it and answers, until the machine is done.
//!
//! The order is the seed's and is not negotiable: (1) count the turns (the host counts
//! them before it starts the machine), (2) compose the window, (3) prune if needed,
//! (4) persist then truncate each due tool output, (5) recount. Until the machine is done,
//! the host changes nothing of the caller's context; a failed step therefore restores
//! nothing, because nothing was applied.

use crate::base::args::show_number;
use crate::base::frame::Pieces;
use crate::seeds::pruner::{AgentRole, Kept, loop_guard_cut, saturation_point};

/// What the host must do next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Need {
    /// (2) `deps.composer.compose(goal, map, envelopes)`; answer [`Run::composed`].
    Compose,
    /// (3) `deps.pruner.shouldPrune(tokens, budget)`; answer [`Run::should_prune`].
    ShouldPrune { tokens: f64 },
    /// (3) `deps.pruner.prune(turns, plan, tas, currentObservation)`; answer
    /// [`Run::pruned`] with the summary's tokens.
    Prune,
    /// (3) the summary replaces the turns, as one `user` turn; answer [`Run::kept`].
    KeepSummary,
    /// (3) the loop guard needs the turns' roles; answer [`Run::roles`].
    Roles,
    /// (3) the loop guard keeps part of the turns and warns; answer [`Run::kept`].
    Keep(Kept),
    /// (4) `deps.toolOutputPruner.shouldTruncate(output)`; answer [`Run::should_truncate`].
    ShouldTruncate { output: usize },
    /// (4) `persistRaw(output, deps.stateRepository)`; answer [`Run::persisted`].
    Persist { output: usize },
    /// (4) a failed persist keeps the output whole, with a warning; answer [`Run::warned`].
    WarnPersistFailed { output: usize },
    /// (4) `truncate(output)` replaces it; answer [`Run::truncated`].
    Truncate { output: usize },
    /// (5) count the final turns (when `turns_changed`) and outputs; answer [`Run::recounted`].
    Recount { turns_changed: bool },
    /// Apply the new turns and outputs to the context; nothing more to do.
    Done {
        used_tokens: f64,
        pruned: bool,
        truncated: usize,
    },
}

crate::codes! {
    /// A [`Need`]'s kind, as the shell reads it: the low digit of its encoding ([`Need::encode`]).
    pub enum ManagementNeed {
        Compose = 0,
        ShouldPrune = 1,
        Prune = 2,
        KeepSummary = 3,
        Roles = 4,
        KeepNewest = 5,
        KeepCut = 6,
        ShouldTruncate = 7,
        Persist = 8,
        WarnPersistFailed = 9,
        Truncate = 10,
        Recount = 11,
        Done = 12,
    }
}

/// A need crosses as one number, `code + NEED_SCALE * argument`: every code is below it.
pub const NEED_SCALE: u32 = 16;

impl Need {
    /// The need's kind, and the one number it carries to the shell (an output's or a turn's
    /// index, or a flag; `Done`'s is `pruned + 2 * truncated`, the result but its tokens);
    /// what does not fit (tokens, a cut's share) the shell reads by getters.
    pub fn kind(&self) -> (ManagementNeed, f64) {
        use ManagementNeed as C;
        match *self {
            Need::Compose => (C::Compose, 0.0),
            Need::ShouldPrune { .. } => (C::ShouldPrune, 0.0),
            Need::Prune => (C::Prune, 0.0),
            Need::KeepSummary => (C::KeepSummary, 0.0),
            Need::Roles => (C::Roles, 0.0),
            Need::Keep(Kept::Newest { start }) => (C::KeepNewest, start as f64),
            Need::Keep(Kept::Cut { first, .. }) => (C::KeepCut, first as f64),
            Need::ShouldTruncate { output } => (C::ShouldTruncate, output as f64),
            Need::Persist { output } => (C::Persist, output as f64),
            Need::WarnPersistFailed { output } => (C::WarnPersistFailed, output as f64),
            Need::Truncate { output } => (C::Truncate, output as f64),
            Need::Recount { turns_changed } => (C::Recount, f64::from(u8::from(turns_changed))),
            Need::Done {
                pruned, truncated, ..
            } => (
                C::Done,
                f64::from(u8::from(pruned)) + 2.0 * truncated as f64,
            ),
        }
    }

    /// The need as one number, `code + NEED_SCALE * argument` (read by
    /// `pkg/src/seeds/context-management.ts`).
    pub fn encode(&self) -> f64 {
        let (kind, arg) = self.kind();
        f64::from(kind.code()) + f64::from(NEED_SCALE) * arg
    }
}

/// The pending outputs step (4) goes through.
#[derive(Debug, Clone)]
enum Outputs {
    /// Each output in turn: `done`, already a `TruncatedToolOutput` (nothing to do);
    /// `due`, whether it is due, once the host answered for all at once.
    Each {
        done: Vec<bool>,
        due: Vec<Option<bool>>,
    },
    /// The due outputs alone, in order: every other one is truncated already or not due.
    /// The runner's index knows which, so a run visits these and not every output.
    Due(Vec<usize>),
}

/// One run of `applyContextManagement`.
#[derive(Debug, Clone)]
pub struct Run {
    limit: f64,
    turn_tokens: Vec<f64>,
    already_pruned: bool,
    outputs: Outputs,
    next_output: usize,
    composed_tokens: f64,
    summary_tokens: f64,
    kept: Option<Kept>,
    pruned: bool,
    truncated: usize,
}

impl Run {
    /// `turn_tokens`: step (1), each turn's tokens. `already_pruned`: the turns are just
    /// the summary turn an earlier run made, so a second run never prunes again.
    pub fn new(
        total_budget: f64,
        saturation_ratio: f64,
        turn_tokens: Vec<f64>,
        already_pruned: bool,
        done_outputs: Vec<bool>,
    ) -> Self {
        Self {
            limit: saturation_point(total_budget, saturation_ratio),
            turn_tokens,
            already_pruned,
            outputs: Outputs::Each {
                due: vec![None; done_outputs.len()],
                done: done_outputs,
            },
            next_output: 0,
            composed_tokens: 0.0,
            summary_tokens: 0.0,
            kept: None,
            pruned: false,
            truncated: 0,
        }
    }

    pub fn start(&self) -> Need {
        Need::Compose
    }

    pub fn composed(&mut self, total_tokens_used: f64) -> Need {
        self.composed_tokens = total_tokens_used;
        if self.already_pruned {
            return self.outputs();
        }
        Need::ShouldPrune {
            tokens: self.turn_tokens.iter().sum(),
        }
    }

    pub fn should_prune(&mut self, yes: bool) -> Need {
        if yes { Need::Prune } else { self.outputs() }
    }

    pub fn pruned(&mut self, summary_tokens: f64) -> Need {
        self.pruned = true;
        self.summary_tokens = summary_tokens;
        if summary_tokens < self.limit {
            Need::KeepSummary
        } else {
            // Loop guard: a summary this large would be pruned again on the very next turn.
            Need::Roles
        }
    }

    pub fn roles(&mut self, roles: &[AgentRole]) -> Need {
        let turns: Vec<(AgentRole, f64)> = roles
            .iter()
            .copied()
            .zip(self.turn_tokens.iter().copied())
            .collect();
        let kept = loop_guard_cut(&turns, self.limit);
        self.kept = Some(kept);
        Need::Keep(kept)
    }

    pub fn kept(&mut self) -> Need {
        self.outputs()
    }

    pub fn should_truncate(&mut self, yes: bool) -> Need {
        let output = self.next_output;
        if yes {
            Need::Persist { output }
        } else {
            self.next_output += 1;
            self.outputs()
        }
    }

    /// Answers `shouldTruncate` for every pending output at once (`due[i]` for output `i`;
    /// a host whose pruner has no side effects may), so the machine asks no more.
    pub fn should_truncate_all(&mut self, due: &[bool]) -> Need {
        if let Outputs::Each { due: slots, .. } = &mut self.outputs {
            for (slot, &d) in slots.iter_mut().zip(due) {
                *slot = Some(d);
            }
        }
        self.outputs()
    }

    /// Takes `shouldTruncate` of every pending output before the machine starts, as the
    /// outputs it is yes for (`due`, in order, from the runner's index of them): the run
    /// then asks none, as after [`Run::should_truncate_all`], and goes through those alone.
    pub fn due_known(&mut self, due: Vec<usize>) {
        self.outputs = Outputs::Due(due);
    }

    pub fn persisted(&mut self, ok: bool) -> Need {
        let output = self.next_output;
        if ok {
            Need::Truncate { output }
        } else {
            // Nothing lost: without a stored raw copy the output stays whole.
            Need::WarnPersistFailed { output }
        }
    }

    pub fn warned(&mut self) -> Need {
        self.next_output += 1;
        self.outputs()
    }

    pub fn truncated(&mut self) -> Need {
        self.truncated += 1;
        self.next_output += 1;
        self.outputs()
    }

    /// `turn_tokens`: the final turns' tokens when they changed (ignored otherwise: the
    /// turns counted in step (1) are still the turns).
    pub fn recounted(&mut self, turn_tokens: f64, output_tokens: f64) -> Need {
        let turns = if self.pruned {
            turn_tokens
        } else {
            self.turn_tokens.iter().sum()
        };
        Need::Done {
            used_tokens: self.composed_tokens + turns + output_tokens,
            pruned: self.pruned,
            truncated: self.truncated,
        }
    }

    fn outputs(&mut self) -> Need {
        let recount = Need::Recount {
            turns_changed: self.pruned,
        };
        match &self.outputs {
            Outputs::Each { done, due } => {
                while done.get(self.next_output) == Some(&true)
                    || due.get(self.next_output) == Some(&Some(false))
                {
                    self.next_output += 1;
                }
                let output = self.next_output;
                match (output < done.len(), due.get(output)) {
                    (false, _) => recount,
                    (true, Some(Some(true))) => Need::Persist { output },
                    (true, _) => Need::ShouldTruncate { output },
                }
            }
            Outputs::Due(due) => {
                // The due outputs after the one just done (they are few, and in order).
                let at = due.partition_point(|&i| i < self.next_output);
                match due.get(at) {
                    Some(&output) => {
                        self.next_output = output;
                        Need::Persist { output }
                    }
                    None => recount,
                }
            }
        }
    }

    /// The loop guard's warning, after [`Need::Keep`].
    pub fn loop_guard_warning(&self, p: &mut Pieces<'_>) {
        let n = self.turn_tokens.len();
        let kept = match self.kept {
            Some(Kept::Newest { start }) => n - start,
            Some(Kept::Cut { first, .. }) => n - first,
            None => n,
        };
        p.lit(&format!(
            "applyContextManagement: the summary is {} tokens, at or above the saturation point of {}; \
             kept the newest {kept} of {n} turns instead",
            show_number(self.summary_tokens),
            show_number(self.limit)
        ));
    }
}

/// Host texts of [`persist_warning`]: the tool's name (when it has one) and the error's.
pub const TOOL_NAME: usize = 0;
pub const ERROR_TEXT: usize = 1;

/// The warning after a failed persist.
pub fn persist_warning(p: &mut Pieces<'_>, has_tool_name: bool) {
    p.lit("applyContextManagement: persistRaw failed for tool ");
    if has_tool_name {
        p.host(TOOL_NAME);
    } else {
        p.lit("(unnamed tool)");
    }
    p.lit("; its output stays whole in the context (")
        .host(ERROR_TEXT)
        .lit(")");
}

#[cfg(test)]
#[path = "tests/management.rs"]
mod tests;
