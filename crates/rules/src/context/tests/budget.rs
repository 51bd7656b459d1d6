//! The bound: the fixed texts must leave room in the budget, and the calibration makes
//! the bound the provider's count.

use super::*;

#[test]
fn the_fixed_texts_must_leave_room() {
    let err = Manager::new("options", config(10_000.0), 3_000.0, 1_500.0).unwrap_err();
    assert_eq!(err.field, "options.budget");
    assert!(
        err.message.contains("system prompt (3000 tokens)"),
        "{}",
        err.message
    );
    assert!(
        Config::new(
            "options",
            10_000.0,
            Options {
                low_water: Some(0.95),
                ..Options::default()
            }
        )
        .is_err()
    );
}

#[test]
fn calibration_makes_the_bound_the_providers() {
    let budget = 10_000.0;
    let mut m = Manager::new("options", config(budget), 0.0, 0.0).unwrap();
    let mut h = Host {
        summarizer: Some(|_| "short".into()),
        ..Host::default()
    };
    for ours in [1000.0, 2000.0, 3000.0, 4000.0] {
        m.calibration.observe(ours, 0.0, 1.5 * ours).unwrap();
    }
    for turn in 0..80 {
        h.append(&mut m, Role::User, &[P::Text(&format!("turn {turn}"))])
            .unwrap();
        h.append(
            &mut m,
            Role::Assistant,
            &[P::Text(&"reasoning ".repeat(60))],
        )
        .unwrap();
        h.build(&mut m);
        assert!(1.5 * m.raw_tokens() <= budget, "turn {turn}");
    }
}

#[test]
fn a_calibration_that_outgrew_the_budget_is_named_and_a_reset_recovers() {
    let mut m = Manager::new("options", config(50_000.0), 25.0, 0.0).unwrap();
    for ours in [1000.0, 2000.0, 3000.0, 4000.0] {
        m.calibration.observe(ours, 0.0, 40_000.0 + ours).unwrap();
    }
    let err = m.plan().unwrap_err();
    assert_eq!(err.field, "calibration");
    assert!(err.message.contains("overhead 40000"), "{}", err.message);
    assert!(
        err.message.contains("resetCalibration()"),
        "{}",
        err.message
    );
    m.calibration.reset();
    assert!(m.plan().is_ok());
    // Requests that held images: the images are named as a cause, with what they held.
    for ours in [1000.0, 2000.0, 3000.0, 4000.0] {
        m.calibration
            .observe(ours, ours / 2.0, 40_000.0 + ours)
            .unwrap();
    }
    let err = m.plan().unwrap_err();
    assert!(
        err.message.contains("images or documents counted short")
            && err.message.contains("up to 2000 tokens"),
        "{}",
        err.message
    );
}
