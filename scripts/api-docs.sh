#!/usr/bin/env bash
# Writes docs/api/ (the API reference, Markdown) with TypeDoc from the built pkg/dist/*.d.ts.
# Builds nothing: run scripts/build.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
node pkg/scripts/api-docs.mjs
