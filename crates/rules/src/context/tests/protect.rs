//! Protected tools (`protectedTools`): their calls and results stay whole through every
//! compaction while they fit their share; past it, the oldest are as any other part, and
//! warned; the flag survives the journal and a manager's state.

use super::*;

/// A manager with `protectedTools` on or off (`protects`) and the opening user message;
/// restate.rs's tests start from it too.
pub(super) fn protecting_with(budget: f64, protects: bool, share: Option<f64>) -> (Manager, Host) {
    let o = Options {
        protects: Some(protects),
        protected_share: share,
        ..Options::default()
    };
    let c = Config::new("options", budget, o).unwrap();
    let mut m = Manager::new("options", c, 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("keep the todo list")])
        .unwrap();
    (m, h)
}

fn protecting(budget: f64, share: Option<f64>) -> (Manager, Host) {
    protecting_with(budget, true, share)
}

/// A todo call and its result, `size` units long.
fn todo_turn(h: &mut Host, m: &mut Manager, size: usize, seed: usize) {
    h.append(m, Role::Assistant, &[P::ProtectedCall("{\"op\":\"list\"}")])
        .unwrap();
    h.append(m, Role::User, &[P::ProtectedResult(1, &output(size, seed))])
        .unwrap();
}

fn protected_whole(m: &Manager) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for i in m.first_live..m.history.messages.len() {
        for (k, p) in m.history.messages[i].parts.iter().enumerate() {
            if p.protected && p.kind == Kind::Result && p.shown == Shown::Whole {
                out.push((i, k));
            }
        }
    }
    out
}

#[test]
fn a_protected_result_is_never_masked_while_it_fits_its_share() {
    let budget = 20_000.0;
    let (mut m, mut h) = protecting(budget, None);
    todo_turn(&mut h, &mut m, 4_000, 0);
    let todo = m.history.messages.len() - 1;
    let mut masked = 0;
    for turn in 1..60 {
        tool_turn(&mut h, &mut m, 4_000, turn);
        h.build(&mut m);
        masked += m.record.compaction.as_ref().map_or(0, |c| c.masked.len());
        if m.first_live > todo {
            break;
        }
        assert_eq!(m.part(todo, 0).shown, Shown::Whole, "turn {turn}");
    }
    assert!(masked > 3, "compactions masked other outputs ({masked})");
    assert!(
        m.record
            .warnings
            .iter()
            .all(|w| !w.code.starts_with("protected")),
        "{:?}",
        m.record.warnings
    );
}

#[test]
fn the_same_session_unprotected_masks_the_result() {
    // The test above can fail: without protection the todo result is the first masked.
    let budget = 20_000.0;
    let (mut m, mut h) = Host::default().start(budget, "keep the todo list");
    tool_turn(&mut h, &mut m, 4_000, 0);
    let todo = m.history.messages.len() - 1;
    let mut shown = Shown::Whole;
    for turn in 1..60 {
        tool_turn(&mut h, &mut m, 4_000, turn);
        h.build(&mut m);
        if m.first_live > todo {
            break;
        }
        shown = m.part(todo, 0).shown;
        if shown != Shown::Whole {
            break;
        }
    }
    assert_eq!(shown, Shown::Placeholder);
}

#[test]
fn past_the_share_the_newest_stay_whole_and_the_oldest_are_warned_and_masked() {
    let budget = 20_000.0;
    // A share of 2,000 tokens, and todo results of about 600: three fit, not more.
    let (mut m, mut h) = protecting(budget, Some(0.1));
    let mut warned = false;
    let mut todos = Vec::new();
    for turn in 0..60 {
        if turn % 4 == 0 {
            todo_turn(&mut h, &mut m, 4_800, turn);
            todos.push(m.history.messages.len() - 1);
        } else {
            tool_turn(&mut h, &mut m, 4_000, turn);
        }
        h.build(&mut m);
        warned |= m
            .record
            .warnings
            .iter()
            .any(|w| w.code == "protected-over-share");
        let newest = *todos.last().unwrap();
        if newest >= m.first_live {
            assert_eq!(m.part(newest, 0).shown, Shown::Whole, "turn {turn}");
        }
        assert!(m.tokens() <= budget);
    }
    assert!(
        warned,
        "an older todo result past the share was masked, and warned"
    );
    let whole = protected_whole(&m);
    // What the share holds is the newest: the last todo result, and its call.
    let held = m.held();
    let newest = *todos.last().unwrap();
    assert!(held.holds(newest, 0) && held.holds(newest - 1, 0));
    // The masked ones are the oldest.
    let masked: Vec<usize> = todos
        .iter()
        .copied()
        .filter(|&t| t >= m.first_live && m.part(t, 0).shown == Shown::Placeholder)
        .collect();
    assert!(!masked.is_empty());
    assert!(masked.iter().all(|&t| whole.iter().all(|&(w, _)| t < w)));
}

