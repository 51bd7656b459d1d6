//! What a fold keeps for the agent: the opening message (the task), and a warning for
//! any text of the user's that goes.

use super::*;

/// A session with no summarizer, where the user pastes logs as text: the task, in the
/// opening message, stays in every request.
#[test]
fn the_opening_message_is_kept_in_every_request() {
    let budget = 16_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    let task = "TASK: make the parser accept trailing commas";
    h.append(&mut m, Role::User, &[P::Text(task)]).unwrap();
    let log = "error[E0308]: mismatched types at src/parse.rs:12\n".repeat(120);
    let mut folded = false;
    let mut warned = false;
    for turn in 0..40 {
        tool_turn(&mut h, &mut m, 2_000, turn);
        h.append(&mut m, Role::User, &[P::Text(&log)]).unwrap();
        let (plan, text) = h.build(&mut m);
        assert!(m.tokens() <= budget, "turn {turn}");
        assert!(text.starts_with(task), "turn {turn}: the task comes first");
        assert!(tokens(&text) <= m.raw_tokens(), "turn {turn}: counted");
        if m.first_live > 0 {
            folded = true;
            let at = plan
                .emits
                .iter()
                .position(|e| matches!(e, Emit::Message { index: 0, .. }));
            let note = plan.emits.iter().position(|e| matches!(e, Emit::LeftOut));
            assert!(at.is_some() && at < note, "turn {turn}: before the note");
        }
        warned |= m.record.raised.contains(&Warning::UserTextDropped);
    }
    assert!(folded, "the session folded turns away");
    assert!(
        warned,
        "the user's pasted logs were dropped, and the ledger said so"
    );
}

#[test]
fn with_keep_first_off_the_opening_message_goes_like_any_other() {
    let budget = 4_000.0;
    let options = Options {
        keep_first: Some(false),
        ..Options::default()
    };
    let mut m = Manager::new(
        "options",
        Config::new("options", budget, options).unwrap(),
        0.0,
        0.0,
    )
    .unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("TASK")]).unwrap();
    for turn in 0..60 {
        tool_turn(&mut h, &mut m, 600, turn);
        h.build(&mut m);
    }
    assert!(m.first_live > 0 && m.opening().is_empty());
}

/// The summary is asked about the turns after the opening message, never it again.
#[test]
fn the_summarizer_is_not_given_the_kept_opening_message() {
    let budget = 4_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host {
        summarizer: Some(|p| {
            assert!(
                !p.contains("OPENING"),
                "the prompt repeats the opening message"
            );
            "summary".into()
        }),
        ..Host::default()
    };
    h.append(&mut m, Role::User, &[P::Text("OPENING task")])
        .unwrap();
    for turn in 0..60 {
        tool_turn(&mut h, &mut m, 600, turn);
        let (_, text) = h.build(&mut m);
        assert!(text.starts_with("OPENING"), "turn {turn}");
    }
    assert!(h.summarizer_calls > 0);
}

/// Whether `text` names stored text `id` (`stored as 17`, not `stored as 170`).
fn names(text: &str, id: &str) -> bool {
    ["stored as ", "stored text "].iter().any(|form| {
        let needle = format!("{form}{id}");
        text.match_indices(&needle)
            .any(|(at, _)| !text[at + needle.len()..].starts_with(|c: char| c.is_ascii_digit()))
    })
}

/// The ids a request names, directly or through the stored listings it names.
fn named_ids(h: &Host, text: &str) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    let mut queue = vec![text.to_string()];
    while let Some(t) = queue.pop() {
        for (n, stored) in h.stored.iter().enumerate() {
            let id = (n + 1).to_string();
            let named = names(&t, &id);
            if named && !ids.contains(&id) {
                ids.push(id.clone());
                if let Some(list) = stored.strip_prefix("listing of ") {
                    queue.push(
                        list.split(", ")
                            .map(|i| format!("stored as {i}]"))
                            .collect(),
                    );
                }
            }
        }
    }
    ids
}

