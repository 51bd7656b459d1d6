//! Data an earlier version wrote, when today's rules cannot replay it. A journal (or a
//! format 1 call log) records the answers to the needs that the rules of its day asked
//! for; rules that now decide otherwise (a new step, a new kind of part) ask for other
//! needs, and the old answers are out of place at the first that differs. That is no
//! alteration: the session is rebuilt once from what the data holds (its messages, the
//! texts it stored, its summary), every stored id stays the manager's own and named in
//! the index, and the next request says so (`format-migrated`). A journal whose builds
//! are not shaped as builds, or data of today's rules that is out of place, was altered:
//! it is refused, naming where.
//!
//! Answers in place are not enough. The answers of old data fit today's needs whenever
//! today's rules ask for the same kinds of steps, even when they count the request
//! otherwise (calibration keeps a margin since decisions 3) or store, summarize or mask
//! another part; and the data does not say the marks its version resolved from the
//! defaults (highWater was 0.9, then 0.85, and is 0.75 since 6f668ed). The replay would
//! go through, and the next build, deciding on today's count and marks, would silently be
//! another request than the old version's. So data of earlier rules is held, as it is
//! replayed, to what its version recorded of each build ([`Recorded`]: the same request,
//! by our own count, counted no higher than today's rules count it), and after it to a
//! next build that takes nothing out ([`Manager::next_as_recorded`]). Every version's
//! marks were at or above today's, so a request today's rules leave whole, its version,
//! counting it no higher, left whole too.

use super::journal::Refusal;
use super::ledger::{Warning, WarningRecord};
use super::{Manager, Need};
use crate::base::args::show_number;

/// The rules' decisions on replay, numbered: bumped by a change that makes them decide
/// otherwise on the same events. 1: everything written before the number was kept (a
/// call log, a journal, a state of version 1); 2: images and documents, server tools,
/// call inputs shortened, the provider's compaction pinned; 3: older images leave in
/// chunks sized by the cache's prices, and calibration never loosens the count of text
/// and keeps a margin above its fit; 4 (issue 49): the newest `keepImages` images stay
/// whole through a compaction (masking spares them, a fold spares their turns while they
/// fit below halfway between the water marks); the squeeze cuts every part over one level
/// rather than the largest to a stub; the summary a compaction writes holds the working
/// state (the user's words, the file trail and the open calls), so it counts otherwise,
/// and turns a summarizer-less compaction dropped are folded into a summary of that alone;
/// 5 (issue 49): the user texts a fold takes away are stored first (the working state names
/// the older ones by store id), a failed summarizer's turns are asked again and folded
/// as with none, and the provider's compaction restates the working state after it.
pub const DECISIONS: u32 = 5;

/// Why data was rebuilt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// A build's answers are out of place under today's rules.
    Decisions = 0,
    /// Its messages read as other parts under today's adapters.
    Shapes = 1,
    /// Today's rules count its requests short of what it recorded: what hangs on the
    /// count (when to compact, what to take out) may fall otherwise.
    Counts = 2,
    /// Its next request takes something out (or is past the high water mark), by marks
    /// that its version may have placed elsewhere.
    Marks = 3,
}

impl Why {
    pub fn from_code(code: u8) -> Option<Why> {
        match code {
            0 => Some(Why::Decisions),
            1 => Some(Why::Shapes),
            2 => Some(Why::Counts),
            3 => Some(Why::Marks),
            _ => None,
        }
    }
}

/// The events' tags, in a journal's order: where the first one out of a build's shape is
/// (an answer outside a build, a build with no plan, two renders), or `None` for a journal
/// shaped as builds are, whatever those builds decided. Tags as a journal's events encode them.
pub fn misshapen(tags: &[u8]) -> Option<usize> {
    #[derive(PartialEq)]
    enum At {
        Between,
        Begun,
        Planned,
        Rendered,
    }
    let mut at = At::Between;
    for (i, &tag) in tags.iter().enumerate() {
        at = match (tag, &at) {
            // Between builds: what the host does, and a build beginning.
            (1 | 14 | 15 | 16 | 17 | 18 | 19 | 20 | 24, At::Between) => At::Between,
            (2, At::Between) => At::Begun,
            // A build's own appends (reminders, a shared session's queue) come before its plan;
            // a session journals each call of the host's between a begin and a commit, no plan.
            // The host's `beforeCompaction` deferring it, before its plan too.
            (1 | 14 | 15 | 16 | 17 | 18 | 19 | 21 | 24, At::Begun) => At::Begun,
            (3, At::Begun) => At::Between,
            (4, At::Begun) => At::Planned,
            // The answers to what it needed, then its render and commit.
            (5..=12, At::Planned) => At::Planned,
            (13, At::Planned) => At::Rendered,
            (3, At::Rendered) => At::Between,
            _ => return Some(i),
        };
    }
    None
}

