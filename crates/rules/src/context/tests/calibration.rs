use super::*;

#[test]
fn learns_a_fixed_overhead_and_a_ratio() {
    let mut c = Calibration::default();
    assert_eq!(c.predict(1000.0), 1000.0);
    for ours in [1000.0, 5000.0, 20000.0, 80000.0] {
        c.observe(ours, 0.0, 350.0 + 1.2 * ours).unwrap();
    }
    assert!((c.ratio - 1.2).abs() < 1e-9, "{}", c.ratio);
    assert!((c.overhead - 350.0).abs() < 1e-6, "{}", c.overhead);
    // The fit, and the margin above it.
    assert_eq!(
        c.predict(10_000.0).round(),
        (12_350.0f64 * (1.0 + MARGIN)).round()
    );
    assert_eq!(c.samples(), 4);
}

#[test]
fn one_observation_is_overhead_not_ratio() {
    let mut c = Calibration::default();
    c.observe(1000.0, 0.0, 2000.0).unwrap();
    assert_eq!((c.ratio, c.overhead), (1.0, 1000.0));
}

#[test]
fn wild_reports_are_clamped_and_bad_ones_refused() {
    let mut c = Calibration::default();
    assert!(!c.observe(1000.0, 0.0, 0.0).unwrap(), "zero is set aside");
    for (x, y) in [
        (1500.0, 2000.0),
        (2000.0, 100_000.0),
        (3000.0, 300_000.0),
        (4000.0, 500_000.0),
    ] {
        assert!(c.observe(x, 0.0, y).unwrap());
    }
    assert_eq!(c.ratio, MAX_RATIO);
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(
            c.observe(10.0, 0.0, bad).unwrap_err().field,
            "usage.inputTokens"
        );
    }
    assert_eq!(c.samples(), 4);
}

/// The quick start's stand-in usage, the same whatever was sent, and reports far under
/// our count teach nothing, and reports of fewer tokens never loosen the count of text.
#[test]
fn a_usage_that_cannot_be_about_the_request_is_set_aside() {
    let mut c = Calibration::default();
    assert!(c.observe(1_000.0, 0.0, 1_200.0).unwrap());
    for ours in [2_000.0, 4_000.0, 8_000.0, 16_000.0] {
        assert!(
            !c.observe(ours, 0.0, 1_200.0).unwrap(),
            "{ours}: the same count again"
        );
    }
    assert!(
        !c.observe(16_000.0, 0.0, 100.0).unwrap(),
        "under half of ours"
    );
    assert_eq!(c.samples(), 1);
    // Consistent reports of fewer tokens do not loosen the count of text.
    let mut c = Calibration::default();
    for ours in [1_000.0, 2_000.0, 4_000.0, 8_000.0, 16_000.0, 32_000.0] {
        assert!(c.observe(ours, 0.0, 0.6 * ours).unwrap());
    }
    assert_eq!(c.ratio, MIN_RATIO);
    assert!(c.predict(10_000.0) >= 9_500.0);
}

/// The host's fixed overhead grows from 5k to 30k mid-session while prompts grow:
/// the prediction covers every later report, and the ratio stays near the truth.
#[test]
fn a_drifting_overhead_is_followed_at_once() {
    let mut c = Calibration::default();
    for turn in 0..200 {
        let ours = 8_000.0 + 60.0 * f64::from(turn % 150);
        let overhead = if turn < 120 { 5_000.0 } else { 30_000.0 };
        let reported = overhead + 1.05 * ours;
        // Within 1% of every later report, but for the one at the jump itself.
        if turn > 0 && turn != 120 {
            let predicted = c.predict(ours);
            assert!(
                predicted >= reported * 0.99,
                "turn {turn}: {c:?} under {reported}"
            );
            assert!(
                predicted <= reported * 1.25,
                "turn {turn}: {c:?} over {reported}"
            );
        }
        c.observe(ours, 0.0, reported).unwrap();
        assert!((MIN_RATIO..=MAX_RATIO).contains(&c.ratio));
        assert!(c.overhead <= 30_000.0 + 1.0, "turn {turn}: {}", c.overhead);
    }
    assert!((c.ratio - 1.05).abs() < 0.01, "{}", c.ratio);
    c.reset();
    assert_eq!((c.ratio, c.overhead, c.samples()), (1.0, 0.0, 0));
}

/// The same request reported again and again, with no image (a host that records the
/// usage of a request it sent again): the media ratio was fitted from the pairs, 0 / 0,
/// and was NaN once they were four, so a state holding it was refused on restore (found
/// by the provider-item fuzz through the package).
#[test]
fn the_same_report_twice_leaves_the_fit_finite() {
    let mut c = Calibration::default();
    for _ in 0..5 {
        c.observe(1_000.0, 0.0, 1_100.0).unwrap();
    }
    assert!(c.media_ratio.is_finite(), "{c:?}");
    assert!(c.predict_split(1_000.0, 0.0).is_finite(), "{c:?}");
    let mut c = Calibration::default();
    for _ in 0..5 {
        c.observe(1_500.0, 500.0, 1_600.0).unwrap();
    }
    assert!(c.media_ratio.is_finite() && c.ratio.is_finite(), "{c:?}");
}

/// Screenshots the rule counts at 1,000 tokens that the provider bills at 3,000 (a
/// high-resolution model): the media ratio learns it, and text keeps its own ratio.
#[test]
fn a_misjudged_image_moves_the_media_ratio_not_the_text_ratio() {
    let mut c = Calibration::default();
    for turn in 0..30 {
        let text = 4_000.0 + 300.0 * f64::from(turn);
        let images = f64::from(turn % 6 + 1);
        let media = 1_000.0 * images;
        let reported = 200.0 + 1.1 * text + 3.0 * media;
        if turn > 12 {
            let predicted = c.predict_split(text, media);
            assert!(
                predicted >= reported * 0.99 && predicted <= reported * 1.05,
                "turn {turn}: {c:?}"
            );
        }
        c.observe(text + media, media, reported).unwrap();
    }
    assert!((c.ratio - 1.1).abs() < 0.02, "{}", c.ratio);
    assert!((c.media_ratio - 3.0).abs() < 0.05, "{}", c.media_ratio);
    // Images counted above what is billed loosen the media, never the text, count.
    let mut c = Calibration::default();
    for turn in 0..30 {
        let text = 4_000.0 + 300.0 * f64::from(turn);
        let media = 1_600.0 * f64::from(turn % 5 + 1);
        c.observe(text + media, media, 1.0 * text + 0.4 * media)
            .unwrap();
    }
    assert_eq!(c.media_ratio, MIN_MEDIA_RATIO);
    assert!(c.ratio >= 1.0 - 1e-9, "{}", c.ratio);
}
