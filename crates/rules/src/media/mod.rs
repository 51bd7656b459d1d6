//! Images, documents, audio and video, measured the way providers bill them: an image's
//! size read from its header ([`size`]), a PDF's pages from the PDF ([`pdf`], through its
//! streams' [`filters`]), an audio or video file's seconds from its header ([`duration`]),
//! and the tokens each provider's published rule gives for them ([`bill`]). What cannot be
//! read is counted at a bound the rules can state, with a warning ([`Note`]), or refused.

pub mod bill;
pub mod duration;
pub mod filters;
pub mod pdf;
pub mod size;

pub use bill::{Detail, Rule, Track};
pub use pdf::Pages;
pub use size::{Format, Size};

crate::codes! {
    /// What a media part is, as the shell reads it from its message: its code crosses the
    /// boundary with the part's bytes ([`measure`]).
    pub enum Source {
        /// An image's bytes (or their first [`size::HEADER_BYTES`]).
        Image = 0,
        /// An image by URL or file id: its bytes are not in the request.
        ImageAway = 1,
        /// A PDF's bytes.
        Pdf = 2,
        /// A document by URL or file id.
        DocumentAway = 3,
        /// An audio file's bytes.
        Audio = 4,
        /// A video file's bytes.
        Video = 5,
        /// Audio by URL or file id.
        AudioAway = 6,
        /// Video by URL or file id.
        VideoAway = 7,
    }
}

crate::text_codes! {
    /// A part counted at a bound rather than read: its code is the host's
    /// `ContextWarning.code`, raised in the ledger of the build after the append.
    pub enum MediaWarning {
        /// A PDF's page tree in a stream this cannot decode: its pages bounded by the
        /// objects the streams hold, each at the most a page is billed.
        PagesBounded = "document-pages-bounded",
        /// A document by URL or file id: its pages are not in the request.
        PagesUnknown = "document-pages-unknown",
        /// Audio or video whose header says no duration, or whose bytes are not in the
        /// request: its seconds bounded by its size, or the longest the provider takes.
        DurationBounded = "media-duration-bounded",
    }
}

/// What a measure says beside its count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Note {
    /// Counted at a bound: the host is told.
    Warn(MediaWarning),
    /// A PDF with no page this can read or bound (not a PDF, cut short, encrypted past
    /// reading): refused, since no count of it could be stated.
    Unreadable,
}

impl Note {
    /// Its code as it crosses the boundary: 0 the refusal, then each warning's place + 1.
    pub fn code(self) -> u8 {
        match self {
            Note::Unreadable => 0,
            Note::Warn(w) => 1 + MediaWarning::ALL.iter().position(|&x| x == w).unwrap_or(0) as u8,
        }
    }

    pub fn from_code(code: u8) -> Option<Note> {
        match code {
            0 => Some(Note::Unreadable),
            n => MediaWarning::ALL
                .get(usize::from(n) - 1)
                .map(|&w| Note::Warn(w)),
        }
    }

    /// What it says of the part at `field` (its source, as measured): `tokens` counted,
    /// `amount` its pages or seconds. A refusal's words follow its field, as an error's do.
    pub fn words(self, field: &str, source: Source, tokens: f64, amount: f64) -> String {
        use crate::base::args::show_number;
        let n = show_number;
        let track = if matches!(source, Source::Video | Source::VideoAway) {
            "video"
        } else {
            "audio"
        };
        match self {
            // An error's message, after its field.
            Note::Unreadable => "is not a PDF whose pages can be read or bounded (no page tree, no page, and no object stream that says how many objects it holds: not a PDF, or one cut short or encrypted): its tokens cannot be counted, so it is refused; send a PDF the provider can read".to_string(),
            Note::Warn(MediaWarning::PagesBounded) => format!(
                "{field}: its page tree is in an object stream that cannot be decoded (an image filter, or encrypted or damaged data), so its pages are bounded, not read: counted as at most {} pages at the most a page is billed, {} tokens",
                n(amount),
                n(tokens)
            ),
            Note::Warn(MediaWarning::PagesUnknown) => format!(
                "{field}: a document by URL or file id, its pages not in the request: counted as {} pages, {} tokens, a guess the provider's usage corrects; send its bytes to have its pages read",
                n(amount),
                n(tokens)
            ),
            Note::Warn(MediaWarning::DurationBounded)
                if matches!(source, Source::AudioAway | Source::VideoAway) =>
            {
                format!(
                    "{field}: {track} by URL or file id, its duration not in the request: counted at the longest the provider takes, {} s, {} tokens; send its bytes to have its duration read",
                    n(amount),
                    n(tokens)
                )
            }
            Note::Warn(MediaWarning::DurationBounded) => format!(
                "{field}: its header says no duration this reads (WAV, MP3, FLAC and MP4 are read): {track} counted at the longest its size can hold at the lowest bit rate an encoder writes, {} s, {} tokens",
                n(amount),
                n(tokens)
            ),
        }
    }
}

crate::codes! {
    /// An OpenAI image's `detail`, as its code crosses the boundary.
    pub enum DetailCode {
        Auto = 0,
        Low = 1,
        High = 2,
        Original = 3,
    }
}

