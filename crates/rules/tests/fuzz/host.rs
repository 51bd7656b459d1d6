//! The host, as the TS shell is one (`pkg/src/context/history.ts`, `engine.ts`): it keeps the
//! texts, counts them (`length / 4`), pairs results with calls by id (or offers the calls of
//! a name), lets go of the texts of folded messages at each commit, and applies every
//! change through the journal's events. What the shell would trip on (a need or a plan
//! naming a message it let go, a frame naming a text it was not given) is a panic here
//! too, opening with `shell:`.

use std::collections::HashMap;

use devs_context_rules::base::tokens::approx_tokens;
use devs_context_rules::context::config::{Config, Options};
use devs_context_rules::context::history::{ByName, PROTECTED_BIT};
use devs_context_rules::context::journal::{self, Event, Refusal};
use devs_context_rules::context::{Kind, Manager, NewMessage, Part, Role};

use super::shapes::{Format, GPart, Msg};

/// The protected tool, when the config protects one (`protectedTools: ['todo']`).
pub const PROTECTED: &str = "todo";

/// A part as the host keeps it: its text (as baked after a commit), its label, its id.
#[derive(Debug, Clone)]
pub struct Kept {
    pub kind: Kind,
    pub text: String,
    pub label: String,
    pub id: Option<String>,
}

/// How the manager was made: what a snapshot's restore makes again.
#[derive(Debug, Clone, Copy)]
pub struct Setup {
    pub format: Format,
    pub config: Config,
    pub system: f64,
    pub pinned: f64,
}

impl Setup {
    pub fn manager(&self) -> Manager {
        Manager::new("options", self.config, self.system, self.pinned)
            .expect("a valid setup makes a manager")
    }

    pub fn has_fixed(&self) -> bool {
        self.system + self.pinned > 0.0
    }
}

#[derive(Debug, Clone)]
pub struct Host {
    pub setup: Setup,
    pub m: Manager,
    /// Each message's parts, `None` once released (`History.release`).
    pub messages: Vec<Option<Vec<Kept>>>,
    released: usize,
    pinned: Vec<usize>,
    /// Texts shown otherwise (a placeholder, a cut) by `(message, part)`.
    pub shown: HashMap<(usize, usize), String>,
    pub call_ids: Vec<String>,
    pub call_names: Vec<String>,
    pub call_index: HashMap<String, usize>,
    forgotten: usize,
    /// Stored texts: id `n + 1` is `store[n]`; index lines by id.
    pub store: Vec<String>,
    pub lines: HashMap<String, String>,
    pub summary: String,
    /// The state the events since apply to (`None`: a fresh manager), and those events.
    pub base: Option<Vec<u8>>,
    pub events: Vec<Event>,
    /// Figures: appends refused, builds refused (too large, calibration), rolled back.
    pub refused: usize,
}

impl Host {
    pub fn new(setup: Setup) -> Host {
        Host {
            setup,
            m: setup.manager(),
            messages: Vec::new(),
            released: 0,
            pinned: Vec::new(),
            shown: HashMap::new(),
            call_ids: Vec::new(),
            call_names: Vec::new(),
            call_index: HashMap::new(),
            forgotten: 0,
            store: Vec::new(),
            lines: HashMap::new(),
            summary: String::new(),
            base: None,
            events: Vec::new(),
            refused: 0,
        }
    }

    /// Applies `e` through the manager's one entry point, journals it, and gives its need.
    pub fn ev(&mut self, e: Event) -> Result<devs_context_rules::context::Need, Refusal> {
        let need = self.m.apply(&e)?;
        self.events.push(e);
        Ok(need)
    }

    /// Applies an event the host's call always makes valid: a refusal is a finding.
    pub fn must(&mut self, e: Event) -> devs_context_rules::context::Need {
        let name = e.name();
        self.ev(e)
            .unwrap_or_else(|r| panic!("refused {name} in its place: {r:?}"))
    }

    pub fn units(text: &str) -> usize {
        text.encode_utf16().count()
    }

    pub fn count(text: &str) -> f64 {
        approx_tokens(Self::units(text)) as f64
    }

    /// What a part names beside its text (`namesOf`): a call's tool and id, a result's id.
    fn names_of(p: &GPart) -> String {
        let named = match p.kind {
            Kind::Result => p.id.clone().unwrap_or_default(),
            Kind::Call | Kind::ServerCall => {
                format!("{} {}", p.label, p.id.as_deref().unwrap_or(""))
            }
            _ => String::new(),
        };
        if named.trim().is_empty() {
            String::new()
        } else {
            named
        }
    }

