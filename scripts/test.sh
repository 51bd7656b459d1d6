#!/usr/bin/env bash
# Every test, in three tiers; `bash scripts/test.sh` runs all three, in order, and
# `bash scripts/test.sh fast|corpus|packaging` (or several) runs those alone. Sets up
# what they need on a fresh machine (scripts/setup.sh's parts, in the background beside the
# cargo stages), and builds pkg/dist when a source changed.
#
#   fast       every commit, under 2 minutes once built: cargo fmt --check; clippy
#              natively, warnings denied; cargo test --workspace but the tokenizer's
#              crate, with the rules' fuzz at 10 cases; the wasm build; and the JS tests on
#              synthetic data (every pkg/test/*.test.mjs the two lists below do not name).
#   corpus     real sessions and data: the rules' fuzz at its CI count (60 cases,
#              crates/rules/tests/fuzz/; FUZZ_CASES changes it); the tokenizer's crate
#              (every token, random and adversarial pieces against the merge: about 16 s
#              of CPU, the crate at opt-level 1); and CORPUS: the real sessions, the past formats and stores, the
#              JS fuzzers, the fleet, and every PostgreSQL test, on ONE PostgreSQL cluster
#              for the run (pkg/test/postgres-cluster.mjs: each startPostgres() takes a
#              role and a schema of its own in it; postgres-server and session, which stop
#              and kill their server, start their own).
#   packaging  clippy for wasm32, and what a user installs: pkg/test/packaging/*.test.mjs
#              and PACKAGING, on ONE `npm pack` and ONE installed host project made first
#              in target/test-run/ (pkg/test/packaging/prepare.mjs; each host project
#              copies it), one tsc per set of SDK releases over the README's and the
#              guides' blocks (docs-code.mjs), the packed package on Node 20, 22 and 24.
# Test files run side by side, one per core (TEST_JOBS changes it). Each stage prints its
# wall time and the CPU time it used, which other work on the machine does not inflate.
# Out of the suite: the benches (bench/, they measure and assert nothing) and the full
# fuzz (FUZZ_CASES=100000 cargo test --release -p devs-context-rules --test fuzz).
# A new test file is in the fast tier unless a list below names it.
#
# Prints one line per stage; each stage's full output is in target/test-logs/<stage>.log,
# and the end of the log of a stage that fails is printed. A failed stage does not stop
# the others, except that nothing runs after a part of setup it needs failed, and no JS
# test runs without a build.
# Ends with "total: N passed, N failed" (tests counted by cargo and node's runner; a stage
# that fails without a failing test counts as one failure) and exits 1 if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."

logs=target/test-logs
rm -rf "$logs"
mkdir -p "$logs"
started=$EPOCHREALTIME
passed=0 failed=0 skipped=0
failures=()

# Seconds since $1 (an $EPOCHREALTIME), one decimal.
since() {
  local us=$((${EPOCHREALTIME/./} - ${1/./}))
  printf '%d.%d' $((us / 1000000)) $((us % 1000000 / 100000))
}

# The numbers a log reports: added to the totals, and said in $detail.
count_cargo() {
  local p f i
  read -r p f i < <(awk '/^test result:/ { for (k = 1; k <= NF; k++) { if ($(k+1) ~ /^passed/) p += $k; if ($(k+1) ~ /^failed/) f += $k; if ($(k+1) ~ /^ignored/) i += $k } }
    END { print p + 0, f + 0, i + 0 }' "$1")
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + i)) stage_failed_tests=$f
  detail=", $p passed, $f failed"
  if ((i)); then detail+=", $i ignored"; fi
}
count_node() {
  local p f s t
  read -r p f s t < <(awk '$1 == "ℹ" || $1 == "#" { if ($2 == "pass") p = $3; if ($2 == "fail") f = $3; if ($2 == "skipped") s = $3; if ($2 == "todo") t = $3 }
    END { print p + 0, f + 0, s + 0, t + 0 }' "$1")
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s + t)) stage_failed_tests=$f
  detail=", $p passed, $f failed"
  if ((s + t)); then detail+=", $((s + t)) skipped or todo"; fi
}
count_warnings() {
  local w
  w=$(grep -ciE '^[[:space:]]*(warning[:[]|▲ \[WARNING\])' "$1" || true)
  stage_failed_tests=0 detail=", $w warnings"
}
count_none() { stage_failed_tests=0 detail=''; }

# The CPU seconds this shell's finished children used (user and system), one decimal: a
# stage's time on a machine other work shares is its wall time, but its CPU time is its own.
cpu_file=$(mktemp)
trap 'rm -f "$cpu_file"' EXIT
# `times` runs here, not in a $(…) subshell, whose children are none of these.
cpu_now() {
  times >"$cpu_file"
  cpu=$(awk 'NR == 2 { s = 0; for (k = 1; k <= 2; k++) { split($k, p, /[ms]/); s += p[1] * 60 + p[2] } printf "%.1f", s }' "$cpu_file")
}

