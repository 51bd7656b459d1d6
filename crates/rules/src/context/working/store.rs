//! The user's words a fold takes out of the request are stored first, each whole under a
//! store id of its own, so the working state names an older one by its first line and that
//! id, and the agent recalls the whole text in one call (the recall tool reads the store).
//! The section names them, so the index gives them no line of its own.

use crate::context::history::{Kind, Role, Stored};
use crate::context::{Manager, Need};

impl Manager {
    /// Before `need`: the next user text it folds away that is not stored yet, to be stored
    /// first (`Need::Persist`), the need held back until then. Only a summary's fold and the
    /// provider's compaction write the working state; a pinned message stays whole.
    pub(in crate::context) fn store_words_first(&mut self, need: Need) -> Need {
        let (from, to) = match need {
            Need::Summarize { from, to } | Need::Restate { from, to } => (from, to),
            _ => return need,
        };
        let pinned = self.pinned();
        for i in from..to.min(self.history.messages.len()) {
            let m = &self.history.messages[i];
            if m.role != Role::User || pinned.contains(&i) {
                continue;
            }
            for (k, p) in m.parts.iter().enumerate() {
                if p.kind != Kind::Text || p.units == 0 {
                    continue;
                }
                if !self.words_named.contains(&(i, k)) {
                    self.words_named.push((i, k));
                }
                if p.stored == Stored::No {
                    self.folding = Some(need);
                    return Need::Persist {
                        message: i,
                        part: k,
                    };
                }
            }
        }
        need
    }

    /// Whether the working state names part `part` of message `message` (a user text this
    /// build stored before folding it): the index gives it no line.
    pub(in crate::context) fn named_by_working(&self, message: usize, part: usize) -> bool {
        self.words_named.contains(&(message, part))
    }
}
