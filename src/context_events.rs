//! The manager's changing calls: each is an `Event` of the rules' journal, applied through
//! `Manager::apply` and written to the journal the shell takes (`take_journal`) to keep a
//! snapshot or a session's rows. A build's events are kept once it commits; a rollback
//! drops them. Restoring applies a journal again (`apply_journal`): checked whole first.

use devs_context_rules::context::journal::{self, Event, Refusal};
use devs_context_rules::context::migrate;
use devs_context_rules::context::{ByName, Kind, NewMessage, Part, Role, recall};
use wasm_bindgen::prelude::*;

use crate::Out;
use crate::context::{ManagerCore, ask};
use crate::journal_out::JournalOut;

impl ManagerCore {
    /// Applies `e` and journals it; a live call out of place is a bug of the shell's.
    fn event(&mut self, e: Event) -> Out<devs_context_rules::context::Need> {
        let need = self.m.apply(&e).map_err(|r| refusal(&e, r))?;
        if e.kept() {
            self.journal.push(&e);
        }
        Ok(need)
    }

    /// The next need (`Need::encode`), then what the shell reads of the step's outcome: a
    /// byte, 1 if a summary is held, and the first live message as 4 bytes little-endian
    /// (`reply` in `pkg/src/context/build.ts`), so no getter follows a summary taken.
    fn answer(&mut self, e: Event) -> Out<Vec<u8>> {
        let mut out = self.event(e)?.encode(&self.m);
        out.push(u8::from(self.m.summary_tokens > 0.0));
        out.extend((self.m.first_live as u32).to_le_bytes());
        Ok(out)
    }
}

/// `[message, part, n, n candidates]…`, as the shell packs them; a short tail is dropped.
fn by_names(flat: &[u32]) -> Vec<ByName> {
    let mut out = Vec::new();
    let mut at = 0;
    while let [message, part, n, rest @ ..] = &flat[at..] {
        let Some(candidates) = rest.get(..*n as usize) else {
            break;
        };
        out.push(ByName {
            message: *message as usize,
            part: *part as usize,
            candidates: candidates.to_vec(),
        });
        at += 3 + *n as usize;
    }
    out
}

fn refusal(e: &Event, r: Refusal) -> String {
    match r {
        Refusal::Field(f) => crate::fail(f),
        Refusal::Refused(_) => crate::fail(devs_context_errors::FieldError::type_error(
            format!("journal.{}", e.name()),
            "does not fit the conversation",
        )),
        Refusal::OutOfPlace(_) | Refusal::Recorded { .. } | Refusal::Due { .. } => crate::fail(
            devs_context_errors::FieldError::type_error(format!("journal.{}", e.name()), r.words())
                .with_code(code(&r)),
        ),
    }
}

/// The code of an event the rules did not ask for: data that earlier rules wrote (and
/// today's decide otherwise on), or data altered (`migrate`).
pub(crate) const OUT_OF_PLACE: &str = "ERR_OUT_OF_PLACE";
/// The code of a replayed build that today's rules count short of what its data recorded
/// (`migrate::Why::Counts`).
pub(crate) const OTHER_COUNTS: &str = "ERR_OTHER_COUNTS";
/// The code of old data whose next build takes something out, by marks its version may
/// have placed elsewhere (`migrate::Why::Marks`).
pub(crate) const OTHER_MARKS: &str = "ERR_OTHER_MARKS";

/// The code of a refusal of data that may be old (`migrate`), or `""`.
fn code(r: &Refusal) -> &'static str {
    match r {
        Refusal::Recorded {
            why: migrate::Why::Counts,
            ..
        } => OTHER_COUNTS,
        Refusal::Due { .. } => OTHER_MARKS,
        Refusal::Recorded { .. } | Refusal::OutOfPlace(_) => OUT_OF_PLACE,
        Refusal::Field(_) | Refusal::Refused(_) => "",
    }
}