    /// Appends a batch as `History.append` does: all or none. `false`: refused (the shell
    /// throws a TypeError naming the part; nothing changes).
    pub fn append(&mut self, batch: &[Msg]) -> bool {
        let (_, part_framing) = self.setup.format.framing();
        let protects = self.m.config.protected_share > 0.0;
        let mut ids: HashMap<String, usize> = HashMap::new();
        let mut names: Vec<(usize, String)> = Vec::new();
        let mut next = self.call_ids.len();
        let mut by_name = Vec::new();
        let mut open_from: Option<u32> = None;
        let mut out = Vec::with_capacity(batch.len());
        for (i, msg) in batch.iter().enumerate() {
            let mut parts = Vec::with_capacity(msg.parts.len());
            for (k, p) in msg.parts.iter().enumerate() {
                let mut tokens = if p.text.is_empty() {
                    0.0
                } else {
                    Self::count(&p.text)
                } + p.stated;
                let named = Self::names_of(p);
                if !named.is_empty() {
                    tokens += Self::count(&named);
                }
                let mut kind_byte = p.kind.code();
                let call = if p.kind.call() {
                    if let Some(id) = &p.id {
                        if ids.contains_key(id) || self.call_index.contains_key(id) {
                            // The shell refuses an id of a call still in the conversation.
                            self.refused += 1;
                            return false;
                        }
                        ids.insert(id.clone(), next);
                    }
                    names.push((next, p.label.clone()));
                    if protects && p.label == PROTECTED {
                        kind_byte |= PROTECTED_BIT;
                    }
                    next += 1;
                    Some((next - 1) as u32)
                } else if p.kind == Kind::Result || (p.id.is_some() && p.kind.media()) {
                    let call =
                        p.id.as_ref()
                            .and_then(|id| ids.get(id).or_else(|| self.call_index.get(id)))
                            .copied();
                    if p.id.is_none() && p.kind == Kind::Result && !p.label.is_empty() {
                        let from = *open_from.get_or_insert_with(|| self.m.history.open_from());
                        let mut offered: Vec<u32> = (from as usize..self.call_names.len())
                            .filter(|&c| self.call_names[c] == p.label)
                            .map(|c| c as u32)
                            .collect();
                        offered.extend(
                            names
                                .iter()
                                .filter(|(_, n)| *n == p.label)
                                .map(|(c, _)| *c as u32),
                        );
                        by_name.push(ByName {
                            message: i,
                            part: k,
                            candidates: offered,
                        });
                    }
                    let tool = if p.label.is_empty() {
                        call.and_then(|c| {
                            names
                                .iter()
                                .find(|(n, _)| *n == c)
                                .map(|(_, l)| l.clone())
                                .or_else(|| self.call_names.get(c).cloned())
                        })
                        .unwrap_or_default()
                    } else {
                        p.label.clone()
                    };
                    if p.kind == Kind::Result && protects && tool == PROTECTED {
                        kind_byte |= PROTECTED_BIT;
                    }
                    call.map(|c| c as u32)
                } else {
                    None
                };
                let (kind, protected) =
                    Part::read_kind_byte(kind_byte).expect("a kind byte the rules wrote");
                parts.push(Part {
                    protected,
                    ..Part::new(kind, Self::units(&p.text), tokens + part_framing, call)
                });
            }
            out.push(NewMessage {
                role: msg.role,
                framing: self.setup.format.framing().0,
                parts,
            });
        }
        // The binding: paired by the rules, journaled as paired.
        let paired = match self.m.append_by_name(out, &by_name) {
            Ok(paired) => paired,
            Err(_) => {
                self.refused += 1;
                return false;
            }
        };
        self.events.push(Event::Append(paired));
        for msg in batch {
            for p in &msg.parts {
                if p.kind.call() {
                    let n = self.call_ids.len();
                    self.call_ids.push(p.id.clone().unwrap_or_default());
                    self.call_names.push(p.label.clone());
                    if let Some(id) = &p.id {
                        self.call_index.insert(id.clone(), n);
                    }
                }
            }
            let kept = msg
                .parts
                .iter()
                .map(|p| Kept {
                    kind: p.kind,
                    text: p.text.clone(),
                    label: p.label.clone(),
                    id: p.id.clone(),
                })
                .collect();
            self.messages.push(Some(kept));
        }
        true
    }

    /// Part `k` of message `i` as the shell holds it; a released one is a shell crash.
    pub fn part(&self, i: usize, k: usize, why: &str) -> &Kept {
        match self.messages.get(i) {
            Some(Some(parts)) => parts.get(k).unwrap_or_else(|| {
                panic!(
                    "shell: {why} names part {k} of message {i}, which has {}",
                    parts.len()
                )
            }),
            Some(None) => panic!("shell: {why} names message {i}, released at a commit"),
            None => panic!("shell: {why} names message {i} of {}", self.messages.len()),
        }
    }

