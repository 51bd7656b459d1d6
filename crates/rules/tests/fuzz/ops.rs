//! A case: a format, a config, and a sequence of what a host does to its manager.

use devs_context_rules::context::journal::Event;
use devs_context_rules::context::recall::Ask;
use devs_context_rules::context::{Kind, recall};

use super::Rng;
use super::build::{Built, Style};
use super::host::{Host, Setup, draw_config, role_name};
use super::shapes::{Convo, FORMATS, Msg};

/// What a host does, in order.
#[derive(Debug, Clone)]
pub enum Op {
    Append(Vec<Msg>),
    /// An append as a session writes it: inside a journal of its own, committed.
    Turn(Vec<Msg>),
    Build(Style),
    /// The provider reports the request last built at our count times this, this many
    /// times (a host that records the usage of a request it sent again).
    Observe(f64, u8),
    Tail(f64),
    Compact,
    ResetCalibration,
    Rebuilt,
    /// A snapshot restored: the restored manager builds the plan the other would, in `Style`;
    /// the case goes on with it.
    Snapshot(Style),
    /// The journal since the last snapshot, applied again: the same manager.
    Journal,
    /// A recall of one of the manager's ids (its rank), told with a call or not.
    Recall(usize, bool),
}

#[derive(Debug, Default)]
pub struct Figures {
    pub cases: u64,
    pub ops: u64,
    pub messages: u64,
    pub refused: u64,
    pub builds: u64,
    pub taken_back: u64,
    pub compacted: u64,
    pub snapshots: u64,
    pub journals: u64,
    pub recalls: u64,
    pub by_kind: [u64; 9],
}

impl Figures {
    pub fn report(&self) -> String {
        format!(
            "fuzz: {} cases (sequences), {} operations: {} messages appended ({} appends or builds refused), {} builds ({} taken back, {} compacted), {} snapshots restored, {} journals replayed, {} recalls; parts by kind (text, thinking, call, result, opaque, image, document, server call, compaction): {:?}",
            self.cases,
            self.ops,
            self.messages,
            self.refused,
            self.builds,
            self.taken_back,
            self.compacted,
            self.snapshots,
            self.journals,
            self.recalls,
            self.by_kind
        )
    }
}

fn style(rng: &mut Rng) -> Style {
    Style {
        store: [0, 0, 0, 1, 2][rng.index(5)],
        summarizer: [1, 1, 1, 0, 2, 3][rng.index(6)],
        fail_at: (rng.below(8) == 0).then(|| rng.below(12) as u16),
        defer: rng.below(6) == 0,
    }
}

/// Case `seed`: its format (each in turn), config, fixed texts and operations.
pub fn generate(seed: u64) -> (Setup, Vec<Op>) {
    let mut rng = Rng::new(seed);
    let format = FORMATS[(seed % FORMATS.len() as u64) as usize];
    let config = draw_config(&mut rng);
    let fixed = [0.0, 0.0, 200.0, config.budget * 0.2][rng.index(4)];
    let setup = Setup {
        format,
        config,
        system: fixed,
        pinned: if rng.below(5) == 0 { 50.0 } else { 0.0 },
    };
    let mut convo = Convo::default();
    let long = rng.below(10) == 0;
    let n = 4 + rng.index(if long { 300 } else { 60 });
    let mut ops = Vec::with_capacity(n);
    for _ in 0..n {
        let op = match rng.below(100) {
            0..=44 => Op::Append(convo.next(&mut rng, format)),
            45..=49 => Op::Turn(convo.next(&mut rng, format)),
            50..=74 => Op::Build(style(&mut rng)),
            75..=79 => Op::Observe(
                [0.5, 1.0, 1.3, 3.0, 1e6][rng.index(5)],
                1 + rng.below(5) as u8,
            ),
            80..=82 => Op::Tail([0.0, 40.0, 2_000.0][rng.index(3)]),
            83..=85 => Op::Compact,
            86 => Op::ResetCalibration,
            87 => Op::Rebuilt,
            88..=92 => Op::Snapshot(style(&mut rng)),
            93..=96 => Op::Journal,
            _ => Op::Recall(rng.index(64), rng.below(2) == 0),
        };
        ops.push(op);
    }
    (setup, ops)
}

