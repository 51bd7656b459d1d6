use super::*;

/// A PCM WAV of `seconds` at `rate` Hz, 16-bit, `channels` channels.
pub fn wav_bytes(seconds: u32, rate: u32, channels: u16) -> Vec<u8> {
    let byte_rate = rate * u32::from(channels) * 2;
    let data = byte_rate * seconds;
    let mut b = b"RIFF".to_vec();
    b.extend((36 + data).to_le_bytes());
    b.extend(b"WAVEfmt ");
    b.extend(16u32.to_le_bytes());
    b.extend(1u16.to_le_bytes());
    b.extend(channels.to_le_bytes());
    b.extend(rate.to_le_bytes());
    b.extend(byte_rate.to_le_bytes());
    b.extend((channels * 2).to_le_bytes());
    b.extend(16u16.to_le_bytes());
    b.extend(b"LIST");
    b.extend(3u32.to_le_bytes());
    b.extend(b"abc\0");
    b.extend(b"data");
    b.extend(data.to_le_bytes());
    b.extend(vec![0u8; data as usize]);
    b
}

/// An MP4 whose `mvhd` (of `version`) says `duration` in `scale`, after an `ftyp` and
/// before an `mdat` of `mdat` bytes.
pub fn mp4_bytes(scale: u32, duration: u64, version: u8, mdat: usize) -> Vec<u8> {
    let mut mvhd = vec![version, 0, 0, 0];
    if version == 0 {
        mvhd.extend([0u8; 8]);
        mvhd.extend(scale.to_be_bytes());
        mvhd.extend((duration as u32).to_be_bytes());
    } else {
        mvhd.extend([0u8; 16]);
        mvhd.extend(scale.to_be_bytes());
        mvhd.extend(duration.to_be_bytes());
    }
    mvhd.extend([0u8; 80]);
    let boxed = |kind: &[u8], body: &[u8]| {
        [&((body.len() + 8) as u32).to_be_bytes()[..], kind, body].concat()
    };
    let moov = boxed(b"moov", &boxed(b"mvhd", &mvhd));
    [
        boxed(b"ftyp", b"isom\0\0\x02\0isomiso2mp41"),
        moov,
        boxed(b"mdat", &vec![0u8; mdat]),
    ]
    .concat()
}

/// An MP3 of `frames` MPEG-1 Layer III frames at `kbps` and 44.1 kHz, after an ID3v2 tag.
pub fn mp3_bytes(frames: usize, kbps: u32) -> Vec<u8> {
    let index = [
        32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320,
    ]
    .iter()
    .position(|&k| k == kbps)
    .unwrap() as u8
        + 1;
    let len = (144 * kbps * 1000 / 44_100) as usize;
    let mut b = b"ID3\x04\0\0\0\0\x01\x00".to_vec();
    b.extend(vec![0u8; 128]);
    for _ in 0..frames {
        let mut f = vec![0xFF, 0xFB, index << 4, 0x00];
        f.resize(len, 0x55);
        b.extend(f);
    }
    b.extend(b"TAG");
    b.extend(vec![0u8; 125]);
    b
}

#[test]
fn wav_durations_are_its_data_over_its_byte_rate() {
    assert_eq!(seconds(&wav_bytes(3, 16_000, 1)), Some(3.0));
    assert_eq!(seconds(&wav_bytes(2, 44_100, 2)), Some(2.0));
    // Cut short: what it holds.
    let w = wav_bytes(4, 8_000, 1);
    let cut = &w[..w.len() - 16_000];
    assert_eq!(seconds(cut), Some(3.0));
    assert_eq!(seconds(&w[..20]), None);
}

#[test]
fn mp4_durations_are_its_movie_header() {
    assert_eq!(seconds(&mp4_bytes(1000, 61_500, 0, 4096)), Some(61.5));
    assert_eq!(
        seconds(&mp4_bytes(90_000, 90_000 * 600, 1, 16)),
        Some(600.0)
    );
    // The movie header after the data (not fast-started).
    let tail = mp4_bytes(600, 600 * 10, 0, 0);
    let ftyp_len = be32(&tail, 0).unwrap() as usize;
    let moved = [
        &tail[..ftyp_len],
        &[0, 0, 0, 16][..],
        b"mdat",
        &[0u8; 8],
        &tail[ftyp_len..],
    ]
    .concat();
    assert_eq!(seconds(&moved), Some(10.0));
    assert_eq!(seconds(&mp4_bytes(0, 10, 0, 0)), None);
    assert_eq!(seconds(&mp4_bytes(600, 0, 0, 0)), None);
}

#[test]
fn mp3_durations_are_its_frames() {
    // 1,152 samples a frame at 44.1 kHz.
    let s = seconds(&mp3_bytes(1000, 128)).unwrap();
    assert!((s - 1000.0 * 1152.0 / 44_100.0).abs() < 1e-9, "{s}");
    // Frames of two bit rates (a variable bit rate), walked alike.
    let high = mp3_bytes(100, 320);
    let vbr = [&high[..high.len() - 128], &mp3_bytes(100, 32)[138..]].concat();
    let s = seconds(&vbr).unwrap();
    assert!((s - 200.0 * 1152.0 / 44_100.0).abs() < 1e-9, "{s}");
    // Frames, then a long run of bytes that are not: not read.
    let mut broken = mp3_bytes(10, 128);
    broken.extend(vec![0u8; 50_000]);
    assert_eq!(seconds(&broken), None);
}

#[test]
fn flac_durations_are_its_samples() {
    let mut b = b"fLaC\x00\x00\x00\x22".to_vec();
    let mut info = vec![0u8; 34];
    // 48 kHz, then 480,000 samples.
    info[10] = (48_000u32 >> 12) as u8;
    info[11] = (48_000u32 >> 4) as u8;
    info[12] = ((48_000u32 & 0xF) << 4) as u8;
    info[14..18].copy_from_slice(&480_000u32.to_be_bytes());
    b.extend(info);
    assert_eq!(seconds(&b), Some(10.0));
    assert_eq!(seconds(b"OggS\0\x02"), None);
}
