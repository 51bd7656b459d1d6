use super::*;

const HIGH: Detail = Detail::High;

#[test]
fn anthropic_bills_the_documented_figures() {
    // The current table (Sonnet 4.6): 200², 1000², 1092²; the 1,920 × 1,080 image is
    // scaled down to 1,456 × 819.
    let rule = Rule::Anthropic {
        max_edge: 1568,
        max_tokens: 1568,
    };
    let now = |w, h| anthropic(w, h, 1568.0, 1568.0);
    assert_eq!(now(200.0, 200.0), 64.0);
    assert_eq!(now(1000.0, 1000.0), 1296.0);
    assert_eq!(now(1092.0, 1092.0), 1521.0);
    let hd = now(1920.0, 1080.0);
    assert!((1_540.0..=1_568.0).contains(&hd), "{hd}");
    // High resolution: a 4K image is scaled to 2,576 × 1,449: 4,784 at most.
    let hi = |w, h| anthropic(w, h, 2576.0, 4784.0);
    assert_eq!(hi(1000.0, 1000.0), 1296.0);
    assert!((4_700.0..=4_784.0).contains(&hi(3840.0, 2160.0)));
    // The earlier table: ~54, ~1,334, ~1,590.
    assert_eq!(anthropic_legacy(200.0, 200.0), 54.0);
    assert_eq!(anthropic_legacy(1000.0, 1000.0), 1334.0);
    assert_eq!(anthropic_legacy(1092.0, 1092.0), 1590.0);
    // The count is the larger: never under either.
    assert_eq!(rule.image(1000, 1000, HIGH), 1334.0);
    assert_eq!(rule.image(200, 200, HIGH), 64.0);
    let screenshot = rule.image(1280, 800, HIGH);
    assert_eq!(screenshot, anthropic_legacy(1280.0, 800.0));
    assert!(screenshot <= 1.03 * now(1280.0, 800.0));
    assert!(rule.image_at_most(HIGH) <= 1_600.0 && rule.image_at_most(HIGH) >= 1_560.0);
}

#[test]
fn openai_tiles_bill_the_documented_figures() {
    // 1,024² high: 768², 4 tiles, 765; 2,048 × 4,096: 768 × 1,536, 6 tiles, 1,105;
    // low: the base, whatever the size.
    assert_eq!(OPENAI.image(1024, 1024, HIGH), 765.0);
    assert_eq!(OPENAI.image(2048, 4096, HIGH), 1105.0);
    assert_eq!(OPENAI.image(4096, 8192, Detail::Low), 85.0);
    assert_eq!(OPENAI.image(1024, 1024, Detail::Auto), 765.0);
    assert_eq!(OPENAI.image(300, 200, HIGH), 255.0);
    assert_eq!(OPENAI.image_at_most(HIGH), 85.0 + 8.0 * 170.0);
    let gpt5 = Rule::OpenAiTile {
        base: 70,
        tile: 140,
    };
    assert_eq!(gpt5.image(1024, 1024, HIGH), 630.0);
}

#[test]
fn openai_patches_bill_the_documented_figures() {
    let patch = |m| Rule::OpenAiPatch {
        max_patches: 1536,
        max_edge: 8192,
        multiplier: m,
    };
    // 1,024²: 1,024 patches; 1,800 × 2,400: shrunk to 1,056 × 1,408, 1,452 patches.
    assert_eq!(patch(1.0).image(1024, 1024, HIGH), 1024.0);
    assert_eq!(patch(1.0).image(1800, 2400, HIGH), 1452.0);
    // gpt-4.1-mini multiplies by 1.62.
    assert_eq!(
        patch(1.62).image(1024, 1024, HIGH),
        (1024.0_f64 * 1.62).ceil()
    );
    // gpt-5.4 high: 2,500 patches within 2,048 px, times 1.2: 1,024² is 1,229; 2,048² 3,000.
    let gpt54 = Rule::OpenAiPatch {
        max_patches: 2500,
        max_edge: 2048,
        multiplier: 1.2,
    };
    assert_eq!(gpt54.image(1024, 1024, HIGH), 1229.0);
    assert_eq!(gpt54.image(2048, 2048, HIGH), 3000.0);
}

#[test]
fn a_model_names_its_rule() {
    assert_eq!(Rule::of("anthropic", ""), Some(ANTHROPIC));
    assert_eq!(Rule::of("", "claude-opus-4-7"), Some(ANTHROPIC_HIGH_RES));
    assert_eq!(Rule::of("", "claude-sonnet-4-6"), Some(ANTHROPIC));
    assert_eq!(Rule::of("openai", "gpt-4.1"), Some(OPENAI));
    assert_eq!(
        Rule::of("openai", "gpt-4.1-mini-2025-04-14"),
        Some(Rule::OpenAiPatch {
            max_patches: 6144,
            max_edge: 2048,
            multiplier: 1.62
        })
    );
    assert_eq!(
        Rule::of("", "gpt-5"),
        Some(Rule::OpenAiTile {
            base: 70,
            tile: 140
        })
    );
    assert_eq!(Rule::of("", "gemini-3-pro"), Some(Rule::Gemini));
    assert_eq!(Rule::of("", "some-local-model"), Some(Rule::Larger));
    assert_eq!(Rule::of("mistral", ""), None);
    for r in [
        ANTHROPIC,
        OPENAI,
        Rule::Gemini,
        Rule::Larger,
        Rule::of("", "o4-mini").unwrap(),
    ] {
        assert_eq!(Rule::decode(&r.encode()), Some(r));
    }
    assert_eq!(Rule::decode(&[0.0, 0.5, 10.0, 0.0]), None);
    assert_eq!(Rule::decode(&[9.0]), None);
}

