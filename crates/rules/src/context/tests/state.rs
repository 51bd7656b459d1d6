//! A manager's state, encoded and decoded, is the same manager: the next requests of the
//! two are the same, whatever happened before; altered, it is refused naming the field.

use super::*;

type Summarizer = Option<fn(&str) -> String>;

fn session(budget: f64, summarizer: Summarizer, turns: usize) -> (Manager, Host) {
    let mut m = Manager::new("options", config(budget), 300.0, 0.0).unwrap();
    let mut h = Host {
        summarizer,
        ..Host::default()
    };
    h.append(&mut m, Role::User, &[P::Text("the task")])
        .unwrap();
    for turn in 0..turns {
        h.append(
            &mut m,
            Role::User,
            &[P::Text(&format!("step {turn} of src/m{turn}.rs"))],
        )
        .unwrap();
        tool_turn(&mut h, &mut m, 200 + (turn * 97) % 2_000, turn);
        h.build(&mut m);
        if turn % 5 == 0 {
            let reported = m.tokens() + 17.0;
            h.ev(&mut m, journal::Event::Observed(reported));
        }
    }
    (m, h)
}

#[test]
fn a_state_decoded_goes_on_as_the_manager_it_was_taken_from() {
    let cases: [(f64, Summarizer); 3] = [
        (5_000.0, Some(|_| "summary so far".to_string())),
        (5_000.0, None),
        (30_000.0, Some(|p| p[..p.len().min(400)].to_string())),
    ];
    for (budget, summarizer) in cases {
        for turns in [0, 7, 60, 150] {
            let (mut a, mut ha) = session(budget, summarizer, turns);
            let bytes = a.encode_state();
            let mut b = Manager::new("options", config(budget), 300.0, 0.0).unwrap();
            b.decode_state(&bytes).unwrap();
            assert_eq!(
                b.encode_state(),
                bytes,
                "{budget}/{turns}: encoded again, the same"
            );
            let mut hb = ha.clone();
            for turn in turns..turns + 40 {
                for (m, h) in [(&mut a, &mut ha), (&mut b, &mut hb)] {
                    h.append(m, Role::User, &[P::Text(&format!("more {turn}"))])
                        .unwrap();
                    tool_turn(h, m, 300 + (turn * 53) % 1_800, turn);
                }
                let (pa, ta) = ha.build(&mut a);
                let (pb, tb) = hb.build(&mut b);
                assert_eq!(pa, pb, "{budget}/{turns}: turn {turn}, the same plan");
                assert_eq!(ta, tb, "{budget}/{turns}: turn {turn}, the same request");
                assert_eq!(
                    a.record.to_json().len(),
                    b.record.to_json().len(),
                    "turn {turn}"
                );
            }
        }
    }
}

/// The state keeps what a later decision reads: the live messages, the opening one, and
/// the numbers of those folded away. Its size follows what is live, not the session's
/// age, and so does the manager's memory (folded messages are let go at each commit).
#[test]
fn a_state_costs_what_is_live_not_the_sessions_age() {
    let (young, _) = session(5_000.0, Some(|_| "s".into()), 60);
    let (old, h) = session(5_000.0, Some(|_| "s".into()), 600);
    let (a, b) = (young.encode_state().len(), old.encode_state().len());
    let journal = journal::encode(&h.events).len();
    assert!(b < journal / 10, "state {b} bytes, journal {journal}");
    // Only the store ids' lines grow (four bytes or so each): every id stays recallable.
    let lines = (old.lines.len() - young.lines.len()) * 5;
    assert!(
        b <= 2 * a + lines,
        "at 600 turns {b} bytes, at 60 {a} (+{lines} for the lines)"
    );
    let kept = old.history.messages.kept().count();
    assert!(
        kept * 4 < old.history.messages.len(),
        "{kept} of {} messages kept in memory",
        old.history.messages.len()
    );
    assert!(old.history.calls.kept().count() * 4 < old.history.calls.len());
}

