//! Writes `pkg/src/core/protocol.ts` from the rules (run by `pkg/scripts/build.mjs` before
//! TypeScript is compiled): `devs-context-protocol [FILE]`, the repository's file when none
//! is named, `-` for standard output.

use std::path::PathBuf;

fn main() {
    let text = devs_context_protocol::typescript();
    let target = std::env::args_os().nth(1);
    if target.as_deref() == Some("-".as_ref()) {
        print!("{text}");
        return;
    }
    let path = target.map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(devs_context_protocol::PATH)
    });
    // Written only when it changed, so that a build leaves the file's time alone.
    let unchanged = std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str());
    if !unchanged && let Err(e) = std::fs::write(&path, &text) {
        eprintln!(
            "devs-context-protocol: cannot write {}: {e}",
            path.display()
        );
        std::process::exit(1);
    }
}
