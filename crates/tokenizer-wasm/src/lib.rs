//! The tokenizers module's JS face, as thin as the rules': numbers and strings in, numbers
//! and error frames out, and no import of host code. `pkg/src/tokens/tokenizers.ts` wraps these
//! in `createTokenCounter`, which returns a plain `(text: string) => number`.

use devs_context_tokenizer::Encoding;
use wasm_bindgen::prelude::*;

const ENCODINGS: [Encoding; 2] = [Encoding::O200kBase, Encoding::Cl100kBase];

/// The id of `name` for `countWith`, after building its tables (the slow part of the
/// first count); or, for an unknown encoding, its error as the rules' frame of one
/// (`FieldError::frame`, read by `fromReport` in `pkg/src/errors/index.ts`).
#[wasm_bindgen(js_name = loadEncoding)]
pub fn load_encoding(name: &str) -> String {
    match Encoding::parse("encoding", name) {
        Ok(encoding) => {
            encoding.load();
            (encoding as u8).to_string()
        }
        Err(err) => err.frame(),
    }
}

/// Exact tokens of `text` in the encoding `id` returned by `loadEncoding`.
#[wasm_bindgen(js_name = countWith)]
pub fn count_with(id: u8, text: &str) -> u32 {
    ENCODINGS[usize::from(id).min(1)].count(text) as u32
}

/// Exact tokens of the UTF-8 `bytes`, as `countWith` counts the text they encode. For long
/// texts: wasm-bindgen passes a string through a buffer of 3 bytes per UTF-16 unit, which
/// for 128 MiB of text could hold 384 MiB of wasm memory (which never shrinks), where the
/// shell's `TextEncoder` bytes take what the text needs. They are UTF-8 by construction;
/// anything else is counted as the text `from_utf8_lossy` makes of it.
#[wasm_bindgen(js_name = countBytesWith)]
pub fn count_bytes_with(id: u8, bytes: &[u8]) -> u32 {
    let encoding = ENCODINGS[usize::from(id).min(1)];
    match std::str::from_utf8(bytes) {
        Ok(text) => encoding.count(text) as u32,
        Err(_) => encoding.count(&String::from_utf8_lossy(bytes)) as u32,
    }
}

/// For `bench/tokenizers.mjs` only: the cost of passing `text` into wasm, nothing else.
#[wasm_bindgen(js_name = transferOnly)]
pub fn transfer_only(text: &str) -> u32 {
    text.len() as u32
}
