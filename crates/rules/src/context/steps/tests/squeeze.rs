//! The squeeze runs until the request fits: a fan-out of parallel outputs, each under its
//! share but too many together, ends with every output cut to its share of the room left;
//! a request that no step can bring under the budget is refused before anything is asked.

use super::level;
use crate::context::history::{Kind, NewMessage, Part, Role, Shown};
use crate::context::journal::Event;
use crate::context::tests::{Host, P};
use crate::context::{Manager, Need};

#[test]
fn the_level_cuts_one_part_alone_by_what_is_over_while_it_stays_the_largest() {
    assert_eq!(level(&[1000.0, 100.0, 50.0], 300.0), 700.0);
    // Past the second: both come down to one level.
    assert_eq!(level(&[1000.0, 800.0, 50.0], 600.0), 600.0);
    // Equal parts share what is over equally.
    assert_eq!(level(&[500.0; 4], 400.0), 400.0);
    assert_eq!(level(&[], 10.0), 0.0);
}

/// A turn of `n` parallel calls, then their `n` results of `chars` characters each.
fn fan_out(h: &mut Host, m: &mut Manager, n: usize, chars: usize) {
    let calls: Vec<String> = (0..n)
        .map(|k| format!("{{\"path\":\"src/m{k}.rs\"}}"))
        .collect();
    let parts: Vec<P<'_>> = calls.iter().map(|c| P::Call(c)).collect();
    h.append(m, Role::Assistant, &parts).unwrap();
    let outputs: Vec<String> = (0..n)
        .map(|k| {
            format!(
                "output {k}\n{}",
                format!("line of module {k}\n").repeat(chars / 18)
            )
        })
        .collect();
    let results: Vec<P<'_>> = outputs
        .iter()
        .enumerate()
        .map(|(k, o)| P::Result((n - k) as u32, o))
        .collect();
    h.append(m, Role::User, &results).unwrap();
}

#[test]
fn a_fan_out_too_large_together_is_cut_each_to_its_share_and_fits() {
    for (n, chars, budget) in [
        (20, 10_000, 20_000.0),
        (40, 6_000, 20_000.0),
        (60, 3_000, 20_000.0),
        (30, 40_000, 200_000.0),
    ] {
        let (mut m, mut h) = Host::default().start(budget, "read every module");
        fan_out(&mut h, &mut m, n, chars);
        // Refused before the fix: the squeeze stopped after storing its first part.
        let (_, text) = h.build(&mut m);
        assert!(m.tokens() <= budget, "{n}: {} tokens", m.tokens());
        let results = m.history.messages.len() - 1;
        let mut shown = Vec::new();
        for k in 0..n {
            let p = *m.part(results, k);
            assert!(
                matches!(p.shown, Shown::Cut { .. }),
                "{n}: output {k} is cut: {:?} {}",
                p.shown,
                p.shown_tokens
            );
            let s = h.shown(results, k);
            assert!(
                s.starts_with(&format!("output {k}\n")),
                "{n}: output {k} by its first lines"
            );
            let id = m.store_id(results, k).expect("stored");
            assert!(s.contains(id), "{n}: output {k} names its id");
            assert_eq!(
                h.stored[id.parse::<usize>().unwrap() - 1],
                h.texts[results][k]
            );
            assert!(text.contains(&s));
            shown.push(p.shown_tokens);
        }
        let least = shown.iter().copied().fold(f64::MAX, f64::min);
        let most = shown.iter().copied().fold(0.0, f64::max);
        assert!(
            least * 1.5 >= most,
            "{n}: outputs shown from {least} to {most} tokens"
        );
    }
}

#[test]
fn a_single_output_over_the_budget_is_cut_by_what_is_over() {
    // One output larger than the rest by far: cut alone, the small ones whole, as before.
    let (mut m, mut h) = Host::default().start(20_000.0, "read every module");
    h.append(
        &mut m,
        Role::Assistant,
        &[P::Call("{\"path\":\"a\"}"), P::Call("{\"path\":\"b\"}")],
    )
    .unwrap();
    let big = format!("big\n{}", "a line of the big file\n".repeat(2_000));
    h.append(
        &mut m,
        Role::User,
        &[
            P::Result(2, &"small output\n".repeat(20)),
            P::Result(1, &big),
        ],
    )
    .unwrap();
    h.build(&mut m);
    let results = m.history.messages.len() - 1;
    assert_eq!(m.part(results, 0).shown, Shown::Whole);
    assert!(matches!(m.part(results, 1).shown, Shown::Cut { .. }));
    assert!(m.tokens() <= 20_000.0);
}

#[test]
fn an_item_that_cannot_be_cut_over_the_budget_alone_is_refused_before_anything_is_asked() {
    let mut h = Host::default();
    h.summarizer = Some(|_| "short".into());
    let (mut m, mut h) = h.start(10_000.0, "go");
    for t in 0..6 {
        h.append(
            &mut m,
            Role::User,
            &[P::Text(&format!("turn {t} {}", "w ".repeat(2_000)))],
        )
        .unwrap();
        h.append(&mut m, Role::Assistant, &[P::Text("done")])
            .unwrap();
    }
    // An encrypted item of 12,000 tokens in the newest message: nothing can make it smaller.
    m.apply(&Event::Append(vec![NewMessage {
        role: Role::Assistant,
        framing: 3.0,
        parts: vec![Part::new(Kind::Opaque, 48_000, 12_000.0, None)],
    }]))
    .unwrap();
    m.apply(&Event::Begin).unwrap();
    let need = m.apply(&Event::Plan).unwrap();
    let last = m.history.messages.len() - 1;
    assert_eq!(
        need,
        Need::TooLarge {
            message: last,
            part: 0
        }
    );
    let e = m.too_large(last, 0, "messages[13].content[0]");
    assert_eq!(e.field, "messages[13].content[0]");
    assert!(e.message.contains("cannot be cut"), "{}", e.message);
    assert!(
        e.message.contains("no summary was asked for"),
        "{}",
        e.message
    );
    m.rollback();
    assert_eq!(h.summarizer_calls, 0);
}
