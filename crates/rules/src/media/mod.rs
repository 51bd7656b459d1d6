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
    /// The image format its bytes begin with.
    pub format: Option<Format>,
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
        format: None,
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
        Source::Pdf => {
            let pages = pdf::pages(bytes);
            m.pages = pages.unwrap_or(0);
            m.tokens = rule.document(pages);
        }
        Source::DocumentAway => m.tokens = rule.document(None),
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
mod tests {
    use super::*;

    #[test]
    fn a_stored_image_or_pdf_is_told_from_a_text() {
        let s = stored("data:image/png;base64,iVBOR").unwrap();
        assert!(s.image && s.form == StoredForm::Data);
        assert_eq!(
            (s.media_type, s.data_at),
            ((5, 14), "data:image/png;base64,".len())
        );
        let f = stored("file-id:application/pdf;file_abc").unwrap();
        assert!(!f.image && f.form == StoredForm::FileId && f.data_at == 24);
        let u = stored("url:image/jpeg;https://example.com/a.jpg").unwrap();
        assert!(u.image && u.form == StoredForm::Url && u.data_at == 15);
        assert_eq!(stored("data:text/plain;base64,aGk="), None);
        assert_eq!(stored("cargo test output"), None);
        assert_eq!(stored("data:image/png,raw"), None);
    }

    #[test]
    fn a_part_is_measured_by_its_rule() {
        let png = [
            b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".as_slice(),
            &1280u32.to_be_bytes(),
            &800u32.to_be_bytes(),
        ]
        .concat();
        let m = measure(bill::OPENAI, Source::Image, Detail::High, &png, false);
        assert_eq!(
            (m.width, m.height, m.tokens),
            (1280, 800, 85.0 + 170.0 * 6.0)
        );
        let away = measure(bill::OPENAI, Source::ImageAway, Detail::Low, &[], true);
        assert_eq!(away.tokens, 85.0);
        let more = measure(
            bill::OPENAI,
            Source::Image,
            Detail::High,
            &[0xFF, 0xD8],
            false,
        );
        assert!(more.need_more);
        let unread = measure(bill::ANTHROPIC, Source::Image, Detail::High, b"GIF8", true);
        assert_eq!(unread.tokens, bill::ANTHROPIC.image_at_most(Detail::High));
        let pdf = measure(
            bill::ANTHROPIC,
            Source::Pdf,
            Detail::Auto,
            b"%PDF-1.4\n<</Type /Pages /Count 2>>",
            true,
        );
        assert_eq!((pdf.pages, pdf.tokens), (2, 3_000.0));
    }
}
