//! Cuts: a part too large for its share is stored and cut, never inside a surrogate pair,
//! and on a line break where one is near.

use super::*;
use crate::context::render::cut_bounds;

#[test]
fn a_part_too_large_for_its_share_is_stored_and_cut_when_first_sent() {
    let budget = 20_000.0;
    let (mut m, mut h) = Host::default().start(budget, "show me the diff");
    let huge = format!("BEGIN {} END", "diff --git a/x b/x\n+line\n".repeat(40_000));
    h.append(
        &mut m,
        Role::Assistant,
        &[P::Call("{\"cmd\":\"git diff\"}")],
    )
    .unwrap();
    h.append(&mut m, Role::User, &[P::Result(1, &huge)])
        .unwrap();
    let (_, text) = h.build(&mut m);
    assert!(m.tokens() <= budget);
    assert!(text.contains("BEGIN") && text.contains("END"));
    assert_eq!(h.stored, vec![huge.clone()]);
    assert_eq!(m.record.cut, 1);
    // Sent cut, it stays as sent.
    h.append(&mut m, Role::Assistant, &[P::Text("I see it")])
        .unwrap();
    let (plan, _) = h.build(&mut m);
    assert!(plan.prefix > 0.0 && m.record.cut == 0);
}

#[test]
fn cuts_never_split_a_surrogate_pair() {
    let text: Vec<u16> = "ab😀cd😀ef".encode_utf16().collect();
    let window = |at: usize| crate::base::text::Probe {
        start: at - 1,
        units: crate::base::cut::Units(text[at - 1..(at + 1).min(text.len())].to_vec()),
    };
    // head 3 would end inside the first 😀; tail 3 would start inside the second.
    assert_eq!(cut_bounds(3, &window(3), 3, &window(7), 10), (2, 2));
    assert_eq!(cut_bounds(2, &window(2), 2, &window(8), 10), (2, 2));
}

/// A head ends after a line break, and a tail starts after one, where one is near.
#[test]
fn cuts_land_on_line_breaks_where_one_is_near() {
    let text: String = (0..100)
        .map(|i| format!("line {i:04} of the log\n"))
        .collect();
    let units = crate::base::cut::Units::of(&text);
    let n = units.0.len();
    let whole = crate::base::text::Probe { start: 0, units };
    // Lines are 21 units long: a head of 1,000 ends after line 47 (987 units), a tail of
    // 1,000 starts at a line's start.
    let (head, tail) = cut_bounds(1_000, &whole, 1_000, &whole, n);
    assert_eq!(head, 987);
    assert_eq!((n - tail) % 21, 0, "the tail starts a line");
    assert!(tail <= 1_000 && tail > 1_000 - 21);
    // No line break near: the cut stays where it was.
    let flat = "x".repeat(3_000);
    let flat = crate::base::text::Probe::of(&flat);
    assert_eq!(
        cut_bounds(1_000, &flat, 1_000, &flat, 3_000),
        (1_000, 1_000)
    );
}

#[test]
fn a_part_no_cut_makes_smaller_is_cut_once_not_over_and_over() {
    // A call's input of thousands of short keys shortens to itself: each cut shows the
    // whole. The rules once asked again and again, each time over the whole text (a build
    // of one such input ran for a minute); now a cut that makes no progress is the last.
    let host = Host {
        uncuttable: true,
        ..Host::default()
    };
    let (mut m, mut h) = host.start(20_000.0, "go");
    let input = format!(
        "{{{}}}",
        (0..10_000)
            .map(|i| format!("\"k{i}\":\"v{i}\""))
            .collect::<Vec<_>>()
            .join(",")
    );
    h.append(&mut m, Role::Assistant, &[P::Call(&input)])
        .unwrap();
    h.append(&mut m, Role::User, &[P::Result(1, "ok")]).unwrap();
    let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| h.build(&mut m)));
    // Over the budget by itself, it is refused; but after one cut of it, not dozens.
    assert!(built.is_err());
    assert!(h.cuts <= 2, "{} cuts", h.cuts);
}
