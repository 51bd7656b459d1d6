//! A failed build or turn leaves the manager as it was.

use super::*;

/// What a build may change, written out to compare.
fn books(m: &Manager) -> String {
    format!(
        "{:?}",
        (
            &m.history,
            m.first_live,
            m.summary_tokens,
            &m.last,
            m.requests,
            &m.index,
            m.lines.len()
        )
    )
}

/// Eight tool turns built, and a ninth appended: a manager whose next build compacts.
fn before_a_build() -> Manager {
    let (mut m, mut h) = Host::default().start(20_000.0, "go");
    for turn in 0..8 {
        tool_turn(&mut h, &mut m, 4_000, turn);
        h.build(&mut m);
    }
    tool_turn(&mut h, &mut m, 4_000, 99);
    m
}

/// A stand-in host's answer to `need` (`line`: a stored text's index line).
fn answer(m: &mut Manager, need: Need, line: f64) -> Need {
    match need {
        Need::Persist { .. } => m.persisted(Some("x".into()), line),
        Need::Placeholder { .. } | Need::Cut { .. } => m.measured(10.0),
        Need::Summarize { .. } => m.no_summarizer(),
        Need::Restate { .. } => m.restated(0.0),
        Need::PersistSpan { .. } => m.span_persisted(Some("s".into()), 20.0),
        Need::PersistGroup { .. } => m.group_persisted(Some("g".into()), 20.0),
        Need::MergeSpans { .. } => m.spans_merged(Some("m".into()), 20.0),
        Need::Done | Need::TooLarge { .. } | Need::Measure | Need::Fit => Need::Done,
    }
}

#[test]
fn a_failed_build_leaves_everything_as_it_was() {
    let mut m = before_a_build();
    let before = books(&m);
    m.begin();
    let mut need = m.plan().unwrap();
    let mut steps = 0;
    while need != Need::Done && steps < 3 {
        need = answer(&mut m, need, f64::NAN);
        steps += 1;
    }
    m.rollback();
    assert_eq!(books(&m), before);
}

#[test]
fn a_failed_turn_takes_back_what_it_appended() {
    let (mut m, mut h) = Host::default().start(20_000.0, "go");
    h.append(&mut m, Role::Assistant, &[P::Call("{}")]).unwrap();
    h.build(&mut m);
    let before = format!(
        "{:?}",
        (&m.history, m.first_live, &m.calibration, m.tail_tokens)
    );
    m.begin();
    m.append(vec![NewMessage {
        role: Role::User,
        framing: 3.0,
        parts: vec![Part::new(Kind::Result, 3, 1.0, Some(0))],
    }])
    .unwrap();
    m.set_tail(40.0);
    m.calibration.observe(100.0, 0.0, 150.0).unwrap();
    m.rollback();
    assert_eq!(
        format!(
            "{:?}",
            (&m.history, m.first_live, &m.calibration, m.tail_tokens)
        ),
        before
    );
    assert!(
        m.history.calls[0].answer.is_none(),
        "the call is open again"
    );
}

#[test]
fn a_build_rendered_then_failed_leaves_the_encoded_state_as_it_was() {
    // A host callback that fails after the render (onLedger, onCompaction) takes the build
    // back: the state, every float of it, is the one before, so a usage report that comes
    // next is about the request last sent.
    let mut m = before_a_build();
    let before = m.encode_state();
    // The same build again, taken back after its render instead of committed.
    let mut need = m
        .apply(&Event::Begin)
        .and_then(|_| m.apply(&Event::Plan))
        .unwrap();
    while need != Need::Done {
        assert!(!matches!(need, Need::TooLarge { .. }), "refused");
        need = answer(&mut m, need, 5.0);
    }
    m.render(false);
    m.rollback();
    assert_eq!(m.encode_state(), before);
}

#[test]
fn a_build_rolled_back_keeps_the_warnings_set_aside_for_the_next() {
    // A usage report set aside (and a rebuild from old data) is said by the next build's
    // ledger. A build that fails after its plan took them gives them back: the build tried
    // again says them, and the encoded state is the one before.
    let mut m = before_a_build();
    m.observe(1.0).unwrap();
    m.migrated = Some((1, crate::context::migrate::Why::Decisions));
    let before = m.encode_state();
    m.begin();
    let mut need = m.plan().unwrap();
    while need != Need::Done {
        need = answer(&mut m, need, 5.0);
    }
    m.rollback();
    assert_eq!(m.encode_state(), before);
    m.begin();
    m.plan().unwrap();
    let codes: Vec<_> = m.record.warnings.iter().map(|w| w.code).collect();
    assert!(
        codes.contains(&"usage-set-aside") && codes.contains(&"format-migrated"),
        "{codes:?}"
    );
}

#[test]
fn a_build_rolled_back_takes_back_the_store_ids_it_noted() {
    // The texts a failed build stored stay in the store (the shell gives their ids to the
    // build tried again), but the parts are not stored as the manager left them: an id
    // kept would be written in the state, and named by the index of a later fold.
    let (mut m, mut h) = Host::default().start(20_000.0, "go");
    for turn in 0..60 {
        // Outputs under the part's share, stored only when a compaction masks them.
        tool_turn(&mut h, &mut m, 4_000, turn);
        let before = (m.store_ids.clone(), m.encode_state());
        m.begin();
        let mut need = m.plan().unwrap();
        let mut persisted = 0;
        while need != Need::Done {
            persisted += usize::from(matches!(need, Need::Persist { .. }));
            need = answer(&mut m, need, 5.0);
        }
        m.rollback();
        assert_eq!(
            (m.store_ids.clone(), m.encode_state()),
            before,
            "turn {turn}"
        );
        if persisted > 0 {
            return;
        }
        h.build(&mut m);
    }
    panic!("no build stored a text");
}
