use super::*;
use crate::media::filters::tests::{a85_encode, hex_encode, lzw_encode};
use miniz_oxide::deflate::compress_to_vec_zlib;

/// A PDF of `n` pages, its objects written plainly.
pub fn plain(n: usize) -> Vec<u8> {
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", i + 3)).collect();
    let mut s = format!(
        "%PDF-1.4\n%\u{e2}\u{e3}\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [{}] /Count {n} >>\nendobj\n",
        kids.join(" ")
    );
    for i in 0..n {
        s.push_str(&format!(
            "{} 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents (a (nested) string with /Type /Pages /Count 99) >>\nendobj\n",
            i + 3
        ));
    }
    s.push_str("trailer\n<< /Root 1 0 R >>\n%%EOF\n");
    s.into_bytes()
}

/// The page tree of `n` pages as an object stream's data: objects 2 (the root) to `n + 2`,
/// the header of numbers and offsets first; and its `/First`.
fn tree_objects(n: usize) -> (Vec<u8>, usize) {
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", i + 3)).collect();
    let mut objects = vec![format!(
        "<< /Type /Pages /Kids [{}] /Count {n} >>",
        kids.join(" ")
    )];
    objects.extend(
        (0..n).map(|_| "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>".to_string()),
    );
    let mut header = String::new();
    let mut offset = 0;
    for (i, o) in objects.iter().enumerate() {
        header.push_str(&format!("{} {offset} ", i + 2));
        offset += o.len() + 1;
    }
    let body = objects.join("\n");
    (format!("{header}\n{body}").into_bytes(), header.len() + 1)
}

/// A PDF whose catalog is plain and whose page tree of `n` pages is in one object stream,
/// its data encoded by `encode` and its dictionary ending in `filter`.
fn in_object_stream(n: usize, filter: &str, encode: impl Fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    let (data, first) = tree_objects(n);
    let data = encode(&data);
    let mut b =
        b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
            .to_vec();
    b.extend(
        format!(
            "{} 0 obj\n<< /Type /ObjStm /N {} /First {first} /Length {} {filter} >>\nstream\r\n",
            n + 3,
            n + 1,
            data.len()
        )
        .bytes(),
    );
    b.extend(&data);
    b.extend(b"\nendstream\nendobj\ntrailer\n<< /Root 1 0 R /Size 9 >>\n%%EOF\n");
    b
}

/// How a test writes an object stream's data.
type Encode = dyn Fn(&[u8]) -> Vec<u8>;

fn flate(d: &[u8]) -> Vec<u8> {
    compress_to_vec_zlib(d, 6)
}

#[test]
fn the_page_tree_count_is_the_pages() {
    assert_eq!(pages(&plain(6)), Pages::Read(6));
    assert_eq!(pages(&plain(1)), Pages::Read(1));
    assert_eq!(pages(b"not a pdf"), Pages::Unread);
    assert_eq!(pages(b"%PDF-1.7\n"), Pages::Unread);
}

#[test]
fn pages_in_an_object_stream_are_read_through_every_filter_form() {
    let png_rows = |d: &[u8]| -> Vec<u8> {
        // PNG's predictor, Up on every row of 8 bytes (rows before are all zeros at first).
        let mut out = Vec::new();
        let mut prior = [0u8; 8];
        for row in d.chunks(8) {
            let mut cur = [0u8; 8];
            cur[..row.len()].copy_from_slice(row);
            out.push(2);
            out.extend(
                cur.iter()
                    .zip(prior)
                    .map(|(c, p)| c.wrapping_sub(p))
                    .take(row.len()),
            );
            prior = cur;
        }
        flate(&out)
    };
    let forms: Vec<(&str, Box<Encode>)> = vec![
        ("/Filter /FlateDecode", Box::new(flate)),
        ("/Filter [/FlateDecode]", Box::new(flate)),
        ("/Filter /Fl", Box::new(flate)),
        ("/Filter [/Fl] /DecodeParms [null]", Box::new(flate)),
        (
            "/Filter [/ASCII85Decode /FlateDecode]",
            Box::new(|d| a85_encode(&flate(d))),
        ),
        (
            "/Filter [/AHx /LZW]",
            Box::new(|d| hex_encode(&lzw_encode(d))),
        ),
        (
            "/Filter /LZWDecode /DecodeParms << /EarlyChange 1 >>",
            Box::new(lzw_encode),
        ),
        (
            "/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 8 >>",
            Box::new(png_rows),
        ),
        (
            "/Filter [/A85 /Fl] /DecodeParms [null << /Predictor 12 /Columns 8 >>]",
            Box::new(move |d| a85_encode(&png_rows(d))),
        ),
        ("", Box::new(|d| d.to_vec())),
    ];
    for (filter, encode) in forms {
        assert_eq!(
            pages(&in_object_stream(500, filter, encode)),
            Pages::Read(500),
            "{filter}"
        );
    }
}

