//! The journal: a manager's events, encoded, decoded and applied again, make the same
//! manager; altered or cut short, they are refused naming where, never a panic.

use super::journal::{Event, Refusal, decode, encode};
use super::*;
use crate::base::rng::Rng;

/// A session's manager and its journal, each scenario its own.
fn scenario(n: usize) -> (Manager, Vec<Event>, Config) {
    let budget = [4_000.0, 6_000.0, 20_000.0][n % 3];
    let config = config(budget);
    let mut m = Manager::new("options", config, 200.0, 0.0).unwrap();
    let mut h = Host {
        summarizer: [
            Some((|_: &str| "what was done".to_string()) as fn(&str) -> String),
            None,
        ][n % 2],
        fail_store: n == 4,
        ..Host::default()
    };
    h.append(&mut m, Role::User, &[P::Text("the task")])
        .unwrap();
    for turn in 0..(60 + 20 * n) {
        h.append(
            &mut m,
            Role::User,
            &[P::Text(&format!("step {turn} in src/m{turn}.rs"))],
        )
        .unwrap();
        tool_turn(&mut h, &mut m, 300 + (turn * 53) % 1_400, turn);
        h.build(&mut m);
        if turn % 7 == 0 {
            let reported = m.tokens() + 30.0;
            h.ev(&mut m, Event::Observed(reported));
        }
        if turn == 40 {
            h.ev(&mut m, Event::Compact);
        }
    }
    (m, h.events, config)
}

#[test]
fn a_journal_applied_again_makes_the_same_manager() {
    for n in 0..5 {
        let (m, events, config) = scenario(n);
        let bytes = encode(&events);
        let decoded = decode(&bytes).unwrap();
        // Compared as bytes: a failed store's line is NaN, which equals nothing.
        assert_eq!(encode(&decoded), bytes, "scenario {n}: decoded as encoded");
        let mut again = Manager::new("options", config, 200.0, 0.0).unwrap();
        again.apply_all(&decoded).unwrap();
        let (a, b) = (format!("{again:?}"), format!("{m:?}"));
        let at = a.bytes().zip(b.bytes()).position(|(x, y)| x != y);
        if let Some(at) = at {
            let end = |t: &str| (at + 80).min(t.len());
            panic!(
                "scenario {n}: differs at {at}: {} | {}",
                &a[at.saturating_sub(150)..end(&a)],
                &b[at.saturating_sub(150)..end(&b)]
            );
        }
        assert_eq!(a.len(), b.len(), "scenario {n}: the same manager");
        assert!(m.first_live > 0, "scenario {n} folded turns");
    }
}

#[test]
fn a_journal_framed_from_its_events_bytes_is_the_journal() {
    // The binding keeps events encoded as they come and frames them when the shell takes
    // them: the same bytes as the whole journal's, whatever the count's width.
    let (_, events, _) = scenario(2);
    for n in [0, 1, 127, 128, events.len()] {
        let events: Vec<Event> = events.iter().cycle().take(n).cloned().collect();
        let mut body = Vec::new();
        for e in &events {
            e.encode(&mut body);
        }
        assert_eq!(journal::frame(n, &body), encode(&events), "{n} events");
    }
}

#[test]
fn an_event_out_of_place_is_refused_and_nothing_changes() {
    let (m, _, _) = scenario(0);
    let before = format!("{m:?}");
    let mut m2 = m.clone();
    let events = [
        Event::Tail(12.0),
        Event::Stored {
            id: Some("x".into()),
            line: 10.0,
        },
    ];
    let (at, why) = m2.apply_all(&events).unwrap_err();
    assert_eq!(at, 1);
    assert!(matches!(why, Refusal::OutOfPlace(_)));
    assert_eq!(format!("{m2:?}"), before, "not even the tail");
    for e in [
        Event::Commit,
        Event::Plan,
        Event::Measured(3.0),
        Event::Render { has_fixed: false },
        Event::Summarized(4.0),
    ] {
        assert!(
            matches!(m2.clone().apply(&e), Err(Refusal::OutOfPlace(_))),
            "{e:?}"
        );
    }
}

#[test]
fn a_newer_or_unknown_journal_is_refused_naming_where() {
    let (_, events, _) = scenario(1);
    let mut bytes = encode(&events);
    bytes[0] = super::journal::VERSION + 1;
    assert_eq!(decode(&bytes).unwrap_err().field, "journal.version");
    assert!(decode(&bytes).unwrap_err().message.contains("newer"));
    assert_eq!(decode(&[]).unwrap_err().field, "journal.version");
    let mut bytes = encode(&[events[0].clone(), Event::Compact]);
    *bytes.last_mut().unwrap() = 200;
    let e = decode(&bytes).unwrap_err();
    assert_eq!(e.field, "journal[1]");
    assert!(e.message.contains("unknown event"), "{}", e.message);
    let mut bytes = encode(&events[..3]);
    bytes.push(3);
    assert!(
        decode(&bytes)
            .unwrap_err()
            .message
            .contains("follows the last event")
    );
    let whole = encode(&events);
    let e = decode(&whole[..whole.len() - 3]).unwrap_err();
    assert!(e.message.contains("cut short"), "{e:?}");
}

/// Mutated at random (bytes, truncation, events reordered, events of another session),
/// a journal is refused naming where, or applied whole: never a panic, never half-applied.
#[test]
fn mutated_journals_are_refused_or_applied_whole_never_a_crash() {
    let sessions: Vec<_> = (0..3).map(scenario).collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut refused, mut applied) = (0, 0);
    for round in 0..3_000 {
        let (_, events, config) = &sessions[round % 3];
        let mut list = events.clone();
        let mut bytes;
        match round % 4 {
            0 => {
                bytes = encode(&list);
                for _ in 0..1 + rng.index(4) {
                    let at = 1 + rng.index(bytes.len() - 1);
                    bytes[at] = rng.next_u64() as u8;
                }
            }
            1 => {
                bytes = encode(&list);
                bytes.truncate(1 + rng.index(bytes.len() - 1));
            }
            2 => {
                let (a, b) = (rng.index(list.len()), rng.index(list.len()));
                list.swap(a, b);
                bytes = encode(&list);
            }
            _ => {
                let other = &sessions[(round + 1) % 3].1;
                let at = rng.index(list.len());
                list.insert(at, other[rng.index(other.len())].clone());
                bytes = encode(&list);
            }
        }
        let mut m = Manager::new("options", *config, 200.0, 0.0).unwrap();
        let fresh = format!("{m:?}");
        match decode(&bytes) {
            Err(e) => {
                assert!(e.field.starts_with("journal"), "{e:?}");
                refused += 1;
            }
            Ok(list) => match m.apply_all(&list) {
                Err(_) => {
                    assert_eq!(format!("{m:?}"), fresh, "round {round}: nothing applied");
                    refused += 1;
                }
                Ok(()) => applied += 1,
            },
        }
    }
    assert!(
        refused > 1_000 && applied > 10,
        "{refused} refused, {applied} applied"
    );
}
