//! The provider-item fuzz (issue 47): random sequences of each format's items, read into the
//! rules' parts as the shell's adapters read them, through appends, builds (every need
//! answered, stores and summarizers failing, builds taken back), a session's turns, usage
//! reports, snapshots restored (the restored manager builds the same plan) and journals
//! replayed (the same manager). No sequence may panic: the wasm build aborts on a panic,
//! and the manager that hit it is wedged for good.
//!
//! `FUZZ_CASES` sets the count (60 by default, some 20 s of `cargo test` in debug; run
//! `FUZZ_CASES=100000 cargo test --release -p devs-context-rules --test fuzz` for the full
//! one), `FUZZ_SEED` runs one case. A panic is reported with its seed and the shortest
//! sequence that still hits it; `FUZZ_BACKTRACE` prints each panic's backtrace, and
//! `FUZZ_DEBUG` a diverging journal's events.

mod build;
mod host;
mod ops;
mod shapes;
mod valid;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};

use ops::{Figures, Op, generate, run, show};

/// A small deterministic generator (xorshift): a seed replays its case on every machine.
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Spread the seed so neighbouring seeds differ from their first draw.
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }
}

thread_local! {
    /// Where and why the last panic of this thread was: a case's signature.
    static LAST: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
    /// Inside a case: its panic is recorded, not printed.
    static INSIDE: RefCell<bool> = const { RefCell::new(false) };
}

fn quiet_hook() {
    let default = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if !INSIDE.with(|i| *i.borrow()) {
            return default(info);
        }
        let at = info
            .location()
            .map_or_else(String::new, |l| format!("{}:{}", l.file(), l.line()));
        let why = info
            .payload()
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        if std::env::var("FUZZ_BACKTRACE").is_ok() {
            eprintln!(
                "{at}: {why}\n{}",
                std::backtrace::Backtrace::force_capture()
            );
        }
        LAST.with(|l| *l.borrow_mut() = Some((at, why)));
    }));
}

/// Runs a case; `Err((where, why))` when it panics.
fn attempt(setup: &host::Setup, ops: &[Op], figures: &mut Figures) -> Result<(), (String, String)> {
    LAST.with(|l| l.borrow_mut().take());
    INSIDE.with(|i| *i.borrow_mut() = true);
    let result = panic::catch_unwind(AssertUnwindSafe(|| run(setup, ops, figures)));
    INSIDE.with(|i| *i.borrow_mut() = false);
    match result {
        Ok(()) => Ok(()),
        Err(_) => Err(LAST.with(|l| l.borrow_mut().take()).unwrap_or_default()),
    }
}

/// The shortest sequence found that panics at the same place: ops left out one at a time
/// (then in halves), then messages and parts of the appends that stay.
fn shrink(setup: &host::Setup, mut ops: Vec<Op>, at: &str) -> (Vec<Op>, String) {
    let mut scratch = Figures::default();
    let same = |ops: &[Op], scratch: &mut Figures| matches!(attempt(setup, ops, scratch), Err((w, _)) if w == at);
    let mut changed = true;
    let mut tries = 0;
    while changed && tries < 3_000 {
        changed = false;
        let mut chunk = ops.len() / 2;
        while chunk >= 1 {
            let mut i = 0;
            while i + chunk <= ops.len() {
                let mut fewer = ops.clone();
                fewer.drain(i..i + chunk);
                tries += 1;
                if same(&fewer, &mut scratch) {
                    ops = fewer;
                    changed = true;
                } else {
                    i += chunk;
                }
            }
            chunk /= 2;
        }
        for i in 0..ops.len() {
            for cut in ops::simpler(&ops[i]) {
                let mut other = ops.clone();
                other[i] = cut;
                tries += 1;
                if same(&other, &mut scratch) {
                    ops = other;
                    changed = true;
                    break;
                }
            }
        }
    }
    // Why the minimal sequence panics: the last try may not have been it.
    let why = attempt(setup, &ops, &mut scratch)
        .err()
        .unwrap_or_default()
        .1;
    (ops, why)
}

fn count_from_env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

#[test]
fn random_provider_items_never_panic_the_rules() {
    quiet_hook();
    let cases = count_from_env("FUZZ_CASES", 60);
    let seeds: Vec<u64> = match std::env::var("FUZZ_SEED") {
        Ok(s) => vec![s.trim().parse().expect("FUZZ_SEED is a number")],
        Err(_) => (0..cases).collect(),
    };
    let mut figures = Figures::default();
    // By where it panicked: the first seed, why, and how many cases hit it.
    let mut found: BTreeMap<String, (u64, String, usize)> = BTreeMap::new();
    for &seed in &seeds {
        let (setup, ops) = generate(seed);
        figures.cases += 1;
        if let Err((at, why)) = attempt(&setup, &ops, &mut figures) {
            let entry = found.entry(at).or_insert((seed, why, 0));
            entry.2 += 1;
        }
    }
    eprintln!("{}", figures.report());
    if found.is_empty() {
        return;
    }
    let mut report = String::new();
    for (at, (seed, why, hits)) in &found {
        let (setup, ops) = generate(*seed);
        let (minimal, minimal_why) = shrink(&setup, ops, at);
        report.push_str(&format!(
            "\n== {hits} case(s) panic at {at}: {why}\n   first seed {seed} ({:?}, budget {}, fixed texts {}), minimal sequence of {} ops, which panics with: {minimal_why}\n{}",
            setup.format,
            setup.config.budget,
            setup.system + setup.pinned,
            minimal.len(),
            show(&minimal)
        ));
    }
    panic!(
        "{} distinct panics in {} cases:{report}",
        found.len(),
        figures.cases
    );
}
