//! Images and documents, measured the way providers bill them: an image's size read from
//! its header ([`size`]), a PDF's pages from the PDF ([`pdf`]), and the tokens each
//! provider's published rule gives for them ([`bill`]).

pub mod bill;
pub mod pdf;
pub mod size;

pub use bill::{Detail, Rule};
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
    /// A document's pages, when they were read.
    pub pages: u64,
    /// The bytes ended before the size: measure again with all of them.
    pub need_more: bool,
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
        need_more: false,
    };
    match source {
        Source::Image => match size::size(bytes, complete) {
            Size::Known { width, height } => {
                m.width = width;
                m.height = height;
                m.tokens = rule.image(width, height, detail);
            }
            Size::NeedMore => m.need_more = true,
            // Bytes this cannot read: what the provider bills for an image at most.
            Size::Unknown => m.tokens = rule.image_at_most(detail),
        },
        Source::ImageAway => m.tokens = rule.image_at_most(detail),
        Source::Pdf => {
            let pages = pdf::pages(bytes);
            m.pages = pages.unwrap_or(0);
            m.tokens = rule.document(pages);
        }
        Source::DocumentAway => m.tokens = rule.document(None),
    }
    m
}
