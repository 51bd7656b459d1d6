//! The runner's index of `context.pendingToolOutputs`, carried from turn to turn, so that a
//! turn's cost does not grow with every output kept pending (seed 002 keeps each one until
//! it is truncated, which only outputs over 50 KiB ever are).
//!
//! Without it, each turn walked the host's entries four times: to age them (writing
//! `turnAge + 1` into each), to ask which are due, to recount what they show, and to paste
//! each into the prompt. With it:
//! - **ages are a clock.** Ageing every whole output by a turn is one tick; an output's age
//!   is the clock less the tick it was born at, so nothing is written into the entries.
//! - **the due check and the recount** read this index's numbers (size, birth, tokens), not
//!   the host's objects: no crossing and no property read per output.
//! - **the prompt's Tool outputs section** grows by the outputs added since the last prompt:
//!   [`Pending::tools_from`] says how many leading outputs the shell's text already holds,
//!   unchanged (see [`crate::seeds::prompt::render_tools`]).
//!
//! The index describes one array of outputs, in order. The shell rebuilds it (`clear`,
//! then a `push_*` per entry) whenever it cannot vouch that the array is the one the index
//! describes: on the first turn, after a failed turn, and when the host replaced the array
//! or edited an entry.

use crate::seeds::tool_output::{MIN_BYTE_SIZE, should_truncate};

#[derive(Debug, Clone, Copy, PartialEq)]
struct Entry {
    /// The tick a whole output was born at (its age is `clock - born`); `None` for a
    /// truncated output, which has no age. Ticks are whole numbers, exact in an `f64`, as
    /// the ages a host writes are.
    born: Option<f64>,
    byte_size: f64,
    /// Tokens of the text the output shows: its raw content, or its summary once truncated.
    tokens: f64,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pending {
    /// Turns of ageing so far; a host's entry of age `a` was born at `clock - a`.
    clock: f64,
    entries: Vec<Entry>,
    /// How many leading outputs the last prompt showed, all unchanged since (else 0).
    shown: usize,
    /// The whole outputs over 50 KiB, in order: the only ones that can come due, so the
    /// due check reads these and not every output.
    large: Vec<usize>,
    /// The outputs' tokens summed, kept as they come and go. Exact while every count is a
    /// whole number (as counters give them), and then the same as summing in order;
    /// `fractions` says when one is not, and the recount then sums in order.
    sum: f64,
    fractions: bool,
}

impl Pending {
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every output (the shell then pushes the array's entries again). The clock
    /// goes on: it only ever moves forward, but for [`Pending::untick`].
    pub fn clear(&mut self) {
        self.entries.clear();
        self.shown = 0;
        self.large.clear();
        self.sum = 0.0;
        self.fractions = false;
    }

    fn count(&mut self, tokens: f64) {
        self.sum += tokens;
        self.fractions |= tokens.fract() != 0.0;
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every whole output one turn older.
    pub fn tick(&mut self) {
        self.clock += 1.0;
    }

    /// Takes a [`Pending::tick`] back (a failed turn).
    pub fn untick(&mut self) {
        self.clock -= 1.0;
    }

    /// A whole output of `age` turns (a whole number >= 0, checked by the shell's reader);
    /// returns the tick it was born at.
    pub fn push_whole(&mut self, byte_size: f64, tokens: f64, age: f64) -> f64 {
        let born = self.clock - age;
        if byte_size > MIN_BYTE_SIZE {
            self.large.push(self.entries.len());
        }
        self.entries.push(Entry {
            born: Some(born),
            byte_size,
            tokens,
        });
        self.count(tokens);
        born
    }

    /// An output that is already truncated (it has no age, and is never due).
    pub fn push_truncated(&mut self, tokens: f64) {
        self.entries.push(Entry {
            born: None,
            byte_size: 0.0,
            tokens,
        });
        self.count(tokens);
    }

    /// Output `i`'s age in turns; `None` once truncated or out of range.
    pub fn age(&self, i: usize) -> Option<f64> {
        let born = self.entries.get(i)?.born?;
        Some(self.clock - born)
    }

    /// Output `i` was replaced by its truncated form, showing `tokens`.
    pub fn truncated(&mut self, i: usize, tokens: f64) {
        if let Some(e) = self.entries.get_mut(i) {
            let before = e.tokens;
            *e = Entry {
                born: None,
                byte_size: 0.0,
                tokens,
            };
            self.sum -= before;
            self.count(tokens);
            if let Ok(at) = self.large.binary_search(&i) {
                self.large.remove(at);
            }
            // The shell keeps the shown text whole, not per output: it is written anew.
            if i < self.shown {
                self.shown = 0;
            }
        }
    }

    /// Per output: already truncated, so seed 002 has nothing left to do with it.
    pub fn done(&self) -> Vec<bool> {
        self.entries.iter().map(|e| e.born.is_none()).collect()
    }

    /// Per output: `ToolOutputPruner.shouldTruncate` of it as it stands this turn (what
    /// [`Pending::due_outputs`] lists, output by output: the tests' reference).
    #[cfg(test)]
    pub fn due(&self) -> Vec<bool> {
        self.entries
            .iter()
            .map(|e| match e.born {
                Some(born) => should_truncate(self.clock - born, e.byte_size),
                None => false,
            })
            .collect()
    }

    /// The outputs `ToolOutputPruner.shouldTruncate` says yes to this turn, in order: what
    /// [`Pending::due`] marks, read off the large outputs alone.
    pub fn due_outputs(&self) -> Vec<usize> {
        self.large
            .iter()
            .copied()
            .filter(|&i| {
                let e = &self.entries[i];
                e.born
                    .is_some_and(|born| should_truncate(self.clock - born, e.byte_size))
            })
            .collect()
    }

    /// Tokens every output shows, summed in order, as the seed's recount sums them.
    pub fn tokens(&self) -> f64 {
        if self.fractions {
            self.entries.iter().map(|e| e.tokens).sum()
        } else {
            self.sum
        }
    }

    /// How many leading outputs the shell's Tool outputs text already shows as they are:
    /// those of the last prompt, or none once one of them changed.
    pub fn tools_from(&self) -> usize {
        self.shown.min(self.entries.len())
    }

    /// A prompt now shows every output.
    pub fn shown_all(&mut self) {
        self.shown = self.entries.len();
    }
}

#[cfg(test)]
#[path = "tests/pending.rs"]
mod tests;