/// What a build of old data came to, as the version that wrote it recorded it (its ledger
/// record): the request's `tokens` as calibrated, on which the steps are decided, and our
/// own count of it (`rawTokens`), which differs when another request was made. NaN: not
/// recorded (a version before the field).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Recorded {
    pub tokens: f64,
    pub raw: f64,
}

/// Rounding: counts recorded as JSON numbers of the same sums differ by no more.
fn slack(recorded: f64) -> f64 {
    1e-6 * recorded.abs().max(1.0)
}

impl Refusal {
    /// Why a replayed build is refused, worded after the event's name: `is out of place: …`.
    pub fn words(&self) -> String {
        match self {
            Refusal::Due { tokens, mark } => format!(
                "is out of place: its next request comes to {} tokens by today's rules, and is due to take something out of the conversation or past the high water mark of {}, which earlier versions placed otherwise",
                show_number(*tokens),
                show_number(*mark)
            ),
            Refusal::Recorded {
                request,
                what,
                recorded,
                replayed,
                ..
            } => format!(
                "is out of place: request {request} came to {} ({what}) by today's rules, {} as the version that wrote it recorded",
                show_number(*replayed),
                show_number(*recorded)
            ),
            Refusal::OutOfPlace(why) => format!("is out of place: {why}"),
            Refusal::Refused(_) => "does not fit the conversation".into(),
            Refusal::Field(f) => f.message.clone(),
        }
    }
}

/// Whether data that failed to replay for `why` is rebuilt: written by earlier rules
/// (`decisions` below today's, `None` when it says none) and shaped as builds.
pub fn migratable(decisions: Option<u32>, shaped: bool) -> bool {
    shaped && decisions.is_none_or(|d| d < DECISIONS)
}

impl Manager {
    /// Holds the builds replayed from now on to what data of rules `decisions` (`None`:
    /// before they were numbered) recorded of them, by request number, until
    /// [`Manager::replayed`]. Nothing for data of today's rules: it replays as it was made.
    pub fn expect(&mut self, decisions: Option<u32>, records: Vec<(u64, Recorded)>) {
        self.expected = decisions
            .is_none_or(|d| d < DECISIONS)
            .then(|| records.into_iter().collect());
    }

    /// The replay `expect` began is over: whether its next build is one the data's version
    /// would make too ([`Manager::next_as_recorded`]). The records are let go either way.
    pub fn replayed(&mut self) -> Result<(), Refusal> {
        let check = self.next_as_recorded();
        self.expected = None;
        check
    }

    /// After data of earlier rules was replayed (`expect`), whether its next build is one
    /// its version would make too: one that takes nothing out and is under today's high
    /// water mark. Every earlier version's marks were at or above today's, and it counted
    /// no higher (`as_recorded`), so it took nothing out either, and the request is the old
    /// one and what came since. Anything else (a compaction due, a part cut, a mark held
    /// back by the last compaction) may have fallen otherwise: out of place.
    pub fn next_as_recorded(&self) -> Result<(), Refusal> {
        if self.expected.is_none() || self.in_build() {
            return Ok(());
        }
        let mut dry = self.clone();
        dry.expected = None;
        dry.begin();
        let plain = matches!(dry.plan(), Ok(Need::Done)) && dry.record.compaction.is_none();
        let mark = self.config.budget * self.config.high_water;
        if plain && !self.over(self.config.high_water) {
            return Ok(());
        }
        Err(Refusal::Due {
            tokens: self.tokens(),
            mark,
        })
    }

