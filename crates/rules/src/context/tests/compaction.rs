//! Compactions: when they run and where they end, what they mask, summarize or drop, and
//! what they do with thinking, open tool loops and a store that fails.

use super::*;

/// A signed thinking block with a tool call, and the call's result.
fn thinking_turn(h: &mut Host, m: &mut Manager, size: usize, seed: usize) {
    h.append(
        m,
        Role::Assistant,
        &[P::Thinking("signed reasoning"), P::Call("{}")],
    )
    .unwrap();
    h.append(m, Role::User, &[P::Result(1, &output(size, seed))])
        .unwrap();
}

#[test]
fn a_compaction_runs_at_the_high_water_mark_and_ends_under_the_low() {
    let budget = 20_000.0;
    let (mut m, mut h) = Host::default().start(budget, "fix the parser");
    let mut compactions = 0;
    let mut previous = 0.0;
    for turn in 0..120 {
        tool_turn(&mut h, &mut m, 4_000, turn);
        let (plan, text) = h.build(&mut m);
        assert!(m.tokens() <= budget, "turn {turn}");
        assert!(
            tokens(&text) <= m.raw_tokens(),
            "turn {turn}: our count bounds the whole text"
        );
        if let Some(c) = &m.record.compaction {
            compactions += 1;
            assert!(
                c.after <= budget * m.config.low_water,
                "turn {turn}: {} left",
                c.after
            );
            assert!(c.below_trigger > 0.0);
            assert!(!c.masked.is_empty());
            assert!(plan.prefix < previous, "a compaction edits what was sent");
        } else {
            assert_eq!(
                plan.prefix, previous,
                "turn {turn}: between compactions, only appended"
            );
        }
        previous = m.raw_tokens();
    }
    assert!((3..=40).contains(&compactions), "{compactions} compactions");
    // Every masked output is in the store, whole.
    for (&(i, k), id) in &m.store_ids {
        assert_eq!(h.stored[id.parse::<usize>().unwrap() - 1], h.texts[i][k]);
    }
}

#[test]
fn compactions_mask_the_newest_old_outputs_first_and_keep_the_recent_whole() {
    let budget = 40_000.0;
    let (mut m, mut h) = Host::default().start(budget, "go");
    loop {
        let seed = m.history.messages.len();
        tool_turn(&mut h, &mut m, 6_000, seed);
        h.build(&mut m);
        if m.record.compaction.is_some() {
            break;
        }
    }
    let c = m.record.compaction.clone().unwrap();
    let edit = c.edit_from.unwrap();
    // Outputs before the edit stay whole: they are in the provider's cache.
    for i in 0..edit {
        for p in &m.history.messages[i].parts {
            assert_ne!(p.shown, Shown::Placeholder, "message {i}");
        }
    }
    let last = m.history.messages.len() - 1;
    assert_eq!(
        m.history.messages[last].parts[0].shown,
        Shown::Whole,
        "the newest output stays whole"
    );
}

#[test]
fn a_summary_folds_the_oldest_groups_when_placeholders_are_not_enough() {
    let budget = 4_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host {
        summarizer: Some(|p| format!("summary of {} characters", p.len())),
        ..Host::default()
    };
    for turn in 0..200 {
        h.append(
            &mut m,
            Role::User,
            &[P::Text(&format!("turn {turn}: go on with the lexer"))],
        )
        .unwrap();
        tool_turn(&mut h, &mut m, 600, turn);
        h.build(&mut m);
        assert!(m.tokens() <= budget, "turn {turn}");
    }
    assert!(m.first_live > 0 && m.summary_tokens > 0.0);
    assert!(h.summarizer_calls > 0);
    // Groups stay whole: the first live message opens a group.
    assert_eq!(m.history.messages[m.first_live].group, m.first_live);
}

#[test]
fn without_a_summarizer_the_oldest_groups_are_dropped() {
    let budget = 4_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    let mut dropped = false;
    for turn in 0..200 {
        h.append(&mut m, Role::User, &[P::Text(&format!("turn {turn}"))])
            .unwrap();
        tool_turn(&mut h, &mut m, 600, turn);
        let (_, text) = h.build(&mut m);
        assert!(m.tokens() <= budget, "turn {turn}");
        assert!(
            tokens(&text) <= m.raw_tokens(),
            "turn {turn}: the note for dropped turns is counted"
        );
        dropped |= m
            .record
            .compaction
            .as_ref()
            .is_some_and(|c| c.dropped.is_some());
    }
    assert!(dropped);
}

