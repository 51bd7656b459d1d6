//! What a provider bills for an image or a document, by the rule it publishes. Each rule
//! is tested against the figures its documentation gives (the tests below).
//!
//! - **Anthropic** ("Vision"): an image is scaled down to fit the model's longest edge and
//!   token cap, then billed one token per 28×28-pixel patch, `⌈w/28⌉ × ⌈h/28⌉` (1,568 px
//!   and 1,568 tokens for most models; 2,576 px and 4,784 for the high-resolution ones).
//!   Its earlier rule, `w × h / 750` after fitting 1,568 px and about 1,600 tokens, is
//!   still what some models bill: the count is the larger of the two, so it is never
//!   under either (a screenshot's two figures are within 3% of each other).
//! - **OpenAI** ("Images and vision"): the tile models fit 2,048 px, then a shortest side
//!   of 768 px, and bill a base plus a cost per 512-px tile (`detail: 'low'`: the base
//!   alone); the patch models bill 32-px patches, scaled down to a patch budget, times a
//!   multiplier.
//! - **Gemini** ("Token counting"): 258 tokens for an image at most 384 px on both sides;
//!   a larger one is cut into tiles of its shorter side ÷ 1.5 (256 to 768 px), 258 each.
//!
//! A PDF is billed per page. Anthropic bills a page as its text and an image of it,
//! "1,500–3,000 tokens per page" ("PDF support"): the low end is taken, and calibration by
//! kind (`context::calibration`) learns the provider's real figure from its usage reports.
//! OpenAI publishes no figure and bills the same two things: the same 1,500. Gemini bills
//! 258 a page ("Document understanding").

/// How an OpenAI image is looked at (`detail`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    Auto,
    Low,
    High,
    Original,
}

/// A provider's rule for images and documents.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    /// Anthropic: the longest edge and the token cap an image is scaled down to.
    Anthropic {
        max_edge: u32,
        max_tokens: u32,
    },
    /// OpenAI's tile models: the base (all of `detail: 'low'`) and the cost of each tile.
    OpenAiTile {
        base: u32,
        tile: u32,
    },
    /// OpenAI's patch models: the patches an image is scaled down to, its longest edge,
    /// and the multiplier.
    OpenAiPatch {
        max_patches: u32,
        max_edge: u32,
        multiplier: f64,
    },
    Gemini,
    /// No provider named (`ai-sdk`, `vscode`): the larger of Anthropic's and OpenAI's.
    Larger,
}

/// Anthropic's rule for most models, and for those that read high-resolution images.
pub const ANTHROPIC: Rule = Rule::Anthropic {
    max_edge: 1568,
    max_tokens: 1568,
};
pub const ANTHROPIC_HIGH_RES: Rule = Rule::Anthropic {
    max_edge: 2576,
    max_tokens: 4784,
};
/// GPT-4o, GPT-4.1 and GPT-4.5: the largest base and tile of the tile models but
/// gpt-4o-mini's.
pub const OPENAI: Rule = Rule::OpenAiTile {
    base: 85,
    tile: 170,
};

/// Tokens a PDF page is billed at (see the module's documentation).
pub const PAGE_TOKENS: f64 = 1_500.0;
pub const GEMINI_PAGE_TOKENS: f64 = 258.0;
/// Pages a document is counted as when its pages cannot be read (given by URL or file id,
/// or unreadable): a stated guess, corrected by calibration.
pub const UNKNOWN_PAGES: u64 = 10;
/// Gemini's tokens for an image or a tile.
const GEMINI_TILE_TOKENS: f64 = 258.0;

/// `(w, h)` scaled by `s`, each side rounded down, at least 1 px.
fn scaled(w: f64, h: f64, s: f64) -> (f64, f64) {
    ((w * s).floor().max(1.0), (h * s).floor().max(1.0))
}

fn anthropic_patches(w: f64, h: f64) -> f64 {
    (w / 28.0).ceil() * (h / 28.0).ceil()
}