impl DetailCode {
    pub fn detail(self) -> Detail {
        match self {
            DetailCode::Auto => Detail::Auto,
            DetailCode::Low => Detail::Low,
            DetailCode::High => Detail::High,
            DetailCode::Original => Detail::Original,
        }
    }
}

/// What a media part measured as.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    pub tokens: f64,
    /// An image's size, when its header was read.
    pub width: u32,
    pub height: u32,
    /// A document's pages, when they were read (or the most it may have, when bounded).
    pub pages: u64,
    /// Audio's or video's seconds, read or bounded.
    pub seconds: f64,
    /// The bytes ended before the size: measure again with all of them.
    pub need_more: bool,
    /// The image format its bytes begin with.
    pub format: Option<Format>,
    /// Counted at a bound, or refused.
    pub note: Option<Note>,
}

/// Audio's or video's seconds from its bytes (`None` when not in the request), and whether
/// they were bounded rather than read.
fn seconds_of(track: Track, bytes: Option<&[u8]>) -> (f64, bool) {
    match bytes {
        None => (track.longest(), true),
        Some(b) => match duration::seconds(b) {
            Some(s) => (s, false),
            None => (
                (b.len() as f64 / track.least_bytes_per_second()).min(track.longest()),
                true,
            ),
        },
    }
}

/// Measures one media part. `bytes`: its bytes, or the first of them (`complete` false).
pub fn measure(
    rule: Rule,
    source: Source,
    detail: Detail,
    bytes: &[u8],
    complete: bool,
) -> Measured {
    let mut m = Measured {
        tokens: 0.0,
        width: 0,
        height: 0,
        pages: 0,
        seconds: 0.0,
        need_more: false,
        format: None,
        note: None,
    };
    match source {
        Source::Image => match size::size(bytes, complete) {
            Size::Known { width, height } => {
                m.format = Format::sniff(bytes);
                m.width = width;
                m.height = height;
                m.tokens = rule.image(width, height, detail);
            }
            Size::NeedMore => m.need_more = true,
            // Bytes this cannot read: what the provider bills for an image at most.
            Size::Unknown => m.tokens = rule.image_at_most(detail),
        },
        Source::ImageAway => m.tokens = rule.image_at_most(detail),
        Source::Pdf => match pdf::pages(bytes) {
            Pages::Read(n) => {
                m.pages = n;
                m.tokens = rule.document(Some(n));
            }
            Pages::AtMost(n) => {
                m.pages = n;
                m.tokens = rule.document_at_most(n);
                m.note = Some(Note::Warn(MediaWarning::PagesBounded));
            }
            Pages::Unread => m.note = Some(Note::Unreadable),
        },
        Source::DocumentAway => {
            m.pages = bill::UNKNOWN_PAGES;
            m.tokens = rule.document(None);
            m.note = Some(Note::Warn(MediaWarning::PagesUnknown));
        }
        Source::Audio | Source::Video | Source::AudioAway | Source::VideoAway => {
            let track = if matches!(source, Source::Video | Source::VideoAway) {
                Track::Video
            } else {
                Track::Audio
            };
            let away = matches!(source, Source::AudioAway | Source::VideoAway);
            let (seconds, bounded) = seconds_of(track, (!away).then_some(bytes));
            m.seconds = seconds;
            m.tokens = (seconds * rule.per_second(track)).ceil();
            if bounded {
                m.note = Some(Note::Warn(MediaWarning::DurationBounded));
            }
        }
    }
    m
}

/// How a stored image or document is written in the store: one text, so the store needs
/// nothing new and the recall tool can tell it from a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoredForm {
    /// `data:<media type>;base64,<data>`: the bytes.
    Data,
    /// `url:<media type>;<url>`: where the provider fetches it.
    Url,
    /// `file-id:<media type>;<id>`: a provider's file id.
    FileId,
}

/// A stored text that is an image or a document: its kind (`true`: an image), the UTF-16
/// range of its media type, where its data, URL or id starts, and its form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stored {
    pub image: bool,
    pub media_type: (usize, usize),
    pub data_at: usize,
    pub form: StoredForm,
}

/// What a stored text's first units (`probe`, ASCII in every stored media form) say it is:
/// `None` for a text. Only a media type of an image or a PDF makes one.
pub fn stored(probe: &str) -> Option<Stored> {
    let kind = |mt: &str| {
        if mt.starts_with("image/") {
            Some(true)
        } else if mt == "application/pdf" {
            Some(false)
        } else {
            None
        }
    };
    if let Some(rest) = probe.strip_prefix("data:") {
        let end = rest.find(";base64,")?;
        let mt = &rest[..end];
        return Some(Stored {
            image: kind(mt)?,
            media_type: (5, 5 + end),
            data_at: 5 + end + ";base64,".len(),
            form: StoredForm::Data,
        });
    }
    for (prefix, form) in [("url:", StoredForm::Url), ("file-id:", StoredForm::FileId)] {
        if let Some(rest) = probe.strip_prefix(prefix) {
            let end = rest.find(';')?;
            let mt = &rest[..end];
            let at = prefix.len();
            return Some(Stored {
                image: kind(mt)?,
                media_type: (at, at + end),
                data_at: at + end + 1,
                form,
            });
        }
    }
    None
}

#[cfg(test)]
#[path = "tests/media.rs"]
mod tests;
