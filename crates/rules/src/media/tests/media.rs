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
    assert_eq!((pdf.pages, pdf.tokens, pdf.note), (2, 3_000.0, None));
}

#[test]
fn a_pdf_not_read_is_bounded_or_refused_never_a_silent_guess() {
    let m = |bytes: &[u8], source| measure(bill::ANTHROPIC, source, Detail::Auto, bytes, true);
    let bounded = b"%PDF-1.5\n1 0 obj << /Type /ObjStm /N 40 /Filter /DCTDecode /Length 3 >>\nstream\nabc\nendstream endobj";
    let b = m(bounded, Source::Pdf);
    assert_eq!((b.pages, b.tokens), (40, 40.0 * bill::PAGE_TOKENS_AT_MOST));
    assert_eq!(b.note, Some(Note::Warn(MediaWarning::PagesBounded)));
    assert_eq!(
        m(b"%PDF-1.4 nothing here", Source::Pdf).note,
        Some(Note::Unreadable)
    );
    assert_eq!(m(b"GIF89a", Source::Pdf).note, Some(Note::Unreadable));
    let away = m(b"", Source::DocumentAway);
    assert_eq!(
        (away.pages, away.note),
        (10, Some(Note::Warn(MediaWarning::PagesUnknown)))
    );
    for note in [
        Note::Unreadable,
        Note::Warn(MediaWarning::PagesBounded),
        Note::Warn(MediaWarning::DurationBounded),
    ] {
        assert_eq!(Note::from_code(note.code()), Some(note));
    }
    assert_eq!(Note::from_code(9), None);
    let words = Note::Warn(MediaWarning::PagesBounded).words(
        "messages[2].content[0]",
        Source::Pdf,
        120_000.0,
        40.0,
    );
    assert!(words.starts_with("messages[2].content[0]: "), "{words}");
    assert!(
        words.contains("at most 40 pages") && words.contains("120000 tokens"),
        "{words}"
    );
}

#[test]
fn audio_and_video_bill_their_seconds_or_a_stated_bound() {
    use duration::tests::{mp4_bytes, wav_bytes};
    let g = |source, bytes: &[u8]| measure(Rule::Gemini, source, Detail::Auto, bytes, true);
    let wav = g(Source::Audio, &wav_bytes(3, 8_000, 1));
    assert_eq!((wav.seconds, wav.tokens, wav.note), (3.0, 96.0, None));
    let mp4 = g(Source::Video, &mp4_bytes(1000, 10_500, 0, 64));
    assert_eq!(
        (mp4.seconds, mp4.tokens, mp4.note),
        (10.5, (10.5_f64 * 263.0).ceil(), None)
    );
    // No duration read: its size at 8 kbit/s (audio) or 32 kbit/s (video).
    let ogg = g(
        Source::Audio,
        &[b"OggS".as_slice(), &[0u8; 99_996]].concat(),
    );
    assert_eq!((ogg.seconds, ogg.tokens), (100.0, 3_200.0));
    assert_eq!(ogg.note, Some(Note::Warn(MediaWarning::DurationBounded)));
    let webm = g(Source::Video, &vec![0x1A; 400_000]);
    assert_eq!((webm.seconds, webm.tokens), (100.0, 26_300.0));
    // Away: the longest the provider takes.
    let away = g(Source::VideoAway, &[]);
    assert_eq!((away.seconds, away.tokens), (3600.0, 3600.0 * 263.0));
    let openai = measure(
        bill::OPENAI,
        Source::Audio,
        Detail::Auto,
        &wav_bytes(3, 8_000, 1),
        true,
    );
    assert_eq!(openai.tokens, 30.0);
}