/// Anthropic's current rule: the largest size of the image's shape whose padded sides fit
/// `max_edge` and whose patches fit `max_tokens` (found on the longest edge, as the
/// documentation's reference does), billed a token a patch.
fn anthropic(w: f64, h: f64, max_edge: f64, max_tokens: f64) -> f64 {
    let fits = |(w, h): (f64, f64)| {
        (w / 28.0).ceil() * 28.0 <= max_edge
            && (h / 28.0).ceil() * 28.0 <= max_edge
            && anthropic_patches(w, h) <= max_tokens
    };
    if fits((w, h)) {
        return anthropic_patches(w, h);
    }
    let long = w.max(h);
    let (mut lo, mut hi) = (1.0_f64, long.min(max_edge));
    while hi - lo > 0.5 {
        let mid = ((lo + hi) / 2.0).floor();
        if mid <= lo {
            break;
        }
        if fits(scaled(w, h, mid / long)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let (w, h) = scaled(w, h, lo / long);
    anthropic_patches(w, h)
}

/// Anthropic's earlier rule: fit 1,568 px on the longest edge and about 1,600 tokens
/// (1.2 megapixels), then `w × h / 750`.
fn anthropic_legacy(w: f64, h: f64) -> f64 {
    let s = (1568.0 / w.max(h)).min(1.0);
    let (w, h) = (w * s, h * s);
    let tokens = w * h / 750.0;
    tokens.min(1_600.0).ceil()
}

fn openai_tile(w: f64, h: f64, detail: Detail, base: f64, tile: f64) -> f64 {
    if detail == Detail::Low {
        return base;
    }
    let (mut w, mut h) = (w, h);
    if w.max(h) > 2048.0 {
        (w, h) = scaled(w, h, 2048.0 / w.max(h));
    }
    if w.min(h) > 768.0 {
        (w, h) = scaled(w, h, 768.0 / w.min(h));
    }
    base + tile * (w / 512.0).ceil() * (h / 512.0).ceil()
}

fn openai_patch(w: f64, h: f64, detail: Detail, max_patches: f64, max_edge: f64, m: f64) -> f64 {
    let edge = if detail == Detail::Low {
        512.0
    } else {
        max_edge
    };
    let (mut w, mut h) = (w, h);
    if w.max(h) > edge {
        (w, h) = scaled(w, h, edge / w.max(h));
    }
    let patches = |w: f64, h: f64| (w / 32.0).ceil() * (h / 32.0).ceil();
    if patches(w, h) > max_patches {
        // The documentation's two steps: shrink to the budget, then to whole patches on
        // the side that needs it most.
        let shrink = (32.0 * 32.0 * max_patches / (w * h)).sqrt();
        let (pw, ph) = (w * shrink / 32.0, h * shrink / 32.0);
        let adjusted = shrink * (pw.floor() / pw).min(ph.floor() / ph);
        (w, h) = scaled(w, h, adjusted);
    }
    (patches(w, h) * m).ceil()
}

fn gemini(w: f64, h: f64) -> f64 {
    if w <= 384.0 && h <= 384.0 {
        return GEMINI_TILE_TOKENS;
    }
    let tile = (w.min(h) / 1.5).floor().clamp(256.0, 768.0);
    GEMINI_TILE_TOKENS * (w / tile).ceil() * (h / tile).ceil()
}

impl Rule {
    /// Tokens of an image of `width` × `height` pixels.
    pub fn image(self, width: u32, height: u32, detail: Detail) -> f64 {
        let (w, h) = (f64::from(width.max(1)), f64::from(height.max(1)));
        match self {
            Rule::Anthropic {
                max_edge,
                max_tokens,
            } => {
                let now = anthropic(w, h, f64::from(max_edge), f64::from(max_tokens));
                if self == ANTHROPIC {
                    now.max(anthropic_legacy(w, h))
                } else {
                    now
                }
            }
            Rule::OpenAiTile { base, tile } => {
                openai_tile(w, h, detail, f64::from(base), f64::from(tile))
            }
            Rule::OpenAiPatch {
                max_patches,
                max_edge,
                multiplier,
            } => openai_patch(
                w,
                h,
                detail,
                f64::from(max_patches),
                f64::from(max_edge),
                multiplier,
            ),
            Rule::Gemini => gemini(w, h),
            Rule::Larger => ANTHROPIC
                .image(width, height, detail)
                .max(OPENAI.image(width, height, detail)),
        }
    }

    /// Tokens of an image whose bytes are not in the request (a URL, a file id): the most
    /// the rule bills for one.
    pub fn image_at_most(self, detail: Detail) -> f64 {
        match self {
            // The most is where the cap binds: any large image of a shape.
            Rule::Anthropic { .. } | Rule::Larger => [(4000, 4000), (8000, 2000), (2000, 8000)]
                .iter()
                .map(|&(w, h)| self.image(w, h, detail))
                .fold(0.0, f64::max),
            // 2,048 × 768 after fitting: 8 tiles.
            Rule::OpenAiTile { .. } => self.image(768, 2048, detail),
            Rule::OpenAiPatch { .. } => self.image(8192, 8192, detail),
            // A 3 × 3 tiling: what a large near-square image takes.
            Rule::Gemini => 9.0 * GEMINI_TILE_TOKENS,
        }
    }

    /// Tokens of a PDF of `pages` pages (`None`: pages unknown).
    pub fn document(self, pages: Option<u64>) -> f64 {
        let per_page = if self == Rule::Gemini {
            GEMINI_PAGE_TOKENS
        } else {
            PAGE_TOKENS
        };
        per_page * pages.unwrap_or(UNKNOWN_PAGES) as f64
    }
}

/// A provider's name as a host writes it (`imageTokens.provider`).
pub const PROVIDERS: [&str; 3] = ["anthropic", "openai", "gemini"];

impl Rule {
    /// The rule of `provider` (one of [`PROVIDERS`]; `""`: told by the model's name) for
    /// `model` (`""`: its most common models'). The model names the figures where they
    /// differ: Anthropic's high-resolution models, OpenAI's tile bases and patch models.
    pub fn of(provider: &str, model: &str) -> Option<Rule> {
        let m = model.to_ascii_lowercase();
        let provider = match provider {
            "" if m.starts_with("claude") => "anthropic",
            "" if m.starts_with("gemini") => "gemini",
            "" if m.starts_with("gpt")
                || m.starts_with("o1")
                || m.starts_with("o3")
                || m.starts_with("o4")
                || m.starts_with("computer-use") =>
            {
                "openai"
            }
            "" => return Some(Rule::Larger),
            p => p,
        };
        let patch = |max_patches, max_edge, multiplier| Rule::OpenAiPatch {
            max_patches,
            max_edge,
            multiplier,
        };
        let tile = |base, tile| Rule::OpenAiTile { base, tile };
        Some(match provider {
            "anthropic" => {
                let high = ["opus-4-7", "opus-4-8", "opus-5", "fable-5", "mythos-5"];
                if high.iter().any(|h| m.contains(h)) {
                    ANTHROPIC_HIGH_RES
                } else {
                    ANTHROPIC
                }
            }
            "gemini" => Rule::Gemini,
            "openai" => {
                // Longest names first: `gpt-4.1-mini` before `gpt-4.1`.
                let table: [(&str, Rule); 17] = [
                    ("gpt-4o-mini", tile(2833, 5667)),
                    ("gpt-4.1-mini", patch(6144, 2048, 1.62)),
                    ("gpt-4.1-nano", patch(1536, 8192, 2.46)),
                    ("o4-mini", patch(1536, 8192, 1.72)),
                    ("gpt-5-mini", patch(1536, 8192, 1.62)),
                    ("gpt-5-nano", patch(1536, 8192, 2.46)),
                    ("gpt-5.2", patch(6144, 2048, 1.2)),
                    ("gpt-5.4-nano", patch(2500, 2048, 2.46)),
                    ("gpt-5.4", patch(2500, 2048, 1.62)),
                    ("gpt-5.5", patch(2500, 2048, 1.2)),
                    ("gpt-5.6", patch(2500, 2048, 1.2)),
                    ("gpt-5", tile(70, 140)),
                    ("computer-use", tile(65, 129)),
                    ("o1", tile(75, 150)),
                    ("o3", tile(75, 150)),
                    ("gpt-4", tile(85, 170)),
                    ("", OPENAI),
                ];
                table
                    .iter()
                    .find(|(prefix, _)| m.starts_with(prefix))
                    .map_or(OPENAI, |&(_, r)| r)
            }
            _ => return None,
        })
    }

    /// The rule as numbers, as it crosses the boundary: `[code, a, b, c]`.
    pub fn encode(self) -> [f64; 4] {
        match self {
            Rule::Anthropic {
                max_edge,
                max_tokens,
            } => [0.0, f64::from(max_edge), f64::from(max_tokens), 0.0],
            Rule::OpenAiTile { base, tile } => [1.0, f64::from(base), f64::from(tile), 0.0],
            Rule::OpenAiPatch {
                max_patches,
                max_edge,
                multiplier,
            } => [2.0, f64::from(max_patches), f64::from(max_edge), multiplier],
            Rule::Gemini => [3.0, 0.0, 0.0, 0.0],
            Rule::Larger => [4.0, 0.0, 0.0, 0.0],
        }
    }

    /// A rule from [`Rule::encode`]'s numbers, or `None` for numbers no rule encodes to.
    pub fn decode(n: &[f64]) -> Option<Rule> {
        let whole = |v: f64| (v.fract() == 0.0 && (1.0..=1e6).contains(&v)).then_some(v as u32);
        let at = |i: usize| n.get(i).copied().unwrap_or(f64::NAN);
        Some(match at(0) as i64 {
            0 => Rule::Anthropic {
                max_edge: whole(at(1))?,
                max_tokens: whole(at(2))?,
            },
            1 => Rule::OpenAiTile {
                base: whole(at(1))?,
                tile: whole(at(2))?,
            },
            2 => Rule::OpenAiPatch {
                max_patches: whole(at(1))?,
                max_edge: whole(at(2))?,
                multiplier: Some(at(3)).filter(|m| m.is_finite() && *m > 0.0 && *m <= 100.0)?,
            },
            3 => Rule::Gemini,
            4 => Rule::Larger,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
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
}