/// A summarizer that keeps nothing: the ids of what was folded away still reach the
/// agent, through the index the engine writes.
#[test]
fn every_stored_text_of_a_folded_turn_stays_named() {
    for summarizer in [
        Some((|_: &str| "nothing".to_string()) as fn(&str) -> String),
        None,
    ] {
        let budget = 6_000.0;
        let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
        let mut h = Host {
            summarizer,
            ..Host::default()
        };
        h.append(&mut m, Role::User, &[P::Text("task")]).unwrap();
        let mut grouped = false;
        for turn in 0..150 {
            tool_turn(&mut h, &mut m, 900, turn);
            let (_, text) = h.build(&mut m);
            assert!(m.tokens() <= budget, "turn {turn}");
            assert!(
                tokens(&text) <= m.raw_tokens(),
                "turn {turn}: the index is counted"
            );
            assert!(
                m.index.tokens() <= m.index_cap(),
                "turn {turn}: the index keeps its share"
            );
            let named = named_ids(&h, &text);
            for (&(i, _), id) in &m.store_ids {
                if i < m.first_live {
                    assert!(
                        named.contains(id),
                        "turn {turn}: {id} of message {i} is named"
                    );
                }
            }
            for (n, &(from, _)) in h.spans.iter().enumerate() {
                let id = h
                    .stored
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.starts_with("[Transcript"))
                    .nth(n)
                    .unwrap()
                    .0
                    + 1;
                assert!(
                    named.contains(&id.to_string()),
                    "turn {turn}: the transcript from {from}"
                );
            }
            grouped |= m.index.group.is_some();
        }
        assert!(!h.spans.is_empty(), "turns were folded");
        assert!(grouped, "the index grew past its share and was grouped");
    }
}

/// A transcript holds every text of its span as it was last sent: the outputs too small to
/// store on their own included.
#[test]
fn a_folded_span_is_stored_whole_as_its_transcript() {
    let budget = 4_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("task")]).unwrap();
    for turn in 0..200 {
        h.append(&mut m, Role::User, &[P::Text(&format!("note_{turn}"))])
            .unwrap();
        tool_turn(&mut h, &mut m, 80, turn);
        h.build(&mut m);
    }
    let transcripts: Vec<&String> = h
        .stored
        .iter()
        .filter(|s| s.starts_with("[Transcript"))
        .collect();
    assert_eq!(transcripts.len(), h.spans.len());
    assert!(transcripts.len() > 1);
    for turn in 0..h.spans[1].1 / 3 {
        assert!(
            transcripts
                .iter()
                .any(|t| t.contains(&format!("note_{turn}\n"))),
            "note_{turn} is in a transcript"
        );
    }
}

/// A compaction that cannot bring the request under the high water mark (the newest turn
/// alone is over it) does not run again on the next request, unless the request grew.
#[test]
fn a_compaction_that_cannot_get_under_the_mark_does_not_rerun_every_request() {
    let budget = 10_000.0;
    let mut m = Manager::new("options", config(budget), 3_900.0, 0.0).unwrap();
    let mut h = Host::default();
    h.append(&mut m, Role::User, &[P::Text("task")]).unwrap();
    let big = "x".repeat(5_600);
    h.append(
        &mut m,
        Role::Assistant,
        &[P::Call("a"), P::Call("b"), P::Call("c"), P::Call("d")],
    )
    .unwrap();
    h.append(
        &mut m,
        Role::User,
        &[
            P::Result(4, &big),
            P::Result(3, &big),
            P::Result(2, &big),
            P::Result(1, &big),
        ],
    )
    .unwrap();
    h.build(&mut m);
    let first = m
        .record
        .compaction
        .clone()
        .expect("over the mark: a compaction");
    assert!(
        first.after <= first.before,
        "size never grows at a compaction"
    );
    assert!(
        first.after > first.high_water,
        "the newest turn alone is over the mark"
    );
    for turn in 0..5 {
        h.append(&mut m, Role::User, &[P::Text("ok")]).unwrap();
        h.build(&mut m);
        assert!(
            m.record.compaction.is_none(),
            "turn {turn}: no compaction again"
        );
        assert!(m.tokens() <= budget);
    }
    // Grown by more than 5% of the budget since, the next one runs.
    h.append(&mut m, Role::Assistant, &[P::Text(&"y".repeat(2_400))])
        .unwrap();
    h.build(&mut m);
    assert!(
        m.record.compaction.is_some(),
        "grown past it again: a compaction"
    );
}