    /// What part `k` of message `i` is called (`History.label`).
    pub fn label(&self, i: usize, k: usize) -> String {
        let Some(Some(parts)) = self.messages.get(i) else {
            return String::new();
        };
        let p = &parts[k];
        if !p.label.is_empty() {
            return p.label.clone();
        }
        if p.kind == Kind::Result
            && let Some(id) = &p.id
        {
            return self
                .call_index
                .get(id)
                .and_then(|&c| self.call_names.get(c).cloned())
                .unwrap_or_else(|| "tool".into());
        }
        match self.m.history.messages.get(i).map(|m| m.role) {
            Some(Role::Assistant) => "assistant".into(),
            Some(Role::System) => "system".into(),
            _ => "user".into(),
        }
    }

    /// The text part `k` of message `i` shows: its placeholder or cut, else its own.
    pub fn shown_text(&self, i: usize, k: usize) -> Option<String> {
        self.shown.get(&(i, k)).cloned()
    }

    /// After a commit: messages behind the first live one go, but the pinned ones
    /// (`History.release`), and the calls of folded messages (`forgetCalls`).
    pub fn release(&mut self) {
        let live = self.m.first_live;
        let opening = self.m.opening();
        for &i in &self.pinned {
            if i < live && !opening.contains(&i) {
                self.messages[i] = None;
            }
        }
        while self.released < live {
            if !opening.contains(&self.released) {
                self.messages[self.released] = None;
            }
            self.released += 1;
        }
        self.pinned = opening.collect();
        let to = self.m.kept_call_ids();
        while self.forgotten < to.min(self.call_ids.len()) {
            let c = self.forgotten;
            if self.call_index.get(&self.call_ids[c]) == Some(&c) {
                self.call_index.remove(&self.call_ids[c]);
            }
            self.call_ids[c].clear();
            self.call_names[c].clear();
            self.forgotten += 1;
        }
    }

    /// The shell's snapshot and restore: the rules' state, read into a fresh manager.
    pub fn restored(&self) -> Host {
        let bytes = self.m.encode_state();
        let mut m = self.setup.manager();
        if let Err(e) = m.decode_state(&bytes) {
            panic!("diverged: a state just encoded is refused: {e:?}");
        }
        assert!(
            m.encode_state() == bytes,
            "diverged: a state decoded encodes otherwise"
        );
        let mut h = self.clone();
        h.m = m;
        h.base = Some(bytes);
        h.events.clear();
        h
    }

    /// The journal since the base, taken and applied again to the base: the same manager.
    pub fn check_journal(&self) {
        let bytes = journal::encode(&self.events);
        let events = journal::decode(&bytes)
            .unwrap_or_else(|e| panic!("diverged: a journal just encoded is refused: {e:?}"));
        let mut again = self.setup.manager();
        if let Some(base) = &self.base {
            again.decode_state(base).expect("the base state reads");
        }
        if let Err((at, why)) = again.apply_all(&events) {
            panic!(
                "diverged: event {at} ({}) of the journal is refused on replay: {why:?}",
                events[at].name()
            );
        }
        // What a later decision reads (the state) is the same; a build's scratch (its
        // record, its counters) may differ after one taken back.
        if again.encode_state() == self.m.encode_state() {
            return;
        }
        let (a, b) = (format!("{again:?}"), format!("{:?}", self.m));
        {
            if std::env::var("FUZZ_DEBUG").is_ok() {
                for e in &self.events {
                    eprintln!("  {e:?}");
                }
            }
            let at = a.bytes().zip(b.bytes()).position(|(x, y)| x != y);
            let at = at.unwrap_or(a.len().min(b.len()));
            let cut = |t: &str| t[at.saturating_sub(120)..(at + 80).min(t.len())].to_string();
            panic!(
                "diverged: the journal replayed makes another manager, at {at}: {} | {}",
                cut(&a),
                cut(&b)
            );
        }
    }
}

/// The config a case draws: the budget, and now and then the options a host sets.
pub fn draw_config(rng: &mut super::Rng) -> Config {
    let budget = [2_000.0, 8_000.0, 30_000.0, 100_000.0, 200_000.0][rng.index(5)];
    let mut o = Options::default();
    if rng.below(3) == 0 {
        o.protects = Some(true);
    }
    if rng.below(4) == 0 {
        o.keep_first = Some(false);
    }
    if rng.below(5) == 0 {
        o.keep_images = Some([1.0, 2.0, 5.0][rng.index(3)]);
    }
    if rng.below(6) == 0 {
        o.high_water = Some(0.9);
        o.low_water = Some(0.5);
    }
    if rng.below(8) == 0 {
        o.part_share = Some(0.25);
        o.summarizer_share = Some(0.6);
    }
    Config::new("options", budget, o).expect("a valid config")
}

/// The role's name, for a minimal sequence's print.
pub fn role_name(r: Role) -> &'static str {
    match r {
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::System => "system",
        Role::Tool => "tool",
    }
}
