#!/usr/bin/env bash
# Every test, in order: format, lints, Rust tests, the wasm build, the JS tests against
# the built package, then the packaging tests. Sets everything up first on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all --check

step "cargo clippy (warnings denied)"
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy --workspace --lib --target wasm32-unknown-unknown -- -D warnings

step "cargo test"
cargo test --workspace

step "wasm build"
bash scripts/build.sh

step "JS tests against the built package"
node --test pkg/test/*.test.mjs

step "packaging tests"
node --test pkg/test/packaging/*.test.mjs