# stage SLUG COUNTER TITLE -- COMMAND...: runs COMMAND with its output in the stage's log.
stage() {
  local slug=$1 counter=$2 title=$3 log="$logs/$1.log" t0=$EPOCHREALTIME c0 rc
  shift 4
  printf '==> %-52s ' "$title"
  cpu_now
  c0=$cpu
  "$@" >"$log" 2>&1
  rc=$?
  cpu_now
  cpu=$(awk -v a="$c0" -v b="$cpu" 'BEGIN { printf "%.1f", b - a }')
  count_"$counter" "$log"
  if ((rc == 0)); then
    printf 'ok (%s s, CPU %s s%s)\n' "$(since "$t0")" "$cpu" "$detail"
  else
    printf 'FAILED (%s s, CPU %s s%s, exit %d)\n' "$(since "$t0")" "$cpu" "$detail" "$rc"
    failures+=("$title")
    if ((stage_failed_tests == 0)); then failed=$((failed + 1)); fi
    local lines=${TEST_LOG_TAIL:-60}
    if [ "${CI:-}" = true ]; then lines=${TEST_LOG_TAIL:-300}; fi
    if grep -q '^✖ failing tests:' "$log"; then
      printf -- '--- %s: failing tests ---\n' "$log"
      # Each failing test's block, leaving out todo tests (their line ends "# reason").
      sed -n '/^✖ failing tests:/,$p' "$log" | awk '
        /^test at / { if (block != "" && !todo) printf "%s", block; block = ""; todo = 0; head = 1 }
        { block = block $0 "\n" }
        head && /^✖ .* # / { todo = 1 }
        /^✖ / && !/^✖ failing tests:/ { head = 0 }
        END { if (!todo) printf "%s", block }' | head -n "$lines"
    else
      printf -- '--- the last %s lines of %s ---\n' "$lines" "$log"
      tail -n "$lines" "$log"
    fi
    printf -- '---\n'
  fi
  return "$rc"
}

