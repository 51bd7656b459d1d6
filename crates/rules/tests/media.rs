//! The media rules on real bytes: screenshots and PDFs written by Chromium and qpdf
//! (`pkg/test/fixtures/media`, made by its `make.mjs`), not bytes made for the test.

use devs_context_rules::media::{self, Detail, Size, Source, bill, pdf, size};
use std::path::PathBuf;

fn fixture(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../pkg/test/fixtures/media")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn real_screenshots_are_measured_from_their_headers() {
    for (name, w, h) in [
        ("screenshot-1280x800.png", 1280, 800),
        ("screenshot-2560x1600.png", 2560, 1600),
        ("screenshot-1280x800.jpg", 1280, 800),
    ] {
        let bytes = fixture(name);
        assert_eq!(
            size::size(&bytes, true),
            Size::Known {
                width: w,
                height: h
            },
            "{name}"
        );
        // Its first 64 KiB say it too.
        let head = &bytes[..bytes.len().min(size::HEADER_BYTES)];
        assert_eq!(
            size::size(head, false),
            Size::Known {
                width: w,
                height: h
            },
            "{name}"
        );
    }
    let m = media::measure(
        bill::ANTHROPIC,
        Source::Image,
        Detail::Auto,
        &fixture("screenshot-2560x1600.png"),
        true,
    );
    assert!((1_500.0..=1_600.0).contains(&m.tokens), "{}", m.tokens);
    let m = media::measure(
        bill::OPENAI,
        Source::Image,
        Detail::High,
        &fixture("screenshot-1280x800.jpg"),
        true,
    );
    // 1,280 × 800 → 1,228 × 768: 3 × 2 tiles.
    assert_eq!(m.tokens, 85.0 + 6.0 * 170.0);
}

#[test]
fn real_pdfs_give_their_pages_plain_or_in_object_streams() {
    assert_eq!(
        pdf::pages(&fixture("review-6-pages.pdf")),
        pdf::Pages::Read(6)
    );
    assert_eq!(
        pdf::pages(&fixture("review-6-pages-object-streams.pdf")),
        pdf::Pages::Read(6)
    );
    let m = media::measure(
        bill::ANTHROPIC,
        Source::Pdf,
        Detail::Auto,
        &fixture("review-6-pages-object-streams.pdf"),
        true,
    );
    assert_eq!((m.pages, m.tokens), (6, 9_000.0));
}