#[test]
fn an_altered_state_is_refused_naming_the_field_never_a_crash() {
    let (m, _) = session(5_000.0, Some(|_| "s".into()), 80);
    let bytes = m.encode_state();
    let fresh = || Manager::new("options", config(5_000.0), 300.0, 0.0).unwrap();
    let mut newer = bytes.clone();
    newer[0] = 9;
    let e = fresh().decode_state(&newer).unwrap_err();
    assert_eq!(e.field, "state.version");
    assert!(e.message.contains("newer"));
    let e = fresh().decode_state(&bytes[..bytes.len() / 2]).unwrap_err();
    assert!(e.field.starts_with("state"), "{e:?}");
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(fresh().decode_state(&longer).unwrap_err().field, "state");
    // Every byte changed in turn: refused naming a field, or read as some other state.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let (mut refused, mut read) = (0, 0);
    for at in 1..bytes.len() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut altered = bytes.clone();
        altered[at] ^= (seed as u8) | 1;
        let mut target = fresh();
        match target.decode_state(&altered) {
            Err(e) => {
                assert!(e.field.starts_with("state"), "{e:?}");
                refused += 1;
            }
            Ok(()) => {
                // Whatever it says, the manager builds, with no crash.
                let built =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drive(&mut target)));
                assert!(
                    built.is_ok(),
                    "byte {at}: a state read as valid crashed a build"
                );
                read += 1;
            }
        }
    }
    assert!(
        refused > 100 && read > 100,
        "{refused} refused, {read} read"
    );
}

/// A build answered blindly (every store works, every text is 10 tokens), then a turn.
fn drive(m: &mut Manager) {
    for round in 0..2 {
        m.begin();
        let Ok(mut need) = m.plan() else {
            m.rollback();
            return;
        };
        let mut steps = 0;
        while need != Need::Done && steps < 10_000 {
            need = match need {
                Need::Measure | Need::Fit => unreachable!("a reply to an aside"),
                Need::Persist { .. } => m.persisted(Some(format!("x{steps}")), 10.0),
                Need::Placeholder { .. } | Need::Cut { .. } => m.measured(10.0),
                Need::Summarize { .. } => m.summarized(20.0),
                Need::Restate { .. } => m.restated(20.0),
                Need::PersistSpan { .. } => m.span_persisted(Some(format!("s{steps}")), 10.0),
                Need::PersistGroup { .. } => m.group_persisted(Some(format!("g{steps}")), 10.0),
                Need::MergeSpans { .. } => m.spans_merged(Some(format!("m{steps}")), 10.0),
                Need::Done => Need::Done,
                Need::TooLarge { .. } => {
                    m.rollback();
                    return;
                }
            };
            steps += 1;
        }
        m.render(true);
        m.commit();
        let _ = m.append(vec![NewMessage {
            role: Role::User,
            framing: 3.0,
            parts: vec![Part::new(Kind::Text, 40, 10.0 + f64::from(round), None)],
        }]);
    }
}

/// An append as a session makes it: inside a journal of its own, committed.
fn committed_turn(h: &mut Host, m: &mut Manager, turn: usize) {
    h.ev(m, Event::Begin);
    h.append(m, Role::User, &[P::Text(&format!("step {turn}"))])
        .unwrap();
    tool_turn(h, m, 300 + (turn * 53) % 1_800, turn);
    h.ev(m, Event::Commit);
}

#[test]
fn a_state_taken_after_a_compaction_goes_on_as_the_manager_it_was_taken_from() {
    // A commit after a build that compacted takes no growth sample, in the manager and in
    // one restored from its state: the restored one took a sample the other did not, so a
    // session reopened from a checkpoint there planned its masks on another growth.
    let mut a = Manager::new("options", config(5_000.0), 300.0, 0.0).unwrap();
    let mut ha = Host {
        summarizer: Some(|_| "summary so far".into()),
        ..Host::default()
    };
    ha.append(&mut a, Role::User, &[P::Text("the task")])
        .unwrap();
    let mut checked = 0;
    for turn in 0..80 {
        committed_turn(&mut ha, &mut a, turn);
        ha.build(&mut a);
        if !a.last_compacted {
            continue;
        }
        let mut b = Manager::new("options", config(5_000.0), 300.0, 0.0).unwrap();
        b.decode_state(&a.encode_state()).unwrap();
        let (mut a2, mut ha2, mut hb) = (a.clone(), ha.clone(), ha.clone());
        for next in turn + 1..turn + 4 {
            committed_turn(&mut ha2, &mut a2, next);
            committed_turn(&mut hb, &mut b, next);
            assert_eq!(
                a2.encode_state(),
                b.encode_state(),
                "restored after turn {turn}, at turn {next}"
            );
            ha2.build(&mut a2);
            hb.build(&mut b);
        }
        checked += 1;
    }
    assert!(checked >= 3, "{checked} compactions");
}