#[test]
fn a_stream_that_cannot_be_decoded_bounds_the_pages_by_its_objects() {
    // An image filter, and Flate over bytes that are not deflate (an encrypted document's):
    // the 501 objects it holds bound the pages.
    let jbig2 = in_object_stream(500, "/Filter /JBIG2Decode", |d| d.to_vec());
    assert_eq!(pages(&jbig2), Pages::AtMost(501));
    let scrambled = in_object_stream(500, "/Filter /FlateDecode", |d| {
        d.iter().map(|b| b ^ 0x5A).collect()
    });
    assert_eq!(pages(&scrambled), Pages::AtMost(501));
    // Cut short: the pages read before the cut, and still at most the stream's objects.
    let cut = in_object_stream(500, "/Filter /FlateDecode", |d| {
        let f = flate(d);
        f[..f.len() / 2].to_vec()
    });
    assert_eq!(pages(&cut), Pages::AtMost(501));
    // No `/N`: nothing bounds them.
    let unbounded = String::from_utf8_lossy(&jbig2)
        .replace("/N 501 ", "")
        .into_bytes();
    assert_eq!(pages(&unbounded), Pages::Unread);
}

#[test]
fn the_root_counts_over_its_nodes() {
    // A two-level tree: the root's 7, over its nodes' 4 and 3.
    let b = b"%PDF-1.4\n1 0 obj << /Type /Pages /Kids [2 0 R 3 0 R] /Count 7 >> endobj\n\
        2 0 obj << /Type /Pages /Parent 1 0 R /Kids [] /Count 4 >> endobj\n\
        3 0 obj << /Type /Pages /Parent 1 0 R /Kids [] /Count 3 >> endobj\n";
    assert_eq!(pages(b), Pages::Read(7));
    // An indirect count is no count: the page dictionaries are.
    let b = b"%PDF-1.4\n1 0 obj << /Type /Pages /Count 9 0 R >> endobj 2 0 obj << /Type /Page >> endobj";
    assert_eq!(pages(b), Pages::Read(1));
}

#[test]
fn binary_stream_data_is_not_read_as_dictionaries() {
    // Its length says where it ends, though its bytes say `endstream` before that.
    let data = b"endstream << /Type /Pages /Count 40 >> ..";
    let mut b = format!("%PDF-1.4\n1 0 obj\n<< /Length {} >>\nstream\n", data.len()).into_bytes();
    b.extend(data);
    b.extend(b"\nendstream\nendobj\n2 0 obj\n<< /Type /Page >>\nendobj\n");
    assert_eq!(pages(&b), Pages::Read(1));
}

#[test]
fn deep_or_broken_input_ends_without_a_count() {
    let mut deep = b"%PDF-1.4\n".to_vec();
    deep.extend(vec![b'['; 200_000]);
    deep.extend(vec![b'<'; 200_000]);
    assert_eq!(pages(&deep), Pages::Unread);
    let unclosed =
        b"%PDF-1.4\n1 0 obj << /Type /Page /Kids [ endobj 2 0 obj << /Type /Page >> endobj";
    assert_eq!(pages(unclosed), Pages::Read(2));
}
