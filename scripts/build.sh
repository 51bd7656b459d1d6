#!/usr/bin/env bash
# Builds pkg/dist (the npm package's contents) from the crate.
set -euo pipefail
cd "$(dirname "$0")/.."
node pkg/scripts/build.mjs
