//! A PDF stream's filters, decoded in order (ISO 32000-1, 7.4): `FlateDecode`, `LZWDecode`,
//! `ASCIIHexDecode`, `ASCII85Decode` and `RunLengthDecode`, each by its name or its
//! abbreviation (`/Fl`, `/LZW`, `/AHx`, `/A85`, `/RL`: the specification reserves the short
//! names for inline images, but hosts' PDFs use them on streams too), with the predictors
//! of `/DecodeParms` after Flate and LZW. The image filters (`DCTDecode`, `JPXDecode`,
//! `JBIG2Decode`, `CCITTFaxDecode`) and `Crypt` are not decoded: no page tree is in them,
//! or it cannot be read without the document's key.

use miniz_oxide::inflate::TINFLStatus;

/// A stream decodes to at most this: a larger one is a bomb, not pages.
pub const MAX_DECODED: usize = 16 << 20;

/// A filter this decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    Flate,
    Lzw,
    AsciiHex,
    Ascii85,
    RunLength,
}

impl Filter {
    /// The filter of a name as a stream's `/Filter` gives it; `None` for one this does not decode.
    pub fn named(name: &[u8]) -> Option<Filter> {
        Some(match name {
            b"FlateDecode" | b"Fl" => Filter::Flate,
            b"LZWDecode" | b"LZW" => Filter::Lzw,
            b"ASCIIHexDecode" | b"AHx" => Filter::AsciiHex,
            b"ASCII85Decode" | b"A85" => Filter::Ascii85,
            b"RunLengthDecode" | b"RL" => Filter::RunLength,
            _ => return None,
        })
    }
}

/// A filter's `/DecodeParms`: the predictor and what it works on, and LZW's `EarlyChange`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    pub predictor: u32,
    pub colors: u32,
    pub bits: u32,
    pub columns: u32,
    pub early_change: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            predictor: 1,
            colors: 1,
            bits: 8,
            columns: 1,
            early_change: true,
        }
    }
}

/// What decoding gave: all of the stream, or the part before it broke off (a stream cut
/// short, a checksum that does not match).
#[derive(Debug, PartialEq, Eq)]
pub enum Decoded {
    Whole(Vec<u8>),
    Part(Vec<u8>),
}

/// `data` decoded by `filters` in order, each with its parameters; `None` when a stage
/// gives nothing (not its encoding, or over [`MAX_DECODED`]).
pub fn decode(data: &[u8], filters: &[(Filter, Params)]) -> Option<Decoded> {
    let mut bytes = data.to_vec();
    let mut whole = true;
    for &(filter, params) in filters {
        let (out, all) = match filter {
            Filter::Flate => flate(&bytes)?,
            Filter::Lzw => lzw(&bytes, params.early_change)?,
            Filter::AsciiHex => (ascii_hex(&bytes)?, true),
            Filter::Ascii85 => (ascii85(&bytes)?, true),
            Filter::RunLength => (run_length(&bytes)?, true),
        };
        whole &= all;
        bytes = match filter {
            Filter::Flate | Filter::Lzw => predicted(out, params)?,
            _ => out,
        };
        if bytes.len() > MAX_DECODED {
            return None;
        }
    }
    Some(if whole {
        Decoded::Whole(bytes)
    } else {
        Decoded::Part(bytes)
    })
}

/// Inflated: zlib-wrapped as the specification says, else raw deflate (some writers omit
/// the wrapper). A stream cut short, or whose checksum is wrong, gives what came before.
fn flate(data: &[u8]) -> Option<(Vec<u8>, bool)> {
    let found = match inflate(data, true)? {
        (out, false) if out.is_empty() => inflate(data, false)?,
        found => found,
    };
    // Nothing came, and not as it should: not deflate.
    (found.1 || !found.0.is_empty()).then_some(found)
}