/// Whatever a compaction does, the request it leaves is no larger than the one before.
#[test]
fn size_always_drops_at_a_compaction() {
    for (budget, summarizer) in [
        (
            6_000.0,
            Some((|_: &str| "s".repeat(2_000)) as fn(&str) -> String),
        ),
        (6_000.0, None),
        (
            20_000.0,
            Some((|_: &str| String::new()) as fn(&str) -> String),
        ),
    ] {
        let mut m = Manager::new("options", config(budget), 500.0, 0.0).unwrap();
        let mut h = Host {
            summarizer,
            ..Host::default()
        };
        h.append(&mut m, Role::User, &[P::Text("task")]).unwrap();
        let mut compactions = 0;
        for turn in 0..200 {
            tool_turn(&mut h, &mut m, 600 + (turn * 37) % 4_000, turn);
            h.build(&mut m);
            if let Some(c) = &m.record.compaction {
                compactions += 1;
                assert!(
                    c.after < c.before,
                    "turn {turn}: {} → {}",
                    c.before,
                    c.after
                );
            }
        }
        assert!(compactions > 2, "{budget}: {compactions} compactions");
    }
}

/// However long the session, every transcript stays one recall away: past the index's
/// share its outputs are listed away first, then its oldest transcripts merge into one.
#[test]
fn every_transcript_stays_one_recall_away() {
    let budget = 20_000.0;
    // The marks pinned, so that 600 turns compact often enough to merge whatever the defaults.
    let options = Options {
        high_water: Some(0.85),
        low_water: Some(0.25),
        recent_share: Some(0.2),
        ..Options::default()
    };
    let config = Config::new("options", budget, options).unwrap();
    let mut m = Manager::new("options", config, 0.0, 0.0).unwrap();
    let mut h = Host {
        summarizer: Some(|_| "nothing".to_string()),
        ..Host::default()
    };
    h.append(&mut m, Role::User, &[P::Text("task")]).unwrap();
    for turn in 0..600 {
        h.append(
            &mut m,
            Role::User,
            &[P::Text(&format!("note_{turn} in src/mod_{turn}.rs"))],
        )
        .unwrap();
        tool_turn(&mut h, &mut m, 2_000, turn);
        let (_, text) = h.build(&mut m);
        assert!(m.index.tokens() <= m.index_cap(), "turn {turn}");
        if turn % 50 != 49 {
            continue;
        }
        // One hop: the texts the request names directly.
        let direct: Vec<&String> = h
            .stored
            .iter()
            .enumerate()
            .filter(|(n, _)| names(&text, &(n + 1).to_string()))
            .map(|(_, s)| s)
            .collect();
        for (from, to) in h.spans.iter().filter(|&&(_, to)| to <= m.first_live) {
            let heading = format!("[Transcript of messages {}–{}", from + 1, to);
            assert!(
                direct.iter().any(|s| s.contains(&heading)),
                "turn {turn}: messages {from}..{to} are one recall away"
            );
        }
    }
    assert!(
        m.index.spans.iter().any(|s| s.merged),
        "transcripts were merged"
    );
}

/// Every summary is asked for in the built-in sections; a later one is asked to update
/// the summary so far, which it is given, rather than to summarize it again.
#[test]
fn a_later_summary_updates_the_sections_of_the_one_before() {
    let mut m = Manager::new("options", config(4_000.0), 0.0, 0.0).unwrap();
    let mut h = Host {
        summarizer: Some(|p| {
            assert!(
                p.starts_with(transcript::DEFAULT_SUMMARY_INSTRUCTION),
                "{p}"
            );
            let later = p.contains("## Summary so far\nsummary with ### Task");
            assert_eq!(later, p.contains("update its sections"), "{p}");
            "summary with ### Task".into()
        }),
        ..Host::default()
    };
    h.append(&mut m, Role::User, &[P::Text("the task")])
        .unwrap();
    for turn in 0..80 {
        tool_turn(&mut h, &mut m, 600, turn);
        h.build(&mut m);
    }
    assert!(h.summarizer_calls > 1, "{} summaries", h.summarizer_calls);
}

/// The instructions read as sentences: no run of spaces left by a broken line.
#[test]
fn the_summary_instructions_have_no_runs_of_spaces() {
    let m = Manager::new("options", config(4_000.0), 0.0, 0.0).unwrap();
    let texts = [
        written(
            |p| transcript::summarizer_instruction(p, &m, 0, 2),
            &["begins", "INSTRUCTION"],
        ),
        transcript::DEFAULT_SUMMARY_INSTRUCTION.to_string(),
    ];
    for text in texts {
        assert!(!text.contains("  "), "{text:?}");
        assert!(
            text.contains("INSTRUCTION") || text.contains("### Next steps"),
            "{text:?}"
        );
    }
}
