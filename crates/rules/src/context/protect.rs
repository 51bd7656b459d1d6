//! Tools the host protects (`protectedTools`: a memory, a todo list, a plan, a skill): their
//! calls and results are never masked, cut or folded away while they fit their share of the
//! budget. The newest come first: what an agent reaches for in such a tool is its latest
//! state. Past the share, the oldest are treated as any other part, and warned.
//!
//! Folding a turn away takes its protected parts out of the conversation, so the shell
//! carries their texts verbatim after the summary, newest first, up to the same share again
//! ([`Manager::carried`]), with what the user wrote in the room the summary's own share
//! leaves ([`Manager::user_carried`]); the summary may then be that much larger
//! ([`Config::summary_cap`](super::config::Config::summary_cap) plus
//! [`Config::protected_cap`](super::config::Config::protected_cap)).

use super::Manager;
use super::history::Part;
use super::ledger::Warning;

/// What the user's words carried after a summary take at most, as a share of the budget:
/// a fifth of the summary's share. More crowds out the turns the summary keeps live, and
/// recall of what the agent reaches for next falls (bench/recall.mjs at 50k: 0.932 with
/// none carried, 0.923 with the summary's whole room, 0.928 at this share).
pub const USER_WORDS_SHARE: f64 = 0.02;

/// The protected parts a request keeps whole: `(message, part)`, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Held(Vec<(usize, usize)>);

impl Held {
    pub fn holds(&self, message: usize, part: usize) -> bool {
        self.0.binary_search(&(message, part)).is_ok()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Manager {
    /// The protected parts the request holds that fit the share, newest first.
    pub fn held(&self) -> Held {
        let cap = self.config.protected_cap();
        if cap <= 0.0 {
            return Held::default();
        }
        let mut used = 0.0;
        let mut held = Vec::new();
        let messages: Vec<usize> = self.opening().chain(self.live()).collect();
        for &i in messages.iter().rev() {
            for (k, p) in self.history.messages[i].parts.iter().enumerate().rev() {
                if !p.protected {
                    continue;
                }
                if used + p.tokens > cap {
                    // The share is full: this and every older protected part are as any other.
                    held.reverse();
                    return Held(held);
                }
                used += p.tokens;
                held.push((i, k));
            }
        }
        held.reverse();
        Held(held)
    }

    /// A protected part past its share is about to be edited: the host is told.
    pub(super) fn editing(&mut self, p: &Part) {
        if p.protected {
            self.record.warn(Warning::ProtectedOverShare);
        }
    }

    /// Of the protected texts a summary would carry (their tokens, newest first), how many
    /// it carries: those that fit the share, from the newest on. Fewer than all is warned.
    pub fn carried(&mut self, tokens: &[f64]) -> usize {
        let n = fitting(tokens, self.config.protected_cap());
        if n < tokens.len() {
            self.record.warn(Warning::ProtectedOverShare);
        }
        n
    }

    /// Of what the user wrote in the turns a summary folds (their tokens, newest first),
    /// how many texts the summary carries verbatim: those that fit, from the newest on, in
    /// the room the summary's share leaves beside its own `used` tokens, and at most
    /// [`USER_WORDS_SHARE`] of the budget. The summary then
    /// stays within its cap ([`Manager::summarized`] checks it), so no decision changes.
    pub fn user_carried(&self, tokens: &[f64], used: f64) -> usize {
        let room =
            (self.config.summary_cap() - used).min((self.config.budget * USER_WORDS_SHARE).floor());
        fitting(tokens, room)
    }
}

/// How many of `tokens`, from the first on, fit in `room` together.
fn fitting(tokens: &[f64], room: f64) -> usize {
    let mut sum = 0.0;
    tokens
        .iter()
        .take_while(|&&t| {
            sum += t;
            sum <= room
        })
        .count()
}