/// Deflate data inflated, up to [`MAX_DECODED`] (`None` past it): what came, and whether
/// it ended as it should.
fn inflate(mut data: &[u8], zlib: bool) -> Option<(Vec<u8>, bool)> {
    use miniz_oxide::inflate::core::inflate_flags::{
        TINFL_FLAG_PARSE_ZLIB_HEADER, TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF,
    };
    use miniz_oxide::inflate::core::{DecompressorOxide, decompress};
    let flags = TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF
        | if zlib {
            TINFL_FLAG_PARSE_ZLIB_HEADER
        } else {
            0
        };
    let mut out = vec![0u8; data.len().saturating_mul(4).clamp(1024, MAX_DECODED)];
    let mut state = Box::<DecompressorOxide>::default();
    let mut at = 0;
    loop {
        // The whole input at once: data that ends early is a stream cut short.
        let (status, used, wrote) = decompress(&mut state, data, &mut out, at, flags);
        at += wrote;
        data = data.get(used..).unwrap_or_default();
        match status {
            TINFLStatus::Done => {
                out.truncate(at);
                return Some((out, true));
            }
            TINFLStatus::HasMoreOutput => {
                if out.len() >= MAX_DECODED {
                    return None;
                }
                out.resize(out.len().saturating_mul(2).min(MAX_DECODED), 0);
            }
            _ => {
                out.truncate(at);
                return Some((out, false));
            }
        }
    }
}

/// LZW as PDF writes it: 9- to 12-bit codes, 256 clears the table, 257 ends the data;
/// `early_change`, codes widen one entry early (the default).
fn lzw(data: &[u8], early_change: bool) -> Option<(Vec<u8>, bool)> {
    let early = u32::from(early_change);
    let mut table: Vec<Vec<u8>> = Vec::new();
    let reset = |table: &mut Vec<Vec<u8>>| {
        table.clear();
        table.extend((0..=255u8).map(|b| vec![b]));
        // 256 and 257, never looked up.
        table.extend([Vec::new(), Vec::new()]);
    };
    reset(&mut table);
    let mut out = Vec::new();
    let mut width = 9u32;
    let (mut acc, mut held) = (0u32, 0u32);
    let mut prev: Option<usize> = None;
    for &byte in data {
        acc = (acc << 8) | u32::from(byte);
        held += 8;
        while held >= width {
            held -= width;
            let code = ((acc >> held) & ((1 << width) - 1)) as usize;
            acc &= (1 << held) - 1;
            match code {
                256 => {
                    reset(&mut table);
                    width = 9;
                    prev = None;
                    continue;
                }
                257 => return Some((out, true)),
                _ => {}
            }
            let entry = if code < table.len() {
                table[code].clone()
            } else if code == table.len() {
                // The code being defined: the previous entry and its own first byte.
                let p = &table[prev?];
                let mut e = p.clone();
                e.push(p[0]);
                e
            } else {
                return None;
            };
            if let Some(p) = prev {
                let mut e = table[p].clone();
                e.push(entry[0]);
                table.push(e);
            }
            out.extend_from_slice(&entry);
            if out.len() > MAX_DECODED {
                return None;
            }
            prev = Some(code);
            let next = table.len() as u32 + early;
            if next >= (1 << width) && width < 12 {
                width += 1;
            }
        }
    }
    // No end-of-data code: what came is all there is.
    Some((out, true))
}

fn hex(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'\0')
}

/// Pairs of hex digits up to `>`, white space between them ignored; an odd last digit is
/// followed by a 0.
fn ascii_hex(data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len() / 2);
    let mut high: Option<u8> = None;
    for &c in data {
        if c == b'>' {
            break;
        }
        if is_space(c) {
            continue;
        }
        let d = hex(c)?;
        match high.take() {
            Some(h) => out.push(h << 4 | d),
            None => high = Some(d),
        }
    }
    if let Some(h) = high {
        out.push(h << 4);
    }
    Some(out)
}

