//! Images, documents, audio and video measured the way providers bill them
//! (`devs_context_rules::media`): plain numbers and bytes in, numbers out.

use devs_context_errors::FieldError;
use devs_context_rules::media::{self, DetailCode, Note, Rule, Source, StoredForm};
use wasm_bindgen::prelude::*;

use crate::{Out, fail};

/// The rule of `provider` (`''`: told by the model) for `model` (`''`: its common models')
/// as numbers, `[code, a, b, c]`; `field` names the provider's option in errors (the
/// option itself, or its `provider`).
#[wasm_bindgen(js_name = imageRule)]
pub fn image_rule(field: &str, provider: &str, model: &str) -> Out<Vec<f64>> {
    Rule::of(provider, model)
        .map(|r| r.encode().to_vec())
        .ok_or_else(|| {
            fail(FieldError::type_error(
                field.to_string(),
                format!(
                    "must be one of {}, got {provider:?}",
                    media::bill::PROVIDERS
                        .iter()
                        .map(|p| format!("'{p}'"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ))
        })
}

/// The rule format `format` bills by when the host names none (`Rule::of_format`); an
/// error naming `field` for a format the rules do not know.
#[wasm_bindgen(js_name = formatImageRule)]
pub fn format_image_rule(field: &str, format: &str) -> Out<Vec<f64>> {
    media::bill::Format::from_code(format)
        .map(|f| Rule::of_format(f).encode().to_vec())
        .ok_or_else(|| {
            fail(FieldError::type_error(
                field.to_string(),
                format!("is {format:?}, a format with no rule for its images"),
            ))
        })
}

/// Measures media parts in one crossing. Per part: its `source` (`media::Source`), its
/// `detail` (`media::DetailCode`), its bytes (all joined in `bytes`, `lens` long each) and
/// whether they are all of them (`complete`, 1 or 0). Returns `[tokens, width, height,
/// pages, need_more, format, seconds, note]` per part: `need_more` 1 when the bytes ended
/// before the image's size, to measure again with all of them; `format` the image format
/// its bytes begin with (0 PNG, 1 JPEG, 2 GIF, 3 WebP, -1 none read); `seconds` audio's or
/// video's; `note` -1 for none, else what `mediaNote` words (`media::Note::code`).
#[wasm_bindgen(js_name = measureMedia)]
pub fn measure_media(
    rule: &[f64],
    sources: &[u8],
    details: &[u8],
    bytes: &[u8],
    lens: &[u32],
    complete: &[u8],
) -> Out<Vec<f64>> {
    let bad = |what: &str| fail(FieldError::type_error("media", what.to_string()));
    let rule = Rule::decode(rule).ok_or_else(|| bad("names no image rule"))?;
    let n = sources.len();
    if details.len() != n || lens.len() != n || complete.len() != n {
        return Err(bad("has parts of different counts"));
    }
    let mut out = Vec::with_capacity(8 * n);
    let mut at = 0usize;
    for i in 0..n {
        let len = lens[i] as usize;
        let part = bytes
            .get(at..at + len)
            .ok_or_else(|| bad("has fewer bytes than its lengths"))?;
        at += len;
        let source = Source::from_code(sources[i]).ok_or_else(|| bad("names no source"))?;
        let detail = DetailCode::from_code(details[i]).ok_or_else(|| bad("names no detail"))?;
        let m = media::measure(rule, source, detail.detail(), part, complete[i] == 1);
        out.extend([
            m.tokens,
            f64::from(m.width),
            f64::from(m.height),
            m.pages as f64,
            f64::from(u8::from(m.need_more)),
            m.format.map_or(-1.0, |f| f as u8 as f64),
            m.seconds,
            m.note.map_or(-1.0, |n| f64::from(n.code())),
        ]);
    }
    Ok(out)
}

/// What `measureMedia`'s `note` says of the part at `field` (its `source`, its `tokens`,
/// and `amount`, its pages or seconds): a frame of the warning's code (`ContextWarning.code`)
/// and its message, or, for a part refused, a TypeError naming the field.
#[wasm_bindgen(js_name = mediaNote)]
pub fn media_note(note: u8, source: u8, field: &str, tokens: f64, amount: f64) -> Out<String> {
    let (Some(n), Some(s)) = (Note::from_code(note), Source::from_code(source)) else {
        return Err(fail(FieldError::type_error(
            "media",
            "names no note".to_string(),
        )));
    };
    let words = n.words(field, s, tokens, amount);
    match n {
        Note::Unreadable => Err(fail(FieldError::type_error(field.to_string(), words))),
        Note::Warn(w) => Ok(crate::frame(|f| {
            f.text(|p| {
                p.lit(w.code());
            });
            f.text(|p| {
                p.lit(&words);
            });
        })),
    }
}

/// What a stored text is, from its first units: `[]` for a text, else `[image (1) or
/// document (0), media type start, media type end, where its data starts, form]`, the form
/// 0 for a data URL, 1 for a URL, 2 for a provider's file id (`media::StoredForm`).
#[wasm_bindgen(js_name = storedMedia)]
pub fn stored_media(probe: &str) -> Vec<f64> {
    media::stored(probe).map_or_else(Vec::new, |s| {
        let form = match s.form {
            StoredForm::Data => 0.0,
            StoredForm::Url => 1.0,
            StoredForm::FileId => 2.0,
        };
        vec![
            f64::from(u8::from(s.image)),
            s.media_type.0 as f64,
            s.media_type.1 as f64,
            s.data_at as f64,
            form,
        ]
    })
}