finish() {
  echo
  if ((${#failures[@]})); then
    printf 'failed: %s\n' "$(IFS=';'; echo "${failures[*]}" | sed 's/;/; /g')"
  fi
  cpu_now
  # With setup's parts, which this shell does not reap (start_setup).
  cpu=$(cat "$run"/setup-*.log 2>/dev/null | awk -v c="$cpu" '/^setup [a-z]*: ran / { for (k = 1; k < NF; k++) if ($k == "CPU") c += $(k+1) }
    END { printf "%.1f", c }')
  printf 'full logs: %s/   total time: %s s, CPU %s s\n' "$logs" "$(since "$started")" "$cpu"
  if ((skipped)); then
    printf 'total: %d passed, %d failed, %d skipped\n' "$passed" "$failed" "$skipped"
  else
    printf 'total: %d passed, %d failed\n' "$passed" "$failed"
  fi
  if ((${#failures[@]} || failed)); then exit 1; fi
  exit 0
}

# The corpus tier's JS tests: real sessions, past formats, fuzzing, PostgreSQL.
CORPUS=(
  bad-messages bounded-runner checkpoint context-manager eval-cli fleet format-compat fuzz-durable
  fuzz-provider-items multimodal past-formats postgres-server provider-block-types recall
  replay-cli replay-cli-hostile replay-formats replay-formats-agents replay-formats-messages
  replay-formats-sessions replay-view runner-snapshot session session-lost-row sessions-corpus
  shared-session snapshot store-conformance tokenizers-long window-joins
)
# The packaging tier's tests outside pkg/test/packaging/: tsc over the built package.
PACKAGING=(examples)
FAST_FUZZ_CASES=${FAST_FUZZ_CASES:-10}
CORPUS_FUZZ_CASES=${FUZZ_CASES:-60}
# Test files run side by side, one per core (node's default is one fewer than the cores).
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
run=target/test-run

tiers=("$@")
if ((${#tiers[@]} == 0)); then tiers=(fast corpus packaging); fi
for t in "${tiers[@]}"; do
  case $t in
    fast | corpus | packaging) ;;
    *) echo "usage: bash scripts/test.sh [fast] [corpus] [packaging] (all three when none is named)" >&2; exit 2 ;;
  esac
done
wants() { [[ " ${tiers[*]} " == *" $1 "* ]]; }

# pkg/test/<name>.test.mjs for each name; a name without its file is an error, not a skip.
for name in "${CORPUS[@]}" "${PACKAGING[@]}"; do
  if [ ! -f "pkg/test/$name.test.mjs" ]; then echo "scripts/test.sh: pkg/test/$name.test.mjs is listed but missing" >&2; exit 2; fi
done
corpus_files=("${CORPUS[@]/#/pkg/test/}") && corpus_files=("${corpus_files[@]/%/.test.mjs}")
packaging_files=("${PACKAGING[@]/#/pkg/test/}") && packaging_files=("${packaging_files[@]/%/.test.mjs}")
fast_files=()
for f in pkg/test/*.test.mjs; do
  if [[ " ${corpus_files[*]} ${packaging_files[*]} " != *" $f "* ]]; then fast_files+=("$f"); fi
done

node_tests() { node --test --test-reporter=spec --test-concurrency="$jobs" "$@"; }

# The one PostgreSQL cluster of the corpus tier, while its command runs.
with_postgres() {
  local url_file="$run/postgres.url" pid rc
  rm -f "$url_file"
  node pkg/test/postgres-cluster.mjs "$url_file" &
  pid=$!
  while [ ! -s "$url_file" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  if [ ! -s "$url_file" ]; then echo "the shared PostgreSQL cluster did not start" >&2; wait "$pid"; return 1; fi
  DEVS_TEST_POSTGRES="$(cat "$url_file")" "$@"
  rc=$?
  kill "$pid" && wait "$pid"
  return "$rc"
}

# The packaging tier's tarball and host project, made once, then its tests.
with_packed() {
  node pkg/test/packaging/prepare.mjs "$run" || return 1
  DEVS_TEST_RUN="$PWD/$run" "$@"
}

# Setup's parts (scripts/setup.sh) start at once, in the background: their downloads,
# extractions and native builds fill the cores the cargo stages leave idle (clippy and the
# rules' front end run on one). Each part is waited for, in a stage that prints the time
# it ran and the CPU it used, before the first stage that needs it: `build` (wasm-bindgen,
# pkg/'s npm ci) before the wasm build, `system` (Chromium, PostgreSQL) before the JS
# tests, `packaging` (Node 22 and 24, code-server) before the packaging tests.
# A part runs in a grandchild of this shell, which never reaps it: its CPU is then not
# counted in whichever stage runs when it ends, and it reports its own.
setup_parts=()
start_setup() {
  setup_parts+=("$1")
  ( (
    t0=$EPOCHREALTIME
    bash scripts/setup.sh "$1"
    rc=$?
    cpu_now
    echo "setup $1: ran $(since "$t0") s and CPU $cpu s in the background, exit $rc"
    echo "$rc" >"$run/setup-$1.rc.tmp" && mv "$run/setup-$1.rc.tmp" "$run/setup-$1.rc"
  ) >"$run/setup-$1.log" 2>&1 & )
}
await_setup() {
  while [ ! -f "$run/setup-$1.rc" ]; do sleep 0.5; done
  cat "$run/setup-$1.log"
  return "$(cat "$run/setup-$1.rc")"
}
count_setup() {
  stage_failed_tests=0 detail=", $(sed -n 's/^setup [a-z]*: \(ran .* background\),.*/\1/p' "$1" | tail -n 1)"
}
# Nothing is left installing when the run ends early.
finish_setup() {
  local part
  for part in "${setup_parts[@]}"; do
    while [ ! -f "$run/setup-$part.rc" ]; do sleep 0.5; done
  done
}

rm -rf "$run"
mkdir -p "$run"
# A bare machine's one build gains nothing from incremental compilation's records.
if [ "${CI:-}" = true ]; then export CARGO_INCREMENTAL=0; fi
start_setup build
start_setup system
if wants packaging; then start_setup packaging; fi
if wants fast; then
  stage fmt none "fast: cargo fmt --check" -- cargo fmt --all --check
  stage clippy none "fast: cargo clippy, native (warnings denied)" -- cargo clippy --workspace --all-targets -- -D warnings
  stage cargo-test cargo "fast: cargo test (the tokenizer's aside)" -- env FUZZ_CASES="$FAST_FUZZ_CASES" cargo test --workspace --exclude devs-context-tokenizer
fi
stage setup-build setup "setup: wasm-bindgen, pkg's npm ci (background)" -- await_setup build || { finish_setup; finish; }
# Through demo.sh, which records the build's inputs: it builds only when a source changed
# since the last build (a clean clone always builds), and the demo does not build again.
if stage build warnings "wasm build (pkg/dist)" -- bash scripts/demo.sh --build-if-stale; then
  stage setup-system setup "setup: Chromium, PostgreSQL (background)" -- await_setup system || { finish_setup; finish; }
  if wants fast; then
    stage js node "fast: JS tests on synthetic data" -- node_tests "${fast_files[@]}"
  fi
  if wants corpus; then
    stage fuzz cargo "corpus: the rules' fuzz (FUZZ_CASES=$CORPUS_FUZZ_CASES)" -- env FUZZ_CASES="$CORPUS_FUZZ_CASES" cargo test -p devs-context-rules --test fuzz
    stage cargo-tokenizer cargo "corpus: cargo test -p devs-context-tokenizer" -- cargo test -p devs-context-tokenizer
    stage corpus node "corpus: real sessions, past formats, fuzz, PostgreSQL" -- with_postgres node_tests "${corpus_files[@]}"
  fi
  if wants packaging; then
    stage clippy-wasm32 none "packaging: cargo clippy, wasm32 (warnings denied)" -- cargo clippy --workspace --lib --target wasm32-unknown-unknown -- -D warnings
    if stage setup-packaging setup "setup: Node 22 and 24, code-server (background)" -- await_setup packaging; then
      stage packaging node "packaging: npm pack, hosts, tsc, Node 22/24, Chromium" -- with_packed node_tests pkg/test/packaging/*.test.mjs "${packaging_files[@]}"
    fi
  fi
fi
finish_setup
finish