/// Runs a case; a panic is the finding.
pub fn run(setup: &Setup, ops: &[Op], figures: &mut Figures) {
    let mut h = Host::new(*setup);
    let mut sent = false;
    for op in ops {
        figures.ops += 1;
        match op {
            Op::Append(batch) => {
                count(figures, batch);
                h.append(batch);
            }
            Op::Turn(batch) => {
                count(figures, batch);
                h.must(Event::Begin);
                if h.append(batch) {
                    h.must(Event::Commit);
                    h.release();
                } else {
                    h.m.rollback();
                    let begin = h.events.len() - 1;
                    h.events.truncate(begin);
                }
            }
            Op::Build(style) => {
                figures.builds += 1;
                match h.build(style) {
                    Built::Sent(_) => {
                        sent = true;
                        if h.m.last_compacted {
                            figures.compacted += 1;
                        }
                    }
                    Built::TakenBack => figures.taken_back += 1,
                }
            }
            Op::Observe(f, times) => {
                if sent {
                    let reported = (h.m.tokens() * f).round();
                    for _ in 0..*times {
                        let _ = h.ev(Event::Observed(reported));
                    }
                }
            }
            Op::Tail(t) => drop(h.must(Event::Tail(*t))),
            Op::Compact => drop(h.must(Event::Compact)),
            Op::ResetCalibration => drop(h.must(Event::CalibrationReset)),
            Op::Rebuilt => drop(h.must(Event::HistoryRebuilt)),
            Op::Snapshot(style) => {
                figures.snapshots += 1;
                let mut restored = h.restored();
                let mut before = h.clone();
                let (a, b) = (before.build(style), restored.build(style));
                assert!(
                    a == b,
                    "diverged: a restored manager builds another plan: {a:?} | {b:?}"
                );
                h = restored;
            }
            Op::Journal => {
                figures.journals += 1;
                h.check_journal();
            }
            Op::Recall(rank, with_call) => {
                figures.recalls += 1;
                recall(&mut h, *rank, *with_call);
            }
        }
    }
    figures.refused += h.refused as u64;
    // Whatever happened, the manager still builds, and its state and journal still read.
    let _ = h.build(&Style {
        store: 0,
        summarizer: 1,
        fail_at: None,
        defer: false,
    });
    let _ = h.restored();
    h.check_journal();
}

fn count(figures: &mut Figures, batch: &[Msg]) {
    figures.messages += batch.len() as u64;
    for p in batch.iter().flat_map(|m| &m.parts) {
        figures.by_kind[p.kind.code() as usize] += 1;
    }
}

/// A recall as `recall.ts` makes it: checked, paged, and told to the rules with its call.
fn recall(h: &mut Host, rank: usize, with_call: bool) {
    let mut ids: Vec<String> = h.m.lines.keys().cloned().collect();
    ids.sort();
    ids.push("not-an-id".into());
    let id = ids[rank % ids.len()].clone();
    let ask = Ask {
        offset: rank * 37 % 500,
        length: rank.is_multiple_of(3).then_some(200),
        query: (rank % 4 == 1).then(|| "src".to_string()),
    };
    let check = h.m.recall_check(&id, &ask);
    if check != recall::Check::Read {
        return;
    }
    let units = h.m.recall_units();
    let _ = h.m.recall_fit(units, 1e9);
    let _ = h.m.recall_media_fits(2_000.0);
    // The call that asked (`Engine.callOf`): one the shell knows by its id, or the open
    // one of the recall tool's an id-less call is.
    let call = if with_call {
        let mut live: Vec<u32> = h.call_index.values().map(|&c| c as u32).collect();
        live.sort_unstable();
        if live.is_empty() {
            let all: Vec<u32> = (0..h.call_ids.len() as u32).collect();
            h.m.open_recall(&all)
        } else {
            Some(live[rank % live.len()])
        }
    } else {
        None
    };
    h.must(Event::Recalled { call, id, ask });
}

/// Simpler forms of an op, for the shrink: an append with a message or a part fewer.
pub fn simpler(op: &Op) -> Vec<Op> {
    let batch = match op {
        Op::Append(b) | Op::Turn(b) => b,
        _ => return Vec::new(),
    };
    let wrap = |b: Vec<Msg>| match op {
        Op::Turn(_) => Op::Turn(b),
        _ => Op::Append(b),
    };
    let mut out = Vec::new();
    for i in 0..batch.len() {
        if batch.len() > 1 {
            let mut b = batch.clone();
            b.remove(i);
            out.push(wrap(b));
        }
        for k in 0..batch[i].parts.len() {
            if batch[i].parts.len() > 1 {
                let mut b = batch.clone();
                b[i].parts.remove(k);
                out.push(wrap(b));
            }
            let t = &batch[i].parts[k].text;
            if t.len() > 8 {
                let mut b = batch.clone();
                let cut: String = t.chars().take(t.chars().count() / 2).collect();
                b[i].parts[k].text = cut;
                out.push(wrap(b));
            }
        }
    }
    out
}

/// A sequence, one op a line, parts as `Kind(units, +stated) #id`.
pub fn show(ops: &[Op]) -> String {
    let mut out = String::new();
    for op in ops {
        let line = match op {
            Op::Append(b) | Op::Turn(b) => {
                let msgs: Vec<String> = b
                    .iter()
                    .map(|m| {
                        let parts: Vec<String> = m
                            .parts
                            .iter()
                            .map(|p| {
                                let mut s =
                                    format!("{:?}({}", p.kind, p.text.encode_utf16().count());
                                if p.stated > 0.0 {
                                    s.push_str(&format!(", +{}", p.stated));
                                }
                                s.push(')');
                                if let Some(id) = &p.id {
                                    s.push_str(&format!(" #{id}"));
                                }
                                if !p.label.is_empty() && p.kind != Kind::Text {
                                    s.push_str(&format!(" {}", p.label));
                                }
                                s
                            })
                            .collect();
                        format!("{}: [{}]", role_name(m.role), parts.join(", "))
                    })
                    .collect();
                let name = if matches!(op, Op::Turn(_)) {
                    "turn"
                } else {
                    "append"
                };
                format!("{name} {}", msgs.join(" | "))
            }
            other => format!("{other:?}"),
        };
        out.push_str("     ");
        out.push_str(&line);
        out.push('\n');
    }
    out
}