#[test]
fn thinking_after_an_edit_is_dropped_and_said() {
    let budget = 20_000.0;
    let (mut m, mut h) = Host::default().start(budget, "go");
    let mut dropped = 0;
    for turn in 0..60 {
        thinking_turn(&mut h, &mut m, 4_000, turn);
        // A plain user turn closes the loop, so a compaction need not wait.
        h.append(&mut m, Role::User, &[P::Text("go on")]).unwrap();
        h.build(&mut m);
        if let Some(c) = &m.record.compaction {
            let edit = c.edit_from.unwrap();
            dropped += m.record.thinking_dropped;
            let shown = (edit + 1).max(m.first_live);
            for (i, msg) in m.history.messages.iter().enumerate().skip(shown) {
                for p in &msg.parts {
                    if p.kind == Kind::Thinking {
                        assert_eq!(
                            p.shown,
                            Shown::Dropped,
                            "message {i}: thinking after the edit"
                        );
                    }
                }
            }
        }
    }
    assert!(dropped > 0);
}

#[test]
fn a_compaction_waits_for_an_open_tool_loop_with_thinking_while_the_request_fits() {
    let budget = 20_000.0;
    let (mut m, mut h) = Host::default().start(budget, "go");
    let mut deferred = false;
    for turn in 0..70 {
        thinking_turn(&mut h, &mut m, 1_500, turn);
        h.build(&mut m);
        assert!(m.tokens() <= budget);
        if m.record.raised.contains(&Warning::Deferred) {
            deferred = true;
            assert!(m.record.compaction.is_none());
        }
    }
    assert!(deferred);
}

#[test]
fn assistant_texts_in_a_row_are_turns_of_their_own_and_stay_in_budget() {
    let budget = 8_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host {
        summarizer: Some(|_| "short".into()),
        ..Host::default()
    };
    for turn in 0..60 {
        h.append(
            &mut m,
            Role::Assistant,
            &[P::Text(&"words ".repeat(400 + turn))],
        )
        .unwrap();
        h.build(&mut m);
        assert!(m.tokens() <= budget, "turn {turn}: {}", m.tokens());
    }
    assert!(m.summary_tokens > 0.0, "the oldest turns were summarized");
}

#[test]
fn a_store_that_fails_keeps_outputs_cut_not_masked() {
    let (mut m, mut h) = Host {
        fail_store: true,
        ..Host::default()
    }
    .start(20_000.0, "go");
    for turn in 0..40 {
        tool_turn(&mut h, &mut m, 4_000, turn);
        h.build(&mut m);
        assert!(m.tokens() <= 20_000.0, "turn {turn}");
        if let Some(c) = &m.record.compaction {
            assert!(c.masked.is_empty());
            assert!(m.record.raised.contains(&Warning::StoreFailed));
        }
    }
    assert!(h.stored.is_empty());
}

#[test]
fn a_compaction_the_host_defers_waits_while_the_request_fits_and_runs_when_it_would_not() {
    let budget = 20_000.0;
    let (mut m, mut h) = Host::default().start(budget, "fix the parser");
    // Up to the first compaction's build.
    let mut turn = 0;
    while m.compaction_due().is_none() {
        tool_turn(&mut h, &mut m, 4_000, turn);
        turn += 1;
        if m.compaction_due().is_none() {
            h.build(&mut m);
            assert!(m.record.compaction.is_none());
        }
    }
    h.defer = true;
    let mut deferred = 0;
    loop {
        h.build(&mut m);
        assert!(m.tokens() <= budget, "turn {turn}");
        if m.record.compaction.is_some() {
            break;
        }
        assert!(m.compaction_due().is_some() || m.tokens() <= budget);
        assert_eq!(m.record.warnings[0].code, "compaction-deferred");
        deferred += 1;
        tool_turn(&mut h, &mut m, 4_000, turn);
        turn += 1;
    }
    assert!(deferred >= 1, "{deferred} builds deferred");
    // It ran only once the request would not have fit: the budget still holds.
    assert!(
        m.record
            .warnings
            .iter()
            .all(|w| w.code != "compaction-deferred")
    );
    // Outside a build, a deferral is out of place.
    assert!(matches!(
        m.apply(&Event::Defer),
        Err(journal::Refusal::OutOfPlace(_))
    ));
}
