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
//!   a larger one is cut into tiles of its shorter side ÷ 1.5 (256 to 768 px), 258 each,
//!   after it is scaled down to fit 3,072 × 3,072 ("larger images are scaled down and
//!   padded to fit a maximum resolution of 3072 x 3072 while preserving their original
//!   aspect ratio", Firebase AI Logic's "Input file requirements"): 24 tiles at most.
//!
//! An image whose bytes are not in the request (a URL, a file id) counts the most its rule
//! bills any image ([`Rule::image_at_most`]): the token cap for Anthropic (1,568 patches,
//! 4,784 for the high-resolution models; 1,600 by the earlier rule), 8 tiles for OpenAI's
//! tile models (2,048 × 768 after fitting), the patch budget times the multiplier for its
//! patch models, and 24 tiles for Gemini.
//!
//! Audio and video are billed by their seconds. Gemini: 32 tokens a second of audio, 263
//! a second of video (258 for its frame at 1 frame a second, 32 for its sound), at the
//! default media resolution ("Understand and count tokens", ai.google.dev/gemini-api/docs/
//! tokens). OpenAI: 10 a second of input audio ("1 token per 100 ms" of user audio, the
//! Realtime guide's "Managing costs"). Anthropic takes neither, and no provider but Gemini
//! takes video: those count by Gemini's rates, the larger. A duration the file's header
//! does not say ([`super::duration`]) is bounded by its size at the lowest bit rate an
//! encoder writes (8 kbit/s for audio, MP3's and AAC's least; 32 kbit/s for video), and
//! one whose bytes are not in the request by the longest the provider takes (9.5 hours of
//! audio and 1 hour of video a prompt, Gemini's "Audio understanding" and "Video
//! understanding" at the default resolution).
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
/// The most a page is billed at: the high end of Anthropic's "1,500–3,000 tokens per page"
/// (OpenAI's too, which states none); Gemini bills each page 258, no more.
pub const PAGE_TOKENS_AT_MOST: f64 = 3_000.0;
/// Pages a document is counted as when its pages cannot be read (given by URL or file id,
/// or unreadable): a stated guess, corrected by calibration.
pub const UNKNOWN_PAGES: u64 = 10;
/// Gemini's tokens for an image or a tile.
const GEMINI_TILE_TOKENS: f64 = 258.0;
/// The side Gemini fits an image into, and the most tiles an image so fitted is cut into:
/// a short side past 256 px (2 tiles) on a long side of 3,072 at the smallest tile (12).
const GEMINI_MAX_EDGE: f64 = 3072.0;
const GEMINI_MAX_TILES: f64 = 24.0;

/// What is billed by the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Track {
    Audio,
    Video,
}

impl Track {
    /// The lowest bit rate an encoder writes, in bytes a second: a file of `n` bytes lasts
    /// at most `n` over it.
    pub fn least_bytes_per_second(self) -> f64 {
        match self {
            Track::Audio => 1_000.0,
            Track::Video => 4_000.0,
        }
    }

    /// The longest the provider takes in a prompt, in seconds.
    pub fn longest(self) -> f64 {
        match self {
            Track::Audio => 9.5 * 3600.0,
            Track::Video => 3600.0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Track::Audio => "audio",
            Track::Video => "video",
        }
    }
}

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
    let (w, h) = if w.max(h) > GEMINI_MAX_EDGE {
        scaled(w, h, GEMINI_MAX_EDGE / w.max(h))
    } else {
        (w, h)
    };
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
            // Its cap: no image has more patches; the earlier rule's, 1,600 at most.
            Rule::Anthropic { max_tokens, .. } => {
                let cap = f64::from(max_tokens);
                if self == ANTHROPIC {
                    cap.max(1_600.0)
                } else {
                    cap
                }
            }
            Rule::Larger => ANTHROPIC
                .image_at_most(detail)
                .max(OPENAI.image_at_most(detail)),
            // 2,048 × 768 after fitting: 8 tiles.
            Rule::OpenAiTile { .. } => self.image(768, 2048, detail),
            // Its patch budget (256 patches of a low-detail 512 px), times its multiplier.
            Rule::OpenAiPatch {
                max_patches,
                multiplier,
                ..
            } => {
                let patches = if detail == Detail::Low {
                    f64::from(max_patches).min(256.0)
                } else {
                    f64::from(max_patches)
                };
                (patches * multiplier).ceil()
            }
            Rule::Gemini => GEMINI_MAX_TILES * GEMINI_TILE_TOKENS,
        }
    }

    /// Tokens a second of `track`.
    pub fn per_second(self, track: Track) -> f64 {
        match (self, track) {
            (Rule::OpenAiTile { .. } | Rule::OpenAiPatch { .. }, Track::Audio) => 10.0,
            (_, Track::Audio) => 32.0,
            (_, Track::Video) => 263.0,
        }
    }

    /// Tokens of a PDF of at most `pages` pages, each at the most a page is billed.
    pub fn document_at_most(self, pages: u64) -> f64 {
        let per_page = if self == Rule::Gemini {
            GEMINI_PAGE_TOKENS
        } else {
            PAGE_TOKENS_AT_MOST
        };
        per_page * pages as f64
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

crate::text_codes! {
    /// The formats an engine writes (the shell's `ContextFormat`, and `text`, the runner's
    /// one-string prompt), each billed by its provider's rule when the host names none
    /// ([`Rule::of_format`]): a format added here without its rule does not compile, and
    /// the shell's list is checked against this one (`FORMAT_RULES` in `protocol.ts`).
    pub enum Format {
        Anthropic = "anthropic",
        OpenAiChat = "openai-chat",
        OpenAiResponses = "openai-responses",
        Gemini = "gemini",
        AiSdk = "ai-sdk",
        Vscode = "vscode",
        Text = "text",
    }
}

impl Rule {
    /// The rule a format bills by when the host names none: Anthropic's for `anthropic`,
    /// OpenAI's for its two formats, Gemini's for `gemini`, and the larger of Anthropic's
    /// and OpenAI's for one that names no provider (`ai-sdk`, `vscode`, `text`).
    pub fn of_format(format: Format) -> Rule {
        let provider = match format {
            Format::Anthropic => "anthropic",
            Format::OpenAiChat | Format::OpenAiResponses => "openai",
            Format::Gemini => "gemini",
            Format::AiSdk | Format::Vscode | Format::Text => return Rule::Larger,
        };
        Rule::of(provider, "").unwrap_or(Rule::Larger)
    }

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
#[path = "tests/bill.rs"]
mod tests;
