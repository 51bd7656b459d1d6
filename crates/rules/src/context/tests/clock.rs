//! The request's time (`clock.rs`): journaled, kept by the state, checked; and the
//! compaction it times, at the first request after a pause longer than the cache's lifetime.

use super::journal::{Event, Refusal, decode, encode};
use super::*;
use crate::context::ledger::Trigger;

const MINUTE: f64 = 60_000.0;
const BUDGET: f64 = 20_000.0;

fn paused_config(at: Option<f64>) -> Config {
    let o = Options {
        pause_compact_at: at,
        ..Options::default()
    };
    Config::new("options", BUDGET, o).unwrap()
}

/// A manager at `level` of the budget (or built `level` times, when above 1), a minute
/// between its requests (each given its time when `timed`), then a turn of `last`
/// characters appended, and the host that built it, with a summarizer.
fn grown(config: Config, level: f64, timed: bool) -> (Manager, Host, f64) {
    grown_by(config, level, timed, 300)
}

fn grown_by(config: Config, level: f64, timed: bool, last: usize) -> (Manager, Host, f64) {
    let mut m = Manager::new("options", config, 0.0, 0.0).unwrap();
    let mut h = Host {
        summarizer: Some(|_| "what was done".into()),
        ..Host::default()
    };
    h.append(&mut m, Role::User, &[P::Text("the task")])
        .unwrap();
    let mut now = 1_700_000_000_000.0;
    let mut turn = 0;
    let more = |m: &Manager, turn: usize| {
        if level > 1.0 {
            (turn as f64) < level
        } else {
            m.tokens() < BUDGET * level
        }
    };
    while more(&m, turn) {
        tool_turn(&mut h, &mut m, 1_500, turn);
        if timed {
            h.ev(&mut m, Event::Time(now));
        }
        h.build(&mut m);
        now += MINUTE;
        turn += 1;
    }
    tool_turn(&mut h, &mut m, last, 99);
    (m, h, now)
}

#[test]
fn a_pause_above_the_level_masks_before_the_trigger_without_a_summary() {
    let (mut m, mut h, now) = grown(paused_config(Some(0.3)), 0.4, true);
    let before = m.tokens();
    assert!(
        before < BUDGET * m.config.high_water,
        "below the trigger: {before}"
    );
    h.ev(&mut m, Event::Time(now + 10.0 * MINUTE));
    h.build(&mut m);
    let c = m
        .record
        .compaction
        .as_ref()
        .expect("compacted at the pause");
    assert_eq!(c.trigger, Trigger::Pause);
    assert!(!c.masked.is_empty(), "masked parts");
    assert!(c.summarized.is_none(), "no summary at a pause");
    assert_eq!(h.summarizer_calls, 0);
    assert!(m.tokens() < before * 0.8, "{} after {before}", m.tokens());
}

#[test]
fn no_pause_below_the_ttl_below_the_level_or_without_the_option() {
    // A 4-minute gap: the cache is warm.
    let (mut m, mut h, now) = grown(paused_config(Some(0.3)), 0.4, true);
    h.ev(&mut m, Event::Time(now + 4.0 * MINUTE));
    h.build(&mut m);
    assert!(m.record.compaction.is_none());
    // Below the level.
    let (mut m, mut h, now) = grown(paused_config(Some(0.5)), 0.4, true);
    h.ev(&mut m, Event::Time(now + 10.0 * MINUTE));
    h.build(&mut m);
    assert!(m.record.compaction.is_none());
    // Without the option.
    let (mut m, mut h, now) = grown(paused_config(None), 0.4, true);
    h.ev(&mut m, Event::Time(now + 10.0 * MINUTE));
    h.build(&mut m);
    assert!(m.record.compaction.is_none());
    // Without a time for the build after the pause, or for the one before it.
    let (mut m, mut h, _) = grown(paused_config(Some(0.3)), 0.4, true);
    h.build(&mut m);
    assert!(m.record.compaction.is_none());
    let (mut m, mut h, now) = grown(paused_config(Some(0.3)), 0.4, false);
    h.ev(&mut m, Event::Time(now + 10.0 * MINUTE));
    h.build(&mut m);
    assert!(m.record.compaction.is_none());
}