#[test]
fn a_fresh_protected_result_over_the_part_share_is_not_cut() {
    let budget = 20_000.0;
    // 4,000 tokens: over the 3,000 a part may take, within a protected share of 5,000.
    let (mut m, mut h) = protecting(budget, Some(0.25));
    todo_turn(&mut h, &mut m, 32_000, 1);
    h.build(&mut m);
    let last = m.history.messages.len() - 1;
    assert_eq!(m.part(last, 0).shown, Shown::Whole);
    // Unprotected, the same result is cut to its share.
    let (mut m, mut h) = Host::default().start(budget, "keep the todo list");
    tool_turn(&mut h, &mut m, 32_000, 1);
    h.build(&mut m);
    let last = m.history.messages.len() - 1;
    assert!(matches!(m.part(last, 0).shown, Shown::Cut { .. }));
}

#[test]
fn protection_survives_the_journal_and_the_state_and_unprotected_bytes_are_unchanged() {
    let (mut m, mut h) = protecting(20_000.0, None);
    for turn in 0..12 {
        todo_turn(&mut h, &mut m, 2_000, turn);
        tool_turn(&mut h, &mut m, 4_000, turn);
        h.build(&mut m);
    }
    let bytes = journal::encode(&h.events);
    let events = journal::decode(&bytes).unwrap();
    assert_eq!(events, h.events, "the flag is read back from the journal");
    let state = m.encode_state();
    let mut back = Manager::new("options", m.config, 0.0, 0.0).unwrap();
    back.decode_state(&state).unwrap();
    let flags = |m: &Manager| -> Vec<bool> {
        (m.first_live..m.history.messages.len())
            .flat_map(|i| m.history.messages[i].parts.iter().map(|p| p.protected))
            .collect()
    };
    assert_eq!(flags(&back), flags(&m));
    assert!(flags(&m).contains(&true));
    // A part not protected is written as its kind's code alone: the bytes earlier versions wrote.
    let plain = Part::new(Kind::Result, 4, 1.0, Some(0));
    assert_eq!(plain.kind_byte(), Kind::Result.code());
    assert_eq!(
        Part::read_kind_byte(Kind::Result.code() | super::super::history::PROTECTED_BIT),
        Some((Kind::Result, true))
    );
}

#[test]
fn protected_share_is_refused_without_protected_tools_and_past_its_bound() {
    let o = Options {
        protected_share: Some(0.2),
        ..Options::default()
    };
    let e = Config::new("options", 20_000.0, o).unwrap_err();
    assert_eq!(e.field, "options.protectedShare");
    let o = Options {
        protects: Some(true),
        protected_share: Some(0.6),
        ..Options::default()
    };
    let e = Config::new("options", 20_000.0, o).unwrap_err();
    assert_eq!(e.field, "options.protectedShare");
    assert_eq!(config(20_000.0).protected_cap(), 0.0);
}

#[test]
fn carried_texts_are_the_newest_that_fit_the_share() {
    let (mut m, _) = protecting(20_000.0, Some(0.1));
    assert_eq!(m.carried(&[500.0, 900.0, 400.0]), 3);
    assert!(m.record.warnings.is_empty());
    assert_eq!(m.carried(&[1_500.0, 600.0, 10.0]), 1);
    assert_eq!(m.record.warnings[0].code, "protected-over-share");
}
