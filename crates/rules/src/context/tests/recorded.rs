//! Data of earlier rules, held to what it recorded (`migrate`): each replayed build to the
//! counts its ledger record says, and the next build to one that takes nothing out. Data of
//! today's rules replays as it was made, and is not held to anything.

use super::journal::{Event, Refusal};
use super::migrate::{DECISIONS, Recorded, Why};
use super::*;

/// A session of `turns` tool turns at budget 20,000 (high water mark 15,000), with a usage
/// report after every build: its journal, and what each build came to, by request.
fn session(turns: usize) -> (Manager, Vec<Event>, Vec<(u64, Recorded)>) {
    let (mut m, mut h) = Host::default().start(20_000.0, "the task");
    let mut records = Vec::new();
    for turn in 0..turns {
        tool_turn(&mut h, &mut m, 400 + (turn * 37) % 300, turn);
        h.build(&mut m);
        records.push((
            m.record.request,
            Recorded {
                tokens: m.record.tokens,
                raw: m.record.raw_tokens,
            },
        ));
        let reported = (m.raw_tokens() * 1.07 + 40.0).round();
        h.ev(&mut m, Event::Observed(reported));
    }
    (m, h.events, records)
}

/// A new manager, the journal replayed into it as data of `decisions` with `records`.
fn replay(
    events: &[Event],
    decisions: Option<u32>,
    records: Vec<(u64, Recorded)>,
) -> (Manager, Result<(), (usize, Refusal)>) {
    let mut m = Manager::new("options", config(20_000.0), 0.0, 0.0).unwrap();
    m.expect(decisions, records);
    let r = m.apply_all(events);
    (m, r)
}

/// Where build `request`'s commit is in `events`.
fn commit_of(events: &[Event], request: u64) -> usize {
    events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Event::Commit))
        .nth(request as usize - 1)
        .unwrap()
        .0
}

#[test]
fn old_data_that_replays_as_recorded_opens_as_it_was() {
    let (m, events, records) = session(12);
    assert!(m.calibration.samples() > 0 && !m.over(m.config.high_water));
    for decisions in [None, Some(1), Some(DECISIONS - 1)] {
        let (mut again, r) = replay(&events, decisions, records.clone());
        assert_eq!(r, Ok(()), "{decisions:?}");
        assert_eq!(again.replayed(), Ok(()), "its next build takes nothing out");
        assert_eq!(format!("{again:?}"), format!("{m:?}"), "the same manager");
    }
}

#[test]
fn a_build_counted_short_of_its_record_or_made_otherwise_is_out_of_place_and_nothing_changes() {
    let (m, events, records) = session(12);
    // Request 5 as a version that counted 1% short of today's rules recorded it (no
    // margin above the fit): today's rules take out at least what it did. Held to that.
    let mut short = records.clone();
    short[4].1.tokens = (short[4].1.tokens / 1.01).floor();
    let (mut again, r) = replay(&events, None, short);
    assert_eq!(r, Ok(()));
    assert_eq!(again.replayed(), Ok(()));
    assert_eq!(format!("{again:?}"), format!("{m:?}"));

    // Request 5 as a version that counted it higher than today's rules: it may have taken
    // out what today's rules leave.
    let mut counted = records.clone();
    counted[4].1.tokens = (counted[4].1.tokens * 1.01).ceil();
    let (m, r) = replay(&events, None, counted.clone());
    let (at, why) = r.unwrap_err();
    assert_eq!(at, commit_of(&events, 5));
    let Refusal::Recorded {
        why: Why::Counts,
        request: 5,
        what: "tokens",
        recorded,
        replayed,
    } = why
    else {
        panic!("{why:?}")
    };
    assert_eq!(
        (recorded, replayed),
        (counted[4].1.tokens, records[4].1.tokens)
    );
    assert!(why.words().contains("request 5 came to"), "{}", why.words());
    assert_eq!(m.history.messages.len(), 0, "nothing applied");

    // Another request made (our own count differs): its decisions differ.
    let mut made = records.clone();
    made[7].1.raw += 120.0;
    let (_, r) = replay(&events, Some(DECISIONS - 1), made);
    let (at, why) = r.unwrap_err();
    assert_eq!(at, commit_of(&events, 8));
    assert!(
        matches!(
            why,
            Refusal::Recorded {
                why: Why::Decisions,
                request: 8,
                what: "rawTokens",
                ..
            }
        ),
        "{why:?}"
    );

    // A count not recorded (NaN: a version before the field) is not held to.
    let mut unrecorded = records;
    unrecorded[4].1.tokens = f64::NAN;
    unrecorded[4].1.raw = f64::NAN;
    assert_eq!(replay(&events, None, unrecorded).1, Ok(()));
}

#[test]
fn data_of_todays_rules_is_not_held_to_its_records() {
    let (m, events, mut records) = session(12);
    records[4].1.tokens += 50.0;
    let (mut again, r) = replay(&events, Some(DECISIONS), records);
    assert_eq!(r, Ok(()));
    assert_eq!(again.replayed(), Ok(()));
    assert_eq!(format!("{again:?}"), format!("{m:?}"));
}

#[test]
fn old_data_whose_next_build_takes_something_out_is_out_of_place() {
    // Grown past the high water mark of today (0.75 of the budget) since its last build,
    // under the 0.85 that versions before 6f668ed resolved: the next build compacts today,
    // and that version's would not have.
    let (mut m, mut h) = Host::default().start(20_000.0, "the task");
    let mut records = Vec::new();
    let mut turn = 0;
    while m.tokens() < 14_000.0 {
        tool_turn(&mut h, &mut m, 1_200, turn);
        h.build(&mut m);
        assert!(m.record.compaction.is_none());
        records.push((
            m.record.request,
            Recorded {
                tokens: m.record.tokens,
                raw: m.record.raw_tokens,
            },
        ));
        turn += 1;
    }
    tool_turn(&mut h, &mut m, 6_000, turn);
    assert!(
        m.tokens() > 15_000.0 && m.tokens() < 17_000.0,
        "{}",
        m.tokens()
    );

    let (mut again, r) = replay(&h.events, None, records.clone());
    assert_eq!(r, Ok(()), "every build replays as recorded");
    let why = again.replayed().unwrap_err();
    let Refusal::Due { tokens, mark } = why else {
        panic!("{why:?}")
    };
    assert_eq!((tokens, mark), (m.tokens(), 15_000.0));
    assert!(again.expected.is_none(), "the records are let go");
    assert_eq!(
        again.replayed(),
        Ok(()),
        "once the replay is over, nothing is held"
    );

    // Today's data, the same: its next build is today's rules' own.
    let (mut today, r) = replay(&h.events, Some(DECISIONS), records);
    assert_eq!(r, Ok(()));
    assert_eq!(today.replayed(), Ok(()));
}

#[test]
fn the_reasons_of_a_rebuild_round_trip_and_are_worded() {
    for why in [Why::Decisions, Why::Shapes, Why::Counts, Why::Marks] {
        assert_eq!(Why::from_code(why as u8), Some(why));
        let w = Manager::migrated_warning(1, why);
        assert!(w.message.contains("rebuilt once"), "{}", w.message);
    }
    assert!(
        Manager::migrated_warning(1, Why::Marks)
            .message
            .contains("highWater")
    );
    assert_eq!(Why::from_code(4), None);
}
