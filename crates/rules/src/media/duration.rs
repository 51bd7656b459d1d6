//! An audio or video file's duration, read from its own header: WAV (its `fmt ` byte rate
//! and `data` size), FLAC (`STREAMINFO`'s samples), MP4, M4A and QuickTime (the movie
//! header, `mvhd`, or a fragmented movie's `mehd`) and MP3 (its frames, walked one by one:
//! a frame header says its length and its samples, so a variable bit rate is read as
//! exactly as a constant one). Nothing is decoded: a provider bills audio and video by
//! their seconds.

/// The duration, in seconds, of the file `bytes` holds; `None` for a format this does not
/// read, or one whose header does not say.
pub fn seconds(bytes: &[u8]) -> Option<f64> {
    let s = if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WAVE") {
        wav(bytes)
    } else if bytes.starts_with(b"fLaC") {
        flac(bytes)
    } else if bytes
        .get(4..8)
        .is_some_and(|t| matches!(t, b"ftyp" | b"moov" | b"mdat" | b"free" | b"wide" | b"skip"))
    {
        mp4(bytes)
    } else if bytes.starts_with(b"ID3") || frame(bytes, 0).is_some() {
        mp3(bytes)
    } else {
        None
    };
    s.filter(|s| s.is_finite() && *s > 0.0)
}

fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn be64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_be_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// RIFF chunks to `fmt ` and `data`: the data's bytes over the byte rate. A `data` whose
/// size says more than the file holds (a stream's placeholder, a file cut short) counts
/// what it holds: that is what is sent.
fn wav(b: &[u8]) -> Option<f64> {
    let mut at = 12;
    let mut byte_rate = None;
    while at + 8 <= b.len() {
        let id = &b[at..at + 4];
        let size = le32(b, at + 4)? as usize;
        let body = at + 8;
        match id {
            b"fmt " => byte_rate = le32(b, body + 8).filter(|&r| r > 0),
            b"data" => {
                let held = size.min(b.len() - body);
                return Some(held as f64 / f64::from(byte_rate?));
            }
            _ => {}
        }
        at = body.checked_add(size)?.checked_add(size & 1)?;
    }
    None
}

/// `STREAMINFO`, the first metadata block: 20 bits of sample rate, then 36 of samples.
fn flac(b: &[u8]) -> Option<f64> {
    let d = b.get(8..26)?;
    let rate = u32::from(d[10]) << 12 | u32::from(d[11]) << 4 | u32::from(d[12]) >> 4;
    let samples = u64::from(d[13] & 0x0F) << 32 | u64::from(be32(d, 14)?);
    (rate > 0 && samples > 0).then(|| samples as f64 / f64::from(rate))
}

/// The boxes of `b[from..to]`: `(type, body start, end)`.
fn boxes(b: &[u8], from: usize, to: usize) -> impl Iterator<Item = (&[u8], usize, usize)> {
    let mut at = from;
    std::iter::from_fn(move || {
        if at + 8 > to {
            return None;
        }
        let size = u64::from(be32(b, at)?);
        let kind = b.get(at + 4..at + 8)?;
        let (body, end) = match size {
            0 => (at + 8, to as u64),
            1 => (at + 16, (at as u64).checked_add(be64(b, at + 8)?)?),
            n => (at + 8, (at as u64).checked_add(n)?),
        };
        let end = usize::try_from(end).ok()?.min(to);
        if end < body {
            return None;
        }
        let found = (kind, body, end);
        at = end;
        Some(found)
    })
}

/// A full box's time scale and duration: version 0 in 32 bits, 1 in 64.
fn timed(b: &[u8], body: usize, scale_at: [usize; 2]) -> Option<(u32, u64)> {
    match *b.get(body)? {
        0 => Some((
            be32(b, body + scale_at[0])?,
            u64::from(be32(b, body + scale_at[0] + 4)?),
        )),
        1 => Some((
            be32(b, body + scale_at[1])?,
            be64(b, body + scale_at[1] + 4)?,
        )),
        _ => None,
    }
}