#[test]
fn past_the_high_water_mark_the_trigger_wins() {
    let (mut m, mut h, now) = grown_by(paused_config(Some(0.3)), 0.7, true, 12_000);
    assert!(m.tokens() > BUDGET * m.config.high_water);
    h.ev(&mut m, Event::Time(now + 10.0 * MINUTE));
    h.build(&mut m);
    let c = m.record.compaction.as_ref().expect("compacted");
    assert_eq!(c.trigger, Trigger::HighWater);
}

#[test]
fn without_times_the_option_changes_nothing() {
    let (a, ha, _) = grown(paused_config(Some(0.3)), 80.0, false);
    let (b, hb, _) = grown(paused_config(None), 80.0, false);
    assert!(a.requests > 0 && a.cost.units > 0.0);
    assert_eq!(encode(&ha.events), encode(&hb.events));
    assert_eq!(a.encode_state(), b.encode_state());
}

#[test]
fn the_time_is_journaled_and_kept_so_a_replay_and_a_restore_decide_the_same() {
    let config = paused_config(Some(0.3));
    let (mut m, mut h, now) = grown(config, 0.4, true);
    // A restore from the state between builds, then the pause: the same decision.
    let mut restored = Manager::new("options", config, 0.0, 0.0).unwrap();
    restored.decode_state(&m.encode_state()).unwrap();
    assert_eq!(format!("{:?}", restored.clock), format!("{:?}", m.clock));
    let mut hr = h.clone();
    hr.ev(&mut restored, Event::Time(now + 10.0 * MINUTE));
    hr.build(&mut restored);
    h.ev(&mut m, Event::Time(now + 10.0 * MINUTE));
    h.build(&mut m);
    assert_eq!(
        restored.record.compaction.as_ref().map(|c| c.trigger),
        Some(Trigger::Pause)
    );
    assert_eq!(restored.encode_state(), m.encode_state());
    // The journal, encoded and applied again.
    let bytes = encode(&h.events);
    assert_eq!(bytes[0], journal::VERSION);
    let mut again = Manager::new("options", config, 0.0, 0.0).unwrap();
    again.apply_all(&decode(&bytes).unwrap()).unwrap();
    assert_eq!(again.encode_state(), m.encode_state());
    assert_eq!(
        again.record.compaction.as_ref().map(|c| c.trigger),
        Some(Trigger::Pause)
    );
}

#[test]
fn a_version_2_journal_is_read_and_holds_no_time() {
    let mut old = encode(&[Event::Compact]);
    old[0] = 2;
    assert_eq!(decode(&old).unwrap(), vec![Event::Compact]);
    let mut altered = encode(&[Event::Time(5.0)]);
    altered[0] = 2;
    assert_eq!(decode(&altered).unwrap_err().field, "journal[0]");
    assert_eq!(
        decode(&encode(&[Event::Time(5.0)])).unwrap(),
        vec![Event::Time(5.0)]
    );
}

#[test]
fn a_bad_time_is_a_range_error_naming_now_and_changes_nothing() {
    let (mut m, _, now) = grown(paused_config(Some(0.3)), 0.4, true);
    let before = m.clock;
    for bad in [f64::NAN, -1.0, f64::INFINITY, now - 2.0 * MINUTE] {
        match m.apply(&Event::Time(bad)) {
            Err(Refusal::Field(e)) => {
                assert_eq!(e.field, "options.now", "{bad}");
                assert_eq!(e.class_code(), 1, "{bad}: a RangeError");
            }
            other => panic!("{bad}: {other:?}"),
        }
        assert_eq!(m.clock.last, before.last);
        assert!(m.clock.now.is_nan());
    }
    // The same time again (a build retried) is no step back.
    m.apply(&Event::Time(now)).unwrap();
    m.apply(&Event::Time(now)).unwrap();
}
