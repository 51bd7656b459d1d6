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

    /// The clock, for the shell's entries: an age shown is `clock - born`.
    pub fn clock(&self) -> f64 {
        self.clock
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
mod tests {
    use super::*;
    use crate::base::rng::Rng;
    use crate::seeds::runner::aged;
    use crate::seeds::tool_output::MIN_BYTE_SIZE;

    /// The walk the index replaces: every turn each whole output's written age goes up by
    /// one (`runner::aged`), and the due check and the recount read every entry.
    #[derive(Default)]
    struct Walk {
        ages: Vec<f64>,
        sizes: Vec<f64>,
        tokens: Vec<f64>,
    }

    impl Walk {
        fn due(&self) -> Vec<bool> {
            self.ages
                .iter()
                .zip(&self.sizes)
                .map(|(&a, &b)| !a.is_nan() && should_truncate(a, b))
                .collect()
        }
    }

    #[test]
    fn clock_ages_equal_the_ages_the_walk_writes_on_random_sequences() {
        for seed in 1..=200u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut index = Pending::new();
            let mut walk = Walk::default();
            for _ in 0..(20 + rng.below(200)) {
                match rng.below(11) {
                    // A turn: everything whole ages by one.
                    0..=3 => {
                        index.tick();
                        walk.ages = aged(&walk.ages);
                    }
                    // A new output (the envelope's), or a host's entry of some age.
                    4..=6 => {
                        let age = if rng.below(3) == 0 {
                            rng.below(9) as f64
                        } else {
                            0.0
                        };
                        let size = [10.0, MIN_BYTE_SIZE, MIN_BYTE_SIZE + 1.0, 300_000.0]
                            [rng.below(4) as usize];
                        // Now and then a count with a fraction (a host's counter may give one).
                        let tokens =
                            rng.below(5000) as f64 + [0.0, 0.25][usize::from(rng.below(8) == 0)];
                        index.push_whole(size, tokens, age);
                        walk.ages.push(age);
                        walk.sizes.push(size);
                        walk.tokens.push(tokens);
                    }
                    // An output truncated, or one already truncated from the host.
                    7 if !walk.ages.is_empty() => {
                        let i = rng.below(walk.ages.len() as u64) as usize;
                        let tokens = rng.below(200) as f64;
                        index.truncated(i, tokens);
                        walk.ages[i] = f64::NAN;
                        walk.tokens[i] = tokens;
                    }
                    8 => {
                        index.push_truncated(7.0);
                        walk.ages.push(f64::NAN);
                        walk.sizes.push(0.0);
                        walk.tokens.push(7.0);
                    }
                    // The shell reads the array again: the index starts over, the clock goes on.
                    10 => {
                        index.clear();
                        walk = Walk::default();
                    }
                    // A failed turn: its tick taken back.
                    _ => {
                        index.tick();
                        index.untick();
                    }
                }
                for (i, &a) in walk.ages.iter().enumerate() {
                    let got = index.age(i);
                    if a.is_nan() {
                        assert_eq!(got, None, "seed {seed}, output {i}");
                    } else {
                        assert_eq!(got, Some(a), "seed {seed}, output {i}");
                    }
                }
                assert_eq!(index.due(), walk.due(), "seed {seed}");
                let due: Vec<usize> = (0..walk.ages.len()).filter(|&i| walk.due()[i]).collect();
                assert_eq!(index.due_outputs(), due, "seed {seed}");
                assert_eq!(
                    index.done(),
                    walk.ages.iter().map(|a| a.is_nan()).collect::<Vec<_>>()
                );
                assert_eq!(index.tokens(), walk.tokens.iter().sum::<f64>());
            }
        }
    }

    #[test]
    fn an_output_is_due_from_its_second_turn_when_over_50_kib() {
        let mut index = Pending::new();
        index.push_whole(MIN_BYTE_SIZE + 1.0, 1.0, 0.0);
        index.push_whole(MIN_BYTE_SIZE, 1.0, 5.0);
        assert_eq!(index.due(), vec![false, false]);
        index.tick();
        assert_eq!(index.due(), vec![false, false]);
        index.tick();
        assert_eq!(
            index.due(),
            vec![true, false],
            "50 KiB exactly is never due"
        );
        index.truncated(0, 3.0);
        assert_eq!(index.due(), vec![false, false]);
        assert_eq!(index.age(0), None);
        assert_eq!(index.age(1), Some(7.0));
    }

    #[test]
    fn the_prompt_keeps_what_it_showed_until_an_output_it_showed_changes() {
        let mut index = Pending::new();
        for _ in 0..3 {
            index.push_whole(10.0, 1.0, 0.0);
        }
        assert_eq!(index.tools_from(), 0);
        index.shown_all();
        index.push_whole(10.0, 1.0, 0.0);
        assert_eq!(index.tools_from(), 3, "only the new output is to show");
        index.truncated(3, 1.0);
        assert_eq!(index.tools_from(), 3, "the new one was not shown yet");
        index.truncated(1, 1.0);
        assert_eq!(
            index.tools_from(),
            0,
            "one it showed changed: all shown anew"
        );
        index.clear();
        assert_eq!(index.tools_from(), 0);
        assert!(index.is_empty());
    }

    #[test]
    fn the_largest_age_a_host_may_write_stays_exact() {
        let mut index = Pending::new();
        index.tick();
        index.push_whole(1.0, 1.0, 9_007_199_254_740_991.0);
        assert_eq!(index.age(0), Some(9_007_199_254_740_991.0));
    }
}