    /// A replayed build, rendered and about to commit, against what its version recorded:
    /// our own count first (another one: another request was made, its decisions differ),
    /// then the request's tokens. Today's rules may count higher (calibration keeps a margin
    /// since decisions 3): whatever that makes them take out is out of place in the replay,
    /// or after it (`next_as_recorded`). Counted short of what its version counted, a
    /// request may have had something taken out that today's rules leave: out of place.
    pub(crate) fn as_recorded(&self) -> Result<(), Refusal> {
        if self.pending_plan.is_none() {
            return Ok(());
        }
        let request = self.record.request;
        let Some(&Recorded { tokens, raw }) = self.expected.as_ref().and_then(|e| e.get(&request))
        else {
            return Ok(());
        };
        let differs = |why, what, recorded: f64, replayed| Refusal::Recorded {
            why,
            request,
            what,
            recorded,
            replayed,
        };
        let (ours, counted) = (self.record.raw_tokens, self.record.tokens);
        if !raw.is_nan() && (raw - ours).abs() > slack(raw) {
            return Err(differs(Why::Decisions, "rawTokens", raw, ours));
        }
        if !tokens.is_nan() && tokens - counted > slack(tokens) {
            return Err(differs(Why::Counts, "tokens", tokens, counted));
        }
        Ok(())
    }

    /// The ids an encoded state (`bytes`) holds its own: none when it does not decode. Made
    /// with default options, as only its ids are read.
    pub fn ids_of_state(bytes: &[u8]) -> Vec<String> {
        let Ok(config) = super::config::Config::new("options", 1_000_000.0, Default::default())
        else {
            return Vec::new();
        };
        let Ok(mut m) = Manager::new("options", config, 0.0, 0.0) else {
            return Vec::new();
        };
        if m.decode_state(bytes).is_err() {
            return Vec::new();
        }
        m.lines.keys().cloned().collect()
    }

    /// The manager rebuilt from what old data holds, its messages appended already:
    /// the opening one pinned when it was (`opening`), the summary it had (`summary`
    /// tokens), and every text it stored (`ids`, with their lines' tokens), each the
    /// manager's own and named in the index. The next request's ledger says so.
    pub(crate) fn migrate(
        &mut self,
        opening: bool,
        summary: f64,
        ids: &[(String, f64)],
        from: u32,
        why: Why,
    ) {
        if opening && self.pins_first() && !self.history.messages.is_empty() {
            self.first_live = 1;
        }
        if summary > 0.0 {
            self.summary_tokens = summary;
            self.summary_version += 1;
        }
        for (id, tokens) in ids {
            self.note_line(id, *tokens);
            let t = self.lines.get(id).copied().unwrap_or(*tokens);
            self.index.add(id, t, None);
        }
        self.migrated = Some((from, why));
    }

    /// The warning of a build after a migration, worded: from which data, and why.
    pub(crate) fn migrated_warning(from: u32, why: Why) -> WarningRecord {
        let data = if from <= 1 {
            "written by a version of @devs/context before 0.2 (a call log, or a journal of its rules)".to_string()
        } else {
            format!(
                "written by rules that decided otherwise (decisions {}, now {})",
                show_number(f64::from(from)),
                show_number(f64::from(DECISIONS))
            )
        };
        let because = match why {
            Why::Decisions => "today's rules ask for other steps than the ones it recorded",
            Why::Shapes => {
                "its messages read as other parts today (images, server tools and documents are parts of their own)"
            }
            Why::Counts => {
                "today's rules count its requests short of what it recorded, so what hangs on the count (when to compact, what to take out) may fall otherwise"
            }
            Why::Marks => {
                "its next request is due to take something out of the conversation by today's marks, which that version may have placed elsewhere (the default highWater was 0.9, then 0.85, and is 0.75 now)"
            }
        };
        WarningRecord {
            code: Warning::FormatMigrated.code(),
            message: format!(
                "the session was {data}, and {because}: it was rebuilt once from its messages, the texts it stored and its summary. Every stored id is still recallable and named in the index; this request is not the one that version would have built, and requests are append-only again from here"
            ),
        }
    }
}

#[cfg(test)]
#[path = "tests/migrate.rs"]
mod tests;
