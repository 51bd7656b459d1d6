use super::*;

fn png(width: u32, height: u32) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    b.extend(width.to_be_bytes());
    b.extend(height.to_be_bytes());
    b.extend([8, 6, 0, 0, 0]);
    b
}

#[test]
fn png_and_gif_sizes_are_read_from_their_headers() {
    assert_eq!(
        size(&png(1280, 800), false),
        Size::Known {
            width: 1280,
            height: 800
        }
    );
    let gif = [b"GIF89a".as_slice(), &[0x40, 0x01, 0xF0, 0x00, 0, 0, 0]].concat();
    assert_eq!(
        size(&gif, false),
        Size::Known {
            width: 320,
            height: 240
        }
    );
    assert_eq!(size(&png(1280, 800)[..18], false), Size::NeedMore);
    assert_eq!(size(&png(1280, 800)[..18], true), Size::Unknown);
    assert_eq!(size(&png(0, 800), false), Size::Unknown);
    assert_eq!(size(b"hello", false), Size::Unknown);
}

#[test]
fn webp_sizes_in_each_of_its_three_chunks() {
    let riff = |chunk: &[u8], body: &[u8]| [b"RIFF\0\0\0\0WEBP", chunk, b"\0\0\0\0", body].concat();
    // VP8X: flags, 3 reserved, then width-1 and height-1 in 24 bits.
    let x = riff(b"VP8X", &[0, 0, 0, 0, 0xFF, 0x04, 0, 0x1F, 0x03, 0]);
    assert_eq!(
        size(&x, false),
        Size::Known {
            width: 1280,
            height: 800
        }
    );
    // VP8L: 0x2F, then 14 bits of width-1, 14 of height-1.
    let v: u32 = 1279 | (799 << 14);
    let l = riff(b"VP8L", &[[0x2F].as_slice(), &v.to_le_bytes()].concat());
    assert_eq!(
        size(&l, false),
        Size::Known {
            width: 1280,
            height: 800
        }
    );
    // VP8: a 3-byte frame tag, the start code, then width and height.
    let lossy = riff(
        b"VP8 ",
        &[0, 0, 0, 0x9D, 0x01, 0x2A, 0x00, 0x05, 0x20, 0x03],
    );
    assert_eq!(
        size(&lossy, false),
        Size::Known {
            width: 1280,
            height: 800
        }
    );
}

#[test]
fn a_jpeg_size_is_found_past_its_metadata() {
    let mut b = vec![0xFF, 0xD8];
    // An APP1 segment of 5,000 bytes, then DQT, then SOF2 (progressive).
    b.extend([0xFF, 0xE1]);
    b.extend(5_000u16.to_be_bytes());
    b.extend(vec![0u8; 4_998]);
    b.extend([0xFF, 0xDB, 0x00, 0x04, 0, 0]);
    b.extend([
        0xFF, 0xFF, 0xC2, 0x00, 0x11, 0x08, 0x03, 0x20, 0x05, 0x00, 3,
    ]);
    assert_eq!(
        size(&b, false),
        Size::Known {
            width: 1280,
            height: 800
        }
    );
    assert_eq!(size(&b[..3000], false), Size::NeedMore);
    assert_eq!(size(&b[..3000], true), Size::Unknown);
    // A huffman table is not a frame header.
    let dht = [0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x04, 1, 2, 0xFF, 0xDA];
    assert_eq!(size(&dht, false), Size::Unknown);
}
