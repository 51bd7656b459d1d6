#!/usr/bin/env bash
# Every test, in order: format, lints, Rust tests, the wasm build, the JS tests against
# the built package, then the packaging tests. Sets everything up first on a fresh machine.
#
# Prints one line per stage; each stage's full output is in target/test-logs/<stage>.log,
# and the end of the log of a stage that fails is printed. A failed stage does not stop
# the others, except that nothing runs without setup and no JS test runs without a build.
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

# stage SLUG COUNTER TITLE -- COMMAND...: runs COMMAND with its output in the stage's log.
stage() {
  local slug=$1 counter=$2 title=$3 log="$logs/$1.log" t0=$EPOCHREALTIME rc
  shift 4
  printf '==> %-44s ' "$title"
  "$@" >"$log" 2>&1
  rc=$?
  count_"$counter" "$log"
  if ((rc == 0)); then
    printf 'ok (%s s%s)\n' "$(since "$t0")" "$detail"
  else
    printf 'FAILED (%s s%s, exit %d)\n' "$(since "$t0")" "$detail" "$rc"
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
  printf 'full logs: %s/   total time: %s s\n' "$logs" "$(since "$started")"
  if ((skipped)); then
    printf 'total: %d passed, %d failed, %d skipped\n' "$passed" "$failed" "$skipped"
  else
    printf 'total: %d passed, %d failed\n' "$passed" "$failed"
  fi
  if ((${#failures[@]} || failed)); then exit 1; fi
  exit 0
}

stage setup none "setup (scripts/setup.sh)" -- bash scripts/setup.sh || finish
stage fmt none "cargo fmt --check" -- cargo fmt --all --check
stage clippy none "cargo clippy, native (warnings denied)" -- cargo clippy --workspace --all-targets -- -D warnings
stage clippy-wasm32 none "cargo clippy, wasm32 (warnings denied)" -- cargo clippy --workspace --lib --target wasm32-unknown-unknown -- -D warnings
stage cargo-test cargo "cargo test --workspace" -- cargo test --workspace
# Through demo.sh, which records the build's inputs, so the demo does not build again.
if stage build warnings "wasm build (pkg/dist)" -- bash scripts/demo.sh --build; then
  stage js node "JS tests against the built package" -- node --test --test-reporter=spec pkg/test/*.test.mjs
  stage packaging node "packaging tests" -- node --test --test-reporter=spec pkg/test/packaging/*.test.mjs
fi
finish
