//! The working state a compaction writes after the summary (`context::working`).

use devs_context_rules::base::frame::Frame;
use devs_context_rules::base::text::split_texts;
use devs_context_rules::context::working::{self, CallIn, Input, Reading, Said};
use wasm_bindgen::prelude::*;

/// The section over `texts` (joined, `lens` long each): `[the section the summary held,
/// each user text folded, each one's store id ('' for none), then per call its tool, input
/// and output's store id ('' for none), per open call its tool and id, the host's edit
/// tools]`; `shape`: `[user texts,
/// each one's message, calls, open calls, edit tools]`; `share`: `userWordsShare`, NaN
/// for the default. The frame holds the tokens it takes at most, then the section, over
/// the same texts ('' when it holds nothing).
#[wasm_bindgen(js_name = workingState)]
pub fn working_state(
    texts: &str,
    lens: &[u32],
    shape: &[f64],
    budget: f64,
    share: f64,
    shell: bool,
) -> String {
    let t = split_texts(texts, lens);
    let at = |i: usize| t.get(i).copied().unwrap_or("");
    let count = |i: usize| shape.get(i).copied().unwrap_or(0.0) as usize;
    let n_said = count(0);
    let said: Vec<Said<'_>> = (0..n_said)
        .map(|i| Said {
            host: 1 + i,
            text: at(1 + i),
            message: count(1 + i),
            id: Some(at(1 + n_said + i)).filter(|id| !id.is_empty()),
        })
        .collect();
    let (n_calls, n_open, n_tools) = (count(1 + n_said), count(2 + n_said), count(3 + n_said));
    let calls_at = 1 + 2 * n_said;
    let calls = (0..n_calls)
        .map(|c| {
            let id = at(calls_at + 3 * c + 2);
            CallIn {
                tool: at(calls_at + 3 * c),
                input: at(calls_at + 3 * c + 1),
                id: (!id.is_empty()).then_some(id),
            }
        })
        .collect();
    let open_at = calls_at + 3 * n_calls;
    let open = (0..n_open)
        .map(|o| (at(open_at + 2 * o), at(open_at + 2 * o + 1)))
        .collect();
    let tools: Vec<&str> = (0..n_tools).map(|k| at(open_at + 2 * n_open + k)).collect();
    let input = Input {
        previous: at(0),
        said,
        calls,
        open,
        budget,
        user_share: if share.is_nan() {
            working::DEFAULT_USER_WORDS_SHARE
        } else {
            share
        },
        reading: Reading {
            tools: &tools,
            shell,
        },
    };
    let mut section = Frame::new();
    let mut tokens = 0.0;
    section.text(|p| tokens = working::write(p, &input));
    let mut f = Frame::new();
    f.num(tokens);
    let mut out = f.into_string();
    out.push_str(&section.into_string());
    out
}
