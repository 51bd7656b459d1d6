//! The tokenizers module's JS face: `pkg/src/tokenizers.ts` wraps these in
//! `createTokenCounter`, which returns a plain `(text: string) => number`.

use wasm_bindgen::prelude::*;

use crate::js_errors::to_js;
use crate::rules::bpe::Encoding;

/// Builds `encoding`'s tables (the slow part of the first count) and returns its id.
/// @throws {RangeError} for an encoding other than 'o200k_base' or 'cl100k_base'.
#[wasm_bindgen(js_name = loadEncoding)]
pub fn load_encoding(encoding: &str) -> Result<u8, JsValue> {
    let encoding = Encoding::parse("encoding", encoding).map_err(to_js)?;
    encoding.load();
    Ok(encoding as u8)
}

/// Exact tokens of `text` in the encoding `id` returned by `loadEncoding`.
#[wasm_bindgen(js_name = countWith)]
pub fn count_with(id: u8, text: &str) -> u32 {
    let encoding = if id == Encoding::Cl100kBase as u8 {
        Encoding::Cl100kBase
    } else {
        Encoding::O200kBase
    };
    encoding.count(text) as u32
}

/// For `bench/tokenizers.mjs` only: the cost of passing `text` into wasm, nothing else.
#[wasm_bindgen(js_name = transferOnly)]
pub fn transfer_only(text: &str) -> u32 {
    text.len() as u32
}
