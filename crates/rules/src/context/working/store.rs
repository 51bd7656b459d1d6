//! The user's words a fold takes out of the request are stored first, each whole under a
//! store id of its own, so the working state names an older one by its first line and that
//! id, and the agent recalls the whole text in one call (the recall tool reads the store).
//! The section names them, so the index gives them no line of its own.
//!
//! A compaction that only masks writes the section too ([`Manager::rewrite_after_mask`]).

use crate::context::history::{Kind, Role, Shown, Stored};
use crate::context::ledger::Trigger;
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

impl Manager {
    /// Once a compaction that only masked is done: the summary message written again with
    /// the working state as it stands now (`Need::Restate` over no messages, the summary's
    /// own words kept), so the section is rewritten at every compaction and at nothing else.
    /// Only where a summary already holds it, where it voids no thinking the masking left
    /// valid (a new summary voids what follows it), and where it fits below the high water.
    pub(in crate::context) fn rewrite_after_mask(&mut self) -> Option<Need> {
        if std::mem::replace(&mut self.rewritten, true) {
            return None;
        }
        let c = self.record.compaction.as_ref()?;
        let by_us = matches!(c.trigger, Trigger::HighWater | Trigger::Asked);
        if !by_us
            || c.summarized.is_some()
            || c.dropped.is_some()
            || self.record.masked.is_empty()
            || self.anchored.is_some()
            || self.summary_tokens <= 0.0
        {
            return None;
        }
        let room = self.config.budget * self.config.high_water;
        if self.predicted(self.config.working_cap()).ceil() > room {
            return None;
        }
        let (em, ek) = self.edit_point()?;
        let thinking_before =
            (self.first_live..=em.min(self.history.messages.len() - 1)).any(|i| {
                self.history.messages[i]
                    .parts
                    .iter()
                    .enumerate()
                    .any(|(k, p)| {
                        p.kind == Kind::Thinking && p.shown != Shown::Dropped && (i < em || k < ek)
                    })
            });
        if thinking_before {
            return None;
        }
        Some(Need::Restate {
            from: self.first_live,
            to: self.first_live,
        })
    }
}
