//! The committed `pkg/src/core/protocol.ts` is what the generator writes from today's
//! rules: a code added, removed, renamed or renumbered in the rules without the build run
//! again (or the file edited by hand) fails here, in `cargo test --workspace` and so in CI.

const COMMITTED: &str = include_str!("../../../pkg/src/core/protocol.ts");

#[test]
fn the_committed_protocol_file_is_what_the_rules_write() {
    let written = devs_context_protocol::typescript();
    if COMMITTED != written {
        let line = COMMITTED
            .lines()
            .zip(written.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| COMMITTED.lines().count().min(written.lines().count()));
        panic!(
            "{} differs from what crates/protocol writes, from line {}: run `bash scripts/build.sh` \
             (or `cargo run -p devs-context-protocol`) and commit the file",
            devs_context_protocol::PATH,
            line + 1
        );
    }
}
