//! The wasm binding of `devs-context-rules`: plain data in, plain data out.
//!
//! Nothing here decides anything, and nothing here calls the host: the module imports no
//! JS function that could throw, so a host exception can never unwind through a wasm
//! frame. Numbers, typed arrays and strings come in; numbers, typed arrays, frames (see
//! `devs_context_rules::base::frame`) and errors come out. A rule error is returned as a
//! frame of its class, code, field and message (`Err(String)`, see [`fail`]), which the
//! TS shell (`pkg/src`) turns into a `TypeError`/`RangeError` with `code` and `field`.
//!
//! Strings come in only where a rule reads them (a probe, a role, a skeleton). Texts the
//! rules return are frames of pieces that point back at the host's own strings.

mod composer;
mod config_key;
mod context;
mod context_events;
mod handoff;
mod journal_out;
mod management;
mod media;
mod monitor;
mod pending;
mod pruners;
mod refresh;
mod runner;
mod saop;
mod seed;
mod turns;
mod window;
mod working;

use devs_context_errors::FieldError;
use devs_context_rules::base::args::error_frame;
use devs_context_rules::base::cut::Units;
use devs_context_rules::base::frame::Frame;
use devs_context_rules::base::text::{Probe, split_batch};

/// A rule's result, or its error as a frame ([`fail`]).
pub type Out<T> = Result<T, String>;

fn report<T>(result: Result<T, FieldError>) -> Out<T> {
    result.map_err(fail)
}

/// A rule's error as the shell reads it: a frame of its class, code, field and message
/// (`args::error_frame`), which `pkg/src/errors/index.ts` turns into a `TypeError` or
/// `RangeError`.
fn fail(e: FieldError) -> String {
    error_frame(&e)
}

/// A seed's call by its code (`seeds::ops`); a code it does not have is the shell's bug,
/// reported rather than trapped on.
fn op<T>(class: &str, code: Option<T>) -> Out<T> {
    code.ok_or_else(|| {
        fail(FieldError::type_error(
            format!("{class}.op"),
            "names no call of its".to_string(),
        ))
    })
}

/// A frame built by `build`, as the host reads it.
fn frame(build: impl FnOnce(&mut Frame)) -> String {
    let mut frame = Frame::new();
    build(&mut frame);
    frame.into_string()
}

/// A batch of probes, joined, with their UTF-16 lengths, all from unit `start` of their text.
fn probes(joined: &str, lens: &[u32], start: usize) -> Vec<Probe> {
    split_batch(joined, lens)
        .into_iter()
        .map(|units| Probe { start, units })
        .collect()
}

/// One probe: units `start..` of a text.
fn probe(text: &str, start: usize) -> Probe {
    Probe {
        start,
        units: Units::of(text),
    }
}
