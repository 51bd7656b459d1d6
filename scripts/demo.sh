#!/usr/bin/env bash
# The main job: sets up, builds the package, and runs the demo orchestrator.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
node examples/demo.mjs "$@"
