//! `keepImages`: the newest images stay whole through every step of a compaction (the
//! images step, masking, summarizing, dropping) until newer ones replace them, or until
//! keeping them would leave the request past halfway between the water marks, when the
//! oldest of them yields first.

use super::*;

/// A screenshot's stand-in, distinct per `n`, about `tokens` long.
fn shot(n: usize, tokens: usize) -> String {
    format!("img{n}:").repeat(tokens * 4 / (format!("img{n}:").len()) + 1)
}

/// A computer-use step: a click, and its result, a line and the screenshot.
fn screen_turn(h: &mut Host, m: &mut Manager, n: usize) {
    h.append(
        m,
        Role::Assistant,
        &[P::Text("clicking"), P::Call("{\"action\":\"left_click\"}")],
    )
    .unwrap();
    h.append(
        m,
        Role::User,
        &[P::Result(1, "clicked"), P::Image(1, &shot(n, 1_400))],
    )
    .unwrap();
}

/// Whether part `k` of message `i` is in the request the plan makes, whole.
fn whole_in(plan: &Plan, i: usize, k: usize) -> bool {
    plan.emits.iter().any(|e| {
        matches!(e, Emit::Message { index, changed, .. }
            if *index == i && !changed.iter().any(|&(p, _)| p == k))
    })
}

/// The newest `keep` images (fewer, when fewer were sent) that the request does not hold
/// whole: the last message of each screen turn holds one, as its second part.
fn missing(h: &Host, plan: &Plan, keep: usize) -> Vec<(usize, usize)> {
    let all: Vec<(usize, usize)> = (0..h.texts.len())
        .filter(|&i| h.texts[i].len() == 2 && h.texts[i][1].starts_with("img"))
        .map(|i| (i, 1))
        .collect();
    all[all.len().saturating_sub(keep)..]
        .iter()
        .copied()
        .filter(|&(i, k)| !whole_in(plan, i, k))
        .collect()
}

/// 60 steps at 30,000 tokens, a screenshot every 4th step and large text outputs between:
/// the masking plan's reach into older outputs took every screenshot with them, the
/// newest included.
fn computer_use(summarizer: Option<fn(&str) -> String>) {
    let budget = 30_000.0;
    let (mut m, mut h) = Host {
        summarizer,
        ..Host::default()
    }
    .start(budget, "operate the browser");
    let mut compactions = 0;
    for t in 0..60 {
        if t % 4 == 0 {
            screen_turn(&mut h, &mut m, t);
        } else {
            tool_turn(&mut h, &mut m, 6_000 + (t % 3) * 4_000, t);
        }
        let (plan, _) = h.build(&mut m);
        compactions += usize::from(m.record.compaction.is_some());
        assert!(m.tokens() <= budget, "step {t}: {} tokens", m.tokens());
        assert_eq!(missing(&h, &plan, 3), vec![], "step {t}");
    }
    assert!(compactions >= 3, "{compactions} compactions");
}

#[test]
fn masking_keeps_the_newest_screenshots_whole() {
    computer_use(None);
}

#[test]
fn masking_and_summarizing_keep_the_newest_screenshots_whole() {
    computer_use(Some(|_| "the agent clicked through the review".into()));
}

/// Screenshots, then a long talk with no output to mask: a compaction folds the oldest
/// turns, and the turns of the kept images stay out of the fold while the turns after
/// them fit below halfway between the marks; past that, the oldest yield first, and the
/// request stays within its budget throughout.
fn talk_after_screens(summarizer: Option<fn(&str) -> String>) {
    let budget = 30_000.0;
    let (mut m, mut h) = Host {
        summarizer,
        ..Host::default()
    }
    .start(budget, "operate the browser");
    // 700 tokens a turn, 100 of them the user's.
    let talk = |h: &mut Host, m: &mut Manager, t: usize| {
        let words = |tokens: usize| format!("{t:>4} ").repeat(tokens * 4 / 5);
        h.append(m, Role::User, &[P::Text(&words(100))]).unwrap();
        h.append(m, Role::Assistant, &[P::Text(&words(600))])
            .unwrap();
    };
    for t in 0..14 {
        talk(&mut h, &mut m, t);
        h.build(&mut m);
    }
    for n in 0..3 {
        screen_turn(&mut h, &mut m, n);
        h.build(&mut m);
    }
    let (mut kept_through, mut yielded) = (0, false);
    for t in 0..200 {
        talk(&mut h, &mut m, t);
        let (plan, _) = h.build(&mut m);
        assert!(m.tokens() <= budget, "turn {t}: {} tokens", m.tokens());
        let gone = missing(&h, &plan, 3);
        if gone.is_empty() {
            if m.record.compaction.is_some() {
                kept_through += 1;
            }
            // Once one yields, it never comes back; the newer yield after it.
            assert!(!yielded, "turn {t}: an image came back");
        } else {
            yielded = true;
        }
    }
    assert!(kept_through >= 1, "no compaction kept the screenshots");
    assert!(
        yielded,
        "the screenshots never yielded to the talk after them"
    );
}

#[test]
fn summarizing_keeps_the_newest_screenshots_while_they_fit() {
    talk_after_screens(Some(|_| "the user and the agent talked".into()));
}

#[test]
fn dropping_keeps_the_newest_screenshots_while_they_fit() {
    talk_after_screens(None);
}