#[test]
fn gemini_bills_258_a_tile() {
    assert_eq!(Rule::Gemini.image(384, 384, HIGH), 258.0);
    assert_eq!(Rule::Gemini.image(200, 100, HIGH), 258.0);
    // 1,280 × 800: tiles of 533 px, 3 × 2.
    assert_eq!(Rule::Gemini.image(1280, 800, HIGH), 6.0 * 258.0);
    assert_eq!(Rule::Gemini.document(Some(3)), 774.0);
    // Fitted to 3,072 px first: 8,000 × 300 is 3,072 × 115, 12 tiles of 256 px.
    assert_eq!(Rule::Gemini.image(8000, 300, HIGH), 12.0 * 258.0);
    assert_eq!(Rule::Gemini.image(3072, 300, HIGH), 24.0 * 258.0);
}

#[test]
fn no_image_counts_more_than_an_image_away() {
    let rules = [
        ANTHROPIC,
        ANTHROPIC_HIGH_RES,
        OPENAI,
        Rule::of("", "gpt-4o-mini").unwrap(),
        Rule::of("", "gpt-4.1-mini").unwrap(),
        Rule::of("", "o4-mini").unwrap(),
        Rule::of("", "gpt-5.4").unwrap(),
        Rule::Gemini,
        Rule::Larger,
    ];
    // Every shape on a grid of sides, the edges of each rule's fitting among them.
    let mut sides: Vec<u32> = (1..=64).map(|k| k * 80).collect();
    sides.extend([
        1, 255, 256, 257, 383, 384, 385, 511, 512, 513, 576, 767, 768, 769, 1092, 1456, 1568, 1569,
        2048, 2049, 2576, 2577, 3071, 3072, 3073, 8192, 20_000,
    ]);
    for rule in rules {
        for detail in [Detail::Auto, Detail::Low, Detail::High] {
            let most = rule.image_at_most(detail);
            for &w in &sides {
                for &h in &sides {
                    let n = rule.image(w, h, detail);
                    assert!(n <= most, "{rule:?} {w}×{h} {detail:?}: {n} over {most}");
                }
            }
        }
    }
    // The patch budget is reached: 1,536 × 1,024 is 48 × 32 patches.
    let patch = Rule::of("", "gpt-4.1-nano").unwrap();
    assert_eq!(patch.image(1536, 1024, HIGH), patch.image_at_most(HIGH));
    assert_eq!(ANTHROPIC_HIGH_RES.image(2576, 1456, HIGH), 4784.0);
    assert_eq!(Rule::Gemini.image_at_most(HIGH), 6192.0);
}

#[test]
fn seconds_bill_at_the_documented_rates() {
    assert_eq!(Rule::Gemini.per_second(Track::Audio), 32.0);
    assert_eq!(Rule::Gemini.per_second(Track::Video), 263.0);
    assert_eq!(OPENAI.per_second(Track::Audio), 10.0);
    assert_eq!(ANTHROPIC.per_second(Track::Audio), 32.0);
    assert_eq!(Rule::Larger.per_second(Track::Video), 263.0);
    assert_eq!(ANTHROPIC.document_at_most(4), 12_000.0);
    assert_eq!(Rule::Gemini.document_at_most(4), 4.0 * 258.0);
}

#[test]
fn the_larger_rule_is_never_under_either_and_documents_bill_by_the_page() {
    for (w, h) in [(200, 200), (1280, 800), (2560, 1600), (800, 3000)] {
        let larger = Rule::Larger.image(w, h, HIGH);
        assert!(larger >= ANTHROPIC.image(w, h, HIGH) && larger >= OPENAI.image(w, h, HIGH));
    }
    assert_eq!(ANTHROPIC.document(Some(6)), 9_000.0);
    assert_eq!(OPENAI.document(None), 15_000.0);
}

#[test]
fn a_format_bills_by_its_providers_rule_and_one_that_names_none_by_the_larger() {
    let of = |p| Rule::of(p, "").unwrap();
    assert_eq!(Rule::of_format(Format::Anthropic), of("anthropic"));
    assert_eq!(Rule::of_format(Format::OpenAiChat), of("openai"));
    assert_eq!(Rule::of_format(Format::OpenAiResponses), of("openai"));
    assert_eq!(Rule::of_format(Format::Gemini), of("gemini"));
    for f in [Format::AiSdk, Format::Vscode, Format::Text] {
        assert_eq!(Rule::of_format(f), Rule::Larger);
    }
    assert_eq!(Format::from_code("openai"), None);
}