#[wasm_bindgen]
impl ManagerCore {
    /// Appends messages, all or none. Per message: its role and framing, and how many
    /// parts it has; per part: its kind (with `PROTECTED_BIT` for a protected tool's), UTF-16 units, tokens, and the call it answers
    /// (-1 for none). `by_name`: per id-less result, `[message, part, n, n candidate calls]`
    /// (`ByName`). Returns, read by `appended` in `pkg/src/context/history.ts`: `[1]`, the
    /// message and the part + 1 (0: the message) as 4 bytes little-endian each, the
    /// rejection's code and its words (UTF-8), when refused; else `[0]`, then, with `take` and no build open, the
    /// journal taken (`take_journal`), in the same crossing.
    #[allow(clippy::too_many_arguments)]
    pub fn append(
        &mut self,
        roles: &[u8],
        framing: &[f64],
        part_counts: &[u32],
        kinds: &[u8],
        units: &[u32],
        tokens: &[f64],
        calls: &[f64],
        by_name: &[u32],
        take: bool,
    ) -> Vec<u8> {
        let mut batch = Vec::with_capacity(roles.len());
        let mut k = 0;
        for (i, &role) in roles.iter().enumerate() {
            let n = part_counts.get(i).copied().unwrap_or(0) as usize;
            let parts = (k..k + n)
                .map(|j| {
                    let call = calls
                        .get(j)
                        .copied()
                        .filter(|c| *c >= 0.0)
                        .map(|c| c as u32);
                    let (kind, protected) = kinds
                        .get(j)
                        .copied()
                        .and_then(Part::read_kind_byte)
                        .unwrap_or((Kind::Opaque, false));
                    Part {
                        protected,
                        ..Part::new(
                            kind,
                            units.get(j).copied().unwrap_or(0) as usize,
                            tokens.get(j).copied().unwrap_or(0.0),
                            call,
                        )
                    }
                })
                .collect();
            k += n;
            batch.push(NewMessage {
                role: Role::from_code(role).unwrap_or(Role::User),
                framing: framing.get(i).copied().unwrap_or(0.0),
                parts,
            });
        }
        match self.m.append_by_name(batch, &by_names(by_name)) {
            Ok(paired) => {
                self.journal.push(&Event::Append(paired));
                let mut out = vec![0];
                if take && self.journal.open.is_none() {
                    out.extend(self.take_journal());
                }
                out
            }
            Err(r) => {
                let mut out = vec![1];
                out.extend((r.message as u32).to_le_bytes());
                out.extend((r.part.map_or(0, |p| p + 1) as u32).to_le_bytes());
                out.push(r.why.code());
                out.extend(r.why.words().as_bytes());
                out
            }
        }
    }

    /// The first call the open turn holds: the host offers no candidate before it.
    pub fn open_from(&self) -> u32 {
        self.m.history.open_from()
    }

    /// The call an id-less recall answers, of `candidates` (the recall tool's calls); -1: none.
    pub fn open_recall(&self, candidates: &[u32]) -> f64 {
        self.m.open_recall(candidates).map_or(-1.0, f64::from)
    }

    /// Traps, as a panic does in the release build (it aborts): how the package's tests
    /// check that a trap in the middle of a manager's call is survived
    /// (`pkg/test/trap.test.mjs`, `pkg/src/core/guard.ts`). Not part of the API.
    #[wasm_bindgen(js_name = __trapForTests)]
    pub fn trap_for_tests(&mut self) {
        panic!("a trap the tests asked for");
    }

    /// Ends the build, and returns in the same crossing what the shell reads after every
    /// build, in the order `committed` in `pkg/src/context/history.ts` reads it: the figures
    /// of `status` (8 bytes little-endian each), per part of `shown` (`[message, part]…`,
    /// those shown in the build) a byte, 1 if it is stored, then with `take` the journal
    /// taken (`take_journal`).
    pub fn commit(&mut self, shown: &[u32], take: bool) -> Out<Vec<u8>> {
        self.event(Event::Commit)?;
        self.journal.open = None;
        let mut out: Vec<u8> = self.status().iter().flat_map(|f| f.to_le_bytes()).collect();
        out.extend(
            shown
                .chunks_exact(2)
                .map(|p| u8::from(self.m.store_id(p[0] as usize, p[1] as usize).is_some())),
        );
        if take {
            out.extend(self.take_journal());
        }
        Ok(out)
    }

    /// The build failed: the manager is as it was before `begin`, and its events are gone.
    pub fn rollback(&mut self) {
        self.m.rollback();
        if let Some((len, count)) = self.journal.open.take() {
            self.journal.bytes.truncate(len);
            self.journal.count = count;
        }
    }

    /// Takes an event the shell gives (`encodeAnswer` in `pkg/src/core/protocol.ts`,
    /// `journal::ANSWERS`): the answer to the need in flight, what it says on the way to
    /// one, or a call of the host's (a build's begin and plan, the tail, …); applies and
    /// journals it, and returns the next need: one crossing per answer.
    pub fn advance(&mut self, answer: &[u8]) -> Out<Vec<u8>> {
        let e =
            journal::decode_answer(answer).map_err(|e| crate::fail(e.field_error("journal")))?;
        let mark = (self.journal.bytes.len(), self.journal.count);
        let reply = self.answer(e.clone())?;
        if e == Event::Begin {
            self.journal.open = Some(mark);
        }
        Ok(reply)
    }

    /// The request as a plan (see `render::Plan::encode`).
    pub fn render(&mut self, has_fixed: bool) -> Out<Vec<f64>> {
        self.event(Event::Render { has_fixed })?;
        Ok(self
            .m
            .pending_plan()
            .map(|p| p.encode())
            .unwrap_or_default())
    }

