use super::*;
use miniz_oxide::deflate::compress_to_vec_zlib;

/// `data` LZW-encoded as PDF writes it, with `EarlyChange` 1 (a test's own encoder).
pub fn lzw_encode(data: &[u8]) -> Vec<u8> {
    let mut dict: std::collections::HashMap<Vec<u8>, u32> =
        (0..=255u32).map(|b| (vec![b as u8], b)).collect();
    let mut next = 258u32;
    let mut width = 9u32;
    let (mut acc, mut held, mut out) = (0u64, 0u32, Vec::new());
    let emit = |code: u32, width: u32, acc: &mut u64, held: &mut u32, out: &mut Vec<u8>| {
        *acc = (*acc << width) | u64::from(code);
        *held += width;
        while *held >= 8 {
            *held -= 8;
            out.push((*acc >> *held) as u8);
        }
    };
    emit(256, width, &mut acc, &mut held, &mut out);
    let mut w: Vec<u8> = Vec::new();
    for &c in data {
        let mut wc = w.clone();
        wc.push(c);
        if dict.contains_key(&wc) {
            w = wc;
            continue;
        }
        emit(dict[&w], width, &mut acc, &mut held, &mut out);
        dict.insert(wc, next);
        next += 1;
        if next + 1 > (1 << width) && width < 12 {
            width += 1;
        }
        w = vec![c];
    }
    if !w.is_empty() {
        emit(dict[&w], width, &mut acc, &mut held, &mut out);
    }
    emit(257, width, &mut acc, &mut held, &mut out);
    if held > 0 {
        out.push((acc << (8 - held)) as u8);
    }
    out
}

pub fn hex_encode(data: &[u8]) -> Vec<u8> {
    let mut s: Vec<u8> = data
        .iter()
        .flat_map(|b| format!("{b:02X} ").into_bytes())
        .collect();
    s.push(b'>');
    s
}

pub fn a85_encode(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in data.chunks(4) {
        let mut g = [0u8; 4];
        g[..chunk.len()].copy_from_slice(chunk);
        let mut v = u32::from_be_bytes(g);
        if chunk.len() == 4 && v == 0 {
            out.push(b'z');
            continue;
        }
        let mut d = [0u8; 5];
        for slot in d.iter_mut().rev() {
            *slot = (v % 85) as u8 + b'!';
            v /= 85;
        }
        out.extend(&d[..chunk.len() + 1]);
    }
    out.extend(b"~>");
    out
}

const TEXT: &[u8] = b"<< /Type /Pages /Count 500 >> and more, and more, and more, and more";

#[test]
fn each_filter_decodes_what_its_encoder_wrote() {
    let plain = |f| decode(&[], &[(f, Params::default())]);
    assert_eq!(plain(Filter::Flate), None);
    let flate = compress_to_vec_zlib(TEXT, 6);
    let one = |f: Filter, data: &[u8]| decode(data, &[(f, Params::default())]);
    assert_eq!(
        one(Filter::Flate, &flate),
        Some(Decoded::Whole(TEXT.to_vec()))
    );
    assert_eq!(
        one(Filter::Lzw, &lzw_encode(TEXT)),
        Some(Decoded::Whole(TEXT.to_vec()))
    );
    assert_eq!(
        one(Filter::AsciiHex, &hex_encode(TEXT)),
        Some(Decoded::Whole(TEXT.to_vec()))
    );
    assert_eq!(
        one(Filter::Ascii85, &a85_encode(TEXT)),
        Some(Decoded::Whole(TEXT.to_vec()))
    );
    let rl = [&[4u8, b'a', b'b', b'c', b'd', b'e', 254, b'x'][..], &[128]].concat();
    assert_eq!(
        one(Filter::RunLength, &rl),
        Some(Decoded::Whole(b"abcdexxx".to_vec()))
    );
    // A chain: ASCII85 of Flate.
    let chain = [
        (Filter::Ascii85, Params::default()),
        (Filter::Flate, Params::default()),
    ];
    assert_eq!(
        decode(&a85_encode(&flate), &chain),
        Some(Decoded::Whole(TEXT.to_vec()))
    );
    // Cut short: what came before the cut.
    let long: Vec<u8> = (0..3000)
        .flat_map(|i| format!("{i} 0 obj << /Type /Page >> endobj\n").into_bytes())
        .collect();
    let packed = compress_to_vec_zlib(&long, 6);
    match one(Filter::Flate, &packed[..packed.len() / 2]) {
        Some(Decoded::Part(p)) => assert!(p.len() > 1000 && long.starts_with(&p)),
        other => panic!("{other:?}"),
    }
    // A wrong checksum: all of it, not as it should end.
    let mut sum = packed.clone();
    *sum.last_mut().unwrap() ^= 1;
    assert_eq!(one(Filter::Flate, &sum), Some(Decoded::Part(long.clone())));
    assert_eq!(one(Filter::AsciiHex, b"4G>"), None);
    assert_eq!(Filter::named(b"Fl"), Some(Filter::Flate));
    assert_eq!(Filter::named(b"DCTDecode"), None);
}

#[test]
fn png_and_tiff_predictors_are_undone() {
    // Rows of 4 bytes: PNG's Up on row two, Sub on row three.
    let rows = [[1u8, 2, 3, 4], [1, 1, 1, 1], [5, 5, 5, 5]];
    let mut encoded = vec![0, 1, 2, 3, 4];
    encoded.extend([2, 0, 255, 254, 253]);
    encoded.extend([1, 5, 0, 0, 0]);
    let p = Params {
        predictor: 12,
        columns: 4,
        ..Params::default()
    };
    let out = decode(&compress_to_vec_zlib(&encoded, 6), &[(Filter::Flate, p)]);
    assert_eq!(out, Some(Decoded::Whole(rows.concat())));
    let tiff = Params {
        predictor: 2,
        columns: 4,
        ..Params::default()
    };
    let out = decode(
        &compress_to_vec_zlib(&[1, 1, 1, 1], 6),
        &[(Filter::Flate, tiff)],
    );
    assert_eq!(out, Some(Decoded::Whole(vec![1, 2, 3, 4])));
}

#[test]
fn a_bomb_is_not_decoded() {
    let big = vec![b'a'; MAX_DECODED + 10];
    assert_eq!(
        decode(
            &compress_to_vec_zlib(&big, 1),
            &[(Filter::Flate, Params::default())]
        ),
        None
    );
}
