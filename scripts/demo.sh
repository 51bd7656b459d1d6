#!/usr/bin/env bash
# The main job: runs the demo (examples/demo.mjs). Sets up and builds the package first,
# but builds only when one of its sources changed since the last build: a hash of the
# build's inputs is kept in pkg/dist/.inputs.sha256, which every build removes (it
# starts by deleting pkg/dist) and this script writes after its own.
#
#   bash scripts/demo.sh [demo options]   the demo; see --help
#   bash scripts/demo.sh --help           the demo's help, with no setup and no build
#   bash scripts/demo.sh --build          build now, record the hash, and stop
#   bash scripts/demo.sh --build-if-stale build only if a source changed, and stop; only the
#                                         build's part of setup (scripts/test.sh uses it, and
#                                         runs the other parts itself, beside other stages)
set -euo pipefail
cd "$(dirname "$0")/.."

build_now=false build_only=false setup_parts=()
for arg in "$@"; do
  case $arg in
    -h | --help) exec node examples/demo.mjs --help ;;
    --build) build_now=true build_only=true ;;
    --build-if-stale) build_only=true setup_parts=(build) ;;
  esac
done

stamp=pkg/dist/.inputs.sha256
log=target/build.log

# Everything pkg/dist is built from: the crates, the shell, the build, the lockfiles,
# and the tools' versions.
inputs_hash() {
  {
    rustc -V
    node -v
    find src crates pkg/src pkg/scripts -type f -not -path '*/target/*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
    for f in Cargo.toml Cargo.lock rust-toolchain rust-toolchain.toml .cargo/config.toml \
      pkg/package.json pkg/package-lock.json pkg/tsconfig.json scripts/build.sh; do
      if [ -f "$f" ]; then sha256sum "$f"; fi
    done
  } | sha256sum | cut -d' ' -f1
}

bash scripts/setup.sh "${setup_parts[@]}"
want=$(inputs_hash)
if $build_now || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] || [ ! -f pkg/dist/index.mjs ] || [ ! -f pkg/dist/sqlite.mjs ]; then
  if $build_only; then
    # Asked for: the output goes to the caller (scripts/test.sh keeps it in its log).
    bash scripts/build.sh
  else
    echo "demo: the package's sources changed since its last build: building pkg/dist (log: $log)" >&2
    mkdir -p target
    if ! bash scripts/build.sh >"$log" 2>&1; then
      echo "demo: the build failed; the end of $log:" >&2
      tail -n 40 "$log" >&2
      exit 1
    fi
  fi
  echo "$want" > "$stamp"
fi
$build_only && exit 0

# The examples import the package by name, as a user's code would.
if [ ! -e examples/node_modules/@devs/context ]; then
  mkdir -p examples/node_modules/@devs
  ln -sfn ../../../pkg examples/node_modules/@devs/context
fi
exec node examples/demo.mjs "$@"