    /// A recall of `id` by call `call` (-1: none) was answered with its text.
    pub fn recalled(
        &mut self,
        call: f64,
        id: &str,
        offset: f64,
        length: f64,
        query: &str,
    ) -> Out<()> {
        let call = (call >= 0.0).then_some(call as u32);
        let ask: recall::Ask = ask(offset, length, query);
        self.event(Event::Recalled {
            call,
            id: id.to_string(),
            ask,
        })
        .map(|_| ())
    }

    /// Rebuilt from old data, its messages appended already (`migrate`): `opening` when its
    /// opening message was pinned, its `summary` tokens, and every text it stored: `ids`
    /// joined (`joinTexts`, `lens`) with their lines' `tokens`; `from` the data's decisions
    /// and `why` the reason (`migrate::Why`).
    #[allow(clippy::too_many_arguments)]
    pub fn migrate(
        &mut self,
        opening: bool,
        summary: f64,
        ids: &str,
        lens: &[u32],
        tokens: &[f64],
        from: u32,
        why: u8,
    ) -> Out<()> {
        let ids: Vec<(String, f64)> = devs_context_rules::base::text::split_texts(ids, lens)
            .into_iter()
            .zip(tokens.iter().copied())
            .map(|(id, t)| (id.to_string(), t))
            .collect();
        self.event(Event::Migrated {
            opening,
            summary,
            ids,
            from,
            why,
        })
        .map(|_| ())
    }

    /// The events applied since the last call, committed ones only, as a journal (an
    /// empty one when there are none).
    pub fn take_journal(&mut self) -> Vec<u8> {
        let j = &mut self.journal;
        let (len, count) = j.open.unwrap_or((j.bytes.len(), j.count));
        let events: Vec<u8> = j.bytes.drain(..len).collect();
        j.count -= count;
        if let Some(open) = j.open.as_mut() {
            *open = (0, 0);
        }
        journal::frame(count, &events)
    }

    /// Holds the builds replayed from now on to what old data recorded of them, until
    /// `replayed` (`Manager::expect`): per record, its request number, its tokens and its
    /// raw tokens (NaN: not recorded); `decisions` the data's (NaN: it says none).
    pub fn expect_records(
        &mut self,
        decisions: f64,
        requests: &[f64],
        tokens: &[f64],
        raw: &[f64],
    ) {
        let d = (decisions.is_finite() && decisions >= 0.0).then_some(decisions as u32);
        let records = requests
            .iter()
            .zip(tokens.iter().zip(raw))
            .filter(|(r, _)| r.is_finite() && **r >= 1.0)
            .map(|(&r, (&tokens, &raw))| (r as u64, migrate::Recorded { tokens, raw }))
            .collect();
        self.m.expect(d, records);
    }

    /// The replay `expect_records` began is over: an error naming `field` when the next
    /// build may not be the one the data's version would make (`Manager::replayed`).
    pub fn replayed(&mut self, field: &str) -> Out<()> {
        self.m.replayed().map_err(|r| {
            crate::fail(
                devs_context_errors::FieldError::type_error(field, r.words()).with_code(code(&r)),
            )
        })
    }

    /// The manager's state between builds, encoded by the rules (`context::state`).
    pub fn state(&self) -> Vec<u8> {
        self.m.encode_state()
    }

    /// Makes this new manager the one `bytes` encodes, checked whole first; an altered,
    /// cut short or newer state is an error naming `field` and where, and nothing changes.
    /// Its journal starts empty: the state holds what the events before it made.
    pub fn restore_state(&mut self, bytes: &[u8], field: &str) -> Out<()> {
        self.m
            .decode_state(bytes)
            .map_err(|e| crate::fail(e.field_error(field)))?;
        self.journal = JournalOut::default();
        Ok(())
    }

    /// The store ids whose index lines a restored manager needs: those the index names, and
    /// those of the parts still shown. One text each.
    pub fn needed_lines(&self) -> String {
        let m = &self.m;
        let live = m
            .store_ids
            .iter()
            .filter(|((i, _), _)| *i >= m.first_live || *i == 0)
            .map(|(_, id)| id.as_str());
        crate::frame(|f| {
            for id in m.index.ids().chain(live) {
                f.text(|p| {
                    p.lit(id);
                });
            }
        })
    }

    /// Applies a journal taken from a manager made the same way, checked whole first: all
    /// of its events, or none. An altered, cut short or newer one is an error naming
    /// `field` and where; its events are not journaled again (the shell keeps them).
    pub fn apply_journal(&mut self, bytes: &[u8], field: &str) -> Out<()> {
        let events = journal::decode(bytes).map_err(|e| crate::fail(e.field_error(field)))?;
        self.m.apply_all(&events).map_err(|(i, r)| {
            let e = &events[i];
            let error = devs_context_errors::FieldError::type_error(
                format!("{field}.journal[{i}].{}", e.name()),
                r.words(),
            );
            crate::fail(match code(&r) {
                "" => error,
                c => error.with_code(c),
            })
        })
    }
}