/// Groups of five base-85 digits (`!` to `u`) to four bytes, `z` for four zeros, up to
/// `~>`; a last group of n digits gives n − 1 bytes.
fn ascii85(data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len() / 5 * 4);
    let mut group = [0u8; 5];
    let mut n = 0;
    for &c in data {
        match c {
            b'~' => break,
            b'z' if n == 0 => out.extend([0; 4]),
            b'!'..=b'u' => {
                group[n] = c - b'!';
                n += 1;
                if n == 5 {
                    out.extend(value85(&group)?.to_be_bytes());
                    n = 0;
                }
            }
            c if is_space(c) => {}
            _ => return None,
        }
    }
    if n == 1 {
        return None;
    }
    if n > 1 {
        // Padded with the highest digit, then cut to n − 1 bytes.
        group[n..].fill(84);
        out.extend(&value85(&group)?.to_be_bytes()[..n - 1]);
    }
    Some(out)
}

fn value85(group: &[u8; 5]) -> Option<u32> {
    let v = group.iter().fold(0u64, |v, &d| v * 85 + u64::from(d));
    u32::try_from(v).ok()
}

/// A length byte, then: 0–127, that many plus one bytes copied; 129–255, the next byte
/// repeated 257 less it times; 128, the end.
fn run_length(data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(&len) = data.get(at) {
        at += 1;
        match len {
            128 => break,
            0..=127 => {
                let n = usize::from(len) + 1;
                out.extend_from_slice(data.get(at..at + n)?);
                at += n;
            }
            _ => {
                out.extend(std::iter::repeat_n(*data.get(at)?, 257 - usize::from(len)));
                at += 1;
            }
        }
        if out.len() > MAX_DECODED {
            return None;
        }
    }
    Some(out)
}

/// The predictor of `/DecodeParms` undone: 1 none, 2 TIFF's (8 bits a component), 10–15
/// PNG's (each row led by its own filter type).
fn predicted(data: Vec<u8>, p: Params) -> Option<Vec<u8>> {
    if p.predictor <= 1 {
        return Some(data);
    }
    let bpp = ((p.colors * p.bits).div_ceil(8)).max(1) as usize;
    let row = (p.colors as usize)
        .checked_mul(p.bits as usize)?
        .checked_mul(p.columns as usize)?
        .div_ceil(8);
    if row == 0 || row > MAX_DECODED {
        return None;
    }
    if p.predictor == 2 {
        if p.bits != 8 {
            return None;
        }
        let mut out = data;
        for line in out.chunks_mut(row) {
            for i in bpp..line.len() {
                line[i] = line[i].wrapping_add(line[i - bpp]);
            }
        }
        return Some(out);
    }
    if !(10..=15).contains(&p.predictor) {
        return None;
    }
    let mut out = Vec::with_capacity(data.len());
    let mut prior = vec![0u8; row];
    for line in data.chunks(row + 1) {
        let (&kind, raw) = line.split_first()?;
        let mut cur = raw.to_vec();
        cur.resize(row, 0);
        for i in 0..row {
            let left = if i >= bpp { cur[i - bpp] } else { 0 };
            let up = prior[i];
            let corner = if i >= bpp { prior[i - bpp] } else { 0 };
            cur[i] = cur[i].wrapping_add(match kind {
                0 => 0,
                1 => left,
                2 => up,
                3 => ((u16::from(left) + u16::from(up)) / 2) as u8,
                4 => paeth(left, up, corner),
                _ => return None,
            });
        }
        out.extend_from_slice(&cur[..raw.len().min(row)]);
        prior = cur;
    }
    Some(out)
}

fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let p = i16::from(a) + i16::from(b) - i16::from(c);
    let (pa, pb, pc) = (
        (p - i16::from(a)).abs(),
        (p - i16::from(b)).abs(),
        (p - i16::from(c)).abs(),
    );
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

#[cfg(test)]
#[path = "tests/filters.rs"]
pub(crate) mod tests;
