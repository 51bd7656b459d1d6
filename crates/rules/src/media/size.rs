//! An image's width and height, read from its own header: PNG (IHDR), GIF (the logical
//! screen), WebP (its VP8, VP8L or VP8X chunk) and JPEG (the first start-of-frame marker).
//! Nothing is decoded: a provider bills an image by its size, and its size is in its first
//! bytes (a JPEG's after its metadata segments, which are skipped by their lengths).

/// What an image's first bytes say of its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// Width and height, in pixels.
    Known { width: u32, height: u32 },
    /// The bytes end before the size: give more of them (a JPEG whose metadata is long).
    NeedMore,
    /// Not an image this reads, or one whose header is broken.
    Unknown,
}

/// The image formats whose size [`size`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Png,
    Jpeg,
    Gif,
    Webp,
}

impl Format {
    /// Every format, in the order of their codes (`Format as u8`).
    pub const ALL: [Format; 4] = [Format::Png, Format::Jpeg, Format::Gif, Format::Webp];

    /// The format the bytes begin with, whatever the media type says.
    pub fn sniff(bytes: &[u8]) -> Option<Format> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(Format::Png)
        } else if bytes.starts_with(&[0xFF, 0xD8]) {
            Some(Format::Jpeg)
        } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
            Some(Format::Gif)
        } else if bytes.len() >= 12 && &bytes[0..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
            Some(Format::Webp)
        } else {
            None
        }
    }

    pub fn media_type(self) -> &'static str {
        match self {
            Format::Png => "image/png",
            Format::Jpeg => "image/jpeg",
            Format::Gif => "image/gif",
            Format::Webp => "image/webp",
        }
    }
}

/// Bytes a header is read from at first: enough for every format but a JPEG with long
/// metadata, which asks for more ([`Size::NeedMore`]).
pub const HEADER_BYTES: usize = 64 * 1024;

fn be16(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from(u16::from_be_bytes([
        *b.get(at)?,
        *b.get(at + 1)?,
    ])))
}

fn le16(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from(u16::from_le_bytes([
        *b.get(at)?,
        *b.get(at + 1)?,
    ])))
}

fn le24(b: &[u8], at: usize) -> Option<u32> {
    Some(
        u32::from(*b.get(at)?) | u32::from(*b.get(at + 1)?) << 8 | u32::from(*b.get(at + 2)?) << 16,
    )
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// A size read, or the bytes ending first (`NeedMore`), or a zero size (`Unknown`).
fn known(size: Option<(u32, u32)>) -> Size {
    match size {
        Some((width, height)) if width > 0 && height > 0 => Size::Known { width, height },
        Some(_) => Size::Unknown,
        None => Size::NeedMore,
    }
}

/// The size of the image `bytes` begin with (its first bytes, or all of them). `complete`:
/// `bytes` is the whole image, so running off its end means a broken header.
pub fn size(bytes: &[u8], complete: bool) -> Size {
    let read = match Format::sniff(bytes) {
        None => return Size::Unknown,
        Some(Format::Png) => known(be32(bytes, 16).zip(be32(bytes, 20))),
        Some(Format::Gif) => known(le16(bytes, 6).zip(le16(bytes, 8))),
        Some(Format::Webp) => webp(bytes),
        Some(Format::Jpeg) => jpeg(bytes),
    };
    match read {
        Size::NeedMore if complete => Size::Unknown,
        other => other,
    }
}

fn webp(b: &[u8]) -> Size {
    let Some(chunk) = b.get(12..16) else {
        return Size::NeedMore;
    };
    match chunk {
        // The extended format: the canvas, each side less one, in 24 bits.
        b"VP8X" => known(le24(b, 24).zip(le24(b, 27)).map(|(w, h)| (w + 1, h + 1))),
        // Lossless: a signature byte, then 14 bits each, less one.
        b"VP8L" => {
            if b.get(20).is_some_and(|&s| s != 0x2F) {
                return Size::Unknown;
            }
            known(b.get(21..25).map(|s| {
                let v = u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
                ((v & 0x3FFF) + 1, ((v >> 14) & 0x3FFF) + 1)
            }))
        }
        // Lossy: a frame tag, the start code, then 14 bits each (a scale in the top two).
        b"VP8 " => {
            if b.get(23..26).is_some_and(|s| s != [0x9D, 0x01, 0x2A]) {
                return Size::Unknown;
            }
            known(
                le16(b, 26)
                    .zip(le16(b, 28))
                    .map(|(w, h)| (w & 0x3FFF, h & 0x3FFF)),
            )
        }
        _ => Size::Unknown,
    }
}

/// Walks a JPEG's segments by their lengths to its first start-of-frame marker.
fn jpeg(b: &[u8]) -> Size {
    let mut at = 2;
    loop {
        // Fill bytes may come before a marker.
        while b.get(at) == Some(&0xFF) && b.get(at + 1) == Some(&0xFF) {
            at += 1;
        }
        let (Some(&ff), Some(&marker)) = (b.get(at), b.get(at + 1)) else {
            return Size::NeedMore;
        };
        if ff != 0xFF {
            return Size::Unknown;
        }
        at += 2;
        match marker {
            // Markers that stand alone: restart markers, TEM.
            0xD0..=0xD7 | 0x01 => continue,
            // The image ended, or its data began, with no frame header before it.
            0xD9 | 0xDA => return Size::Unknown,
            // SOF0–SOF15, but DHT, JPG and DAC, which share their range.
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                // Length, precision, then height and width.
                return known(be16(b, at + 5).zip(be16(b, at + 3)));
            }
            _ => {
                let Some(len) = be16(b, at) else {
                    return Size::NeedMore;
                };
                if len < 2 {
                    return Size::Unknown;
                }
                at += len as usize;
            }
        }
    }
}

#[cfg(test)]
#[path = "tests/size.rs"]
mod tests;
