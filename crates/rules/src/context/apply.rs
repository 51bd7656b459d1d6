//! Applying the journal's events: [`Manager::apply`] is the one entry point that takes
//! them, live or replayed, and refuses one out of place (an answer to a need the manager
//! does not have, a build's event outside a build).

use super::journal::{Event, Refusal};
use super::{Manager, Need};

impl Manager {
    /// Applies one change: the one entry point, for a live call and a replayed one alike.
    /// An answer to a need the manager does not have, or a build's event outside a build,
    /// is refused, and nothing changes.
    pub fn apply(&mut self, event: &Event) -> Result<Need, Refusal> {
        use Event::*;
        let in_build = self.in_build();
        let pending = self.pending_need();
        let out_of_place = |why| Err(Refusal::OutOfPlace(why));
        match event {
            Append(batch) => self
                .append(batch.clone())
                .map(|()| Need::Done)
                .map_err(Refusal::Refused),
            Begin if in_build => out_of_place("a build begins inside another"),
            Begin => {
                self.begin();
                Ok(Need::Done)
            }
            Commit | Plan | Render { .. } | Defer if !in_build => out_of_place("outside a build"),
            Defer => {
                self.defer = true;
                Ok(Need::Done)
            }
            Commit => {
                self.as_recorded()?;
                self.commit();
                Ok(Need::Done)
            }
            Plan => self.plan().map_err(Refusal::Field),
            Stored { id, line } => match pending {
                Some(Need::Persist { .. }) => Ok(self.persisted(id.clone(), *line)),
                _ => out_of_place("no text was asked to be stored"),
            },
            SpanStored { id, line } => match pending {
                Some(Need::PersistSpan { .. }) => Ok(self.span_persisted(id.clone(), *line)),
                _ => out_of_place("no transcript was asked to be stored"),
            },
            Listed { id, line } => match pending {
                Some(Need::PersistGroup { .. }) => Ok(self.group_persisted(id.clone(), *line)),
                _ => out_of_place("no listing was asked to be stored"),
            },
            Merged { id, line } => match pending {
                Some(Need::MergeSpans { .. }) => Ok(self.spans_merged(id.clone(), *line)),
                _ => out_of_place("no merge was asked for"),
            },
            Measured(tokens) => match pending {
                Some(Need::Placeholder { .. } | Need::Cut { .. }) => Ok(self.measured(*tokens)),
                _ => out_of_place("nothing was asked to be measured"),
            },
            Summarized(tokens) => match pending {
                Some(Need::Summarize { .. }) => Ok(self.summarized(*tokens)),
                Some(Need::Restate { .. }) => Ok(self.restated(*tokens)),
                _ => out_of_place("no summary was asked for"),
            },
            SummaryFailed => match pending {
                Some(Need::Summarize { .. }) => Ok(self.summary_failed()),
                _ => out_of_place("no summary was asked for"),
            },
            NoSummarizer => match pending {
                Some(Need::Summarize { .. }) => Ok(self.no_summarizer()),
                _ => out_of_place("no summary was asked for"),
            },
            Described { text, args, media } => match pending {
                Some(
                    need @ (Need::Persist { .. }
                    | Need::Placeholder { .. }
                    | Need::PersistSpan { .. }
                    | Need::MergeSpans { .. }),
                ) => {
                    self.told.0 = self.describe(need, text, args, media);
                    Ok(Need::Measure)
                }
                _ => out_of_place("nothing was asked that a description says"),
            },
            Carried { tokens } => match pending {
                Some(Need::Restate { .. } | Need::Summarize { .. }) => {
                    self.told.1 = self.carried(tokens);
                    Ok(Need::Fit)
                }
                _ => out_of_place("no summary was asked for"),
            },
            Render { has_fixed } => match pending {
                Some(Need::Done) => {
                    self.render(*has_fixed);
                    Ok(Need::Done)
                }
                _ => out_of_place("the build is not done"),
            },
            Tail(tokens) => {
                self.set_tail(*tokens);
                Ok(Need::Done)
            }
            Compact => {
                self.forced = true;
                Ok(Need::Done)
            }
            Observed(tokens) => self
                .observe(*tokens)
                .map(|()| Need::Done)
                .map_err(Refusal::Field),
            Time(now) => self
                .clock
                .set(*now)
                .map(|()| Need::Done)
                .map_err(Refusal::Field),
            CalibrationReset => {
                self.calibration.reset();
                Ok(Need::Done)
            }
            Recalled { call, id, ask } => {
                self.recalled(*call, id, ask);
                Ok(Need::Done)
            }
            HistoryRebuilt => {
                self.history_rebuilt();
                Ok(Need::Done)
            }
            Migrated { .. } if in_build => out_of_place("inside a build"),
            Migrated {
                opening,
                summary,
                ids,
                from,
                why,
            } => {
                let why = super::migrate::Why::from_code(*why)
                    .ok_or(Refusal::OutOfPlace("not a reason"))?;
                self.migrate(*opening, *summary, ids, *from, why);
                Ok(Need::Done)
            }
        }
    }

    /// Applies a journal's events in order, to a copy: all of them, or none (the manager
    /// stays as it was). `Err((index, refusal))` names the first event refused.
    pub fn apply_all(&mut self, events: &[Event]) -> Result<(), (usize, Refusal)> {
        let mut copy = self.clone();
        for (i, e) in events.iter().enumerate() {
            copy.apply(e).map_err(|r| (i, r))?;
        }
        *self = copy;
        Ok(())
    }
}