/// `moov`'s `mvhd`: duration over time scale. A fragmented movie's `mvhd` may say 0 (or
/// all ones, "unknown"): then `mvex`'s `mehd` says it, in the same time scale.
fn mp4(b: &[u8]) -> Option<f64> {
    let (_, body, end) = boxes(b, 0, b.len()).find(|(t, ..)| *t == b"moov")?;
    let (_, mvhd, _) = boxes(b, body, end).find(|(t, ..)| *t == b"mvhd")?;
    let (scale, mut duration) = timed(b, mvhd, [12, 20])?;
    let unknown = |d: u64| d == 0 || d == u64::from(u32::MAX) || d == u64::MAX;
    if unknown(duration) {
        let (_, mvex, mvex_end) = boxes(b, body, end).find(|(t, ..)| *t == b"mvex")?;
        let (_, mehd, _) = boxes(b, mvex, mvex_end).find(|(t, ..)| *t == b"mehd")?;
        duration = match *b.get(mehd)? {
            0 => u64::from(be32(b, mehd + 4)?),
            _ => be64(b, mehd + 4)?,
        };
    }
    (scale > 0 && !unknown(duration)).then(|| duration as f64 / f64::from(scale))
}

/// An MPEG audio frame's header at `at`: its length in bytes and its seconds.
fn frame(b: &[u8], at: usize) -> Option<(usize, f64)> {
    let h = b.get(at..at + 4)?;
    if h[0] != 0xFF || h[1] & 0xE0 != 0xE0 {
        return None;
    }
    // Version: 0 MPEG-2.5, 2 MPEG-2, 3 MPEG-1; layer: 3 I, 2 II, 1 III.
    let version = (h[1] >> 3) & 3;
    let layer = (h[1] >> 1) & 3;
    let (bitrate_index, rate_index) = (usize::from(h[2] >> 4), usize::from((h[2] >> 2) & 3));
    if version == 1 || layer == 0 || bitrate_index == 0 || bitrate_index == 15 || rate_index == 3 {
        return None;
    }
    const KBPS: [[u32; 14]; 5] = [
        [
            32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448,
        ],
        [
            32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384,
        ],
        [
            32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320,
        ],
        [
            32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256,
        ],
        [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    ];
    let mpeg1 = version == 3;
    let table = match (mpeg1, layer) {
        (true, 3) => 0,
        (true, 2) => 1,
        (true, _) => 2,
        (false, 3) => 3,
        (false, _) => 4,
    };
    let bitrate = KBPS[table][bitrate_index - 1] * 1000;
    // MPEG-2 halves MPEG-1's rates, MPEG-2.5 quarters them.
    let rate = [44_100u32, 48_000, 32_000][rate_index] >> (3 - version.max(1));
    let samples = match (layer, mpeg1) {
        (3, _) => 384,
        (2, _) | (1, true) => 1152,
        _ => 576,
    };
    let padding = usize::from((h[2] >> 1) & 1);
    let len = if layer == 3 {
        (12 * bitrate / rate) as usize * 4 + padding * 4
    } else {
        (samples / 8 * bitrate / rate) as usize + padding
    };
    (len >= 4).then_some((len, f64::from(samples) / f64::from(rate)))
}

/// Bytes after the last frame that may be tags (ID3v1, APE, Lyrics3) rather than audio.
const TAIL: usize = 4096;

/// Its frames, walked from after its ID3v2 tag. A walk that stops well before the end
/// (bytes that are not frames) has not read the file: no duration.
fn mp3(b: &[u8]) -> Option<f64> {
    let mut at = 0;
    if b.starts_with(b"ID3") {
        let h = b.get(..10)?;
        let size = h[6..10]
            .iter()
            .fold(0usize, |s, &x| s << 7 | usize::from(x & 0x7F));
        at = 10 + size + if h[5] & 0x10 != 0 { 10 } else { 0 };
    }
    let mut seconds = 0.0;
    let mut frames = 0;
    while let Some((len, s)) = frame(b, at) {
        seconds += s;
        frames += 1;
        at += len;
    }
    let left = b.len().saturating_sub(at);
    (frames > 0 && left <= TAIL.max(b.len() / 100)).then_some(seconds)
}

#[cfg(test)]
#[path = "tests/duration.rs"]
pub(crate) mod tests;
