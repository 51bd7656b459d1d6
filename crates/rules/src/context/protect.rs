//! Tools the host protects (`protectedTools`: a memory, a todo list, a plan, a skill): their
//! calls and results are never masked, cut or folded away while they fit their share of the
//! budget. The newest come first: what an agent reaches for in such a tool is its latest
//! state. Past the share, the oldest are treated as any other part, and warned.
//!
//! Folding a turn away takes its protected parts out of the conversation, so the shell
//! carries their texts verbatim after the summary, newest first, up to the same share again
//! ([`Manager::carried`]); the summary may then be that much larger
//! ([`Config::summary_cap`](super::config::Config::summary_cap) plus
//! [`Config::protected_cap`](super::config::Config::protected_cap)).

use super::Manager;
use super::history::Part;
use super::ledger::Warning;

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
