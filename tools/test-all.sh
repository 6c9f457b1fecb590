#!/usr/bin/env bash
# Runs every suite and prints one final line: N passed, N failed (all suites).
#   tools/test-all.sh           every suite (make test)
#   tools/test-all.sh --check   the fast gate (make check, run before anything
#                               reaches main): the C suites native (ASan), the JS
#                               suites, conformance, size, layers and zoo-small;
#                               not wasm-c, the browsers, bundlers, bare metal,
#                               fuzzing or valgrind (docs/decisions.md 78)
set -uo pipefail
cd "$(dirname "$0")/.."
MODE=all
[ "${1:-}" = --check ] && MODE=check
pass=0; fail=0
add() { pass=$((pass + $1)); fail=$((fail + $2)); }
# Seconds per suite, printed before the final line: make test has a 20-minute
# budget on 2 cores, and a suite that grows should be seen growing.
times=""
took() { times="$times $1=$(( SECONDS - $2 ))s"; }

t0=$SECONDS

# C unit tests (cmocka, ASan+UBSan): every binary built first (make -j),
# then run TEST_JOBS at a time (tools/par.sh); each writes
# build/logs/c/NAME.{out,rc} and the verdicts are read back in name order.
. tools/par.sh
JOBS=${TEST_JOBS:-2}
CL=build/logs/c
rm -rf "$CL"; mkdir -p "$CL"
cnames=()
for src in tests/c/test_*.c; do cnames+=("$(basename "$src" .c)"); done
# -k: one test that does not build must not keep the others from running
make_goals "$JOBS" "$CL/build.log" "${cnames[@]/#/build/asan/}"
c_one() {
  # not built: it failed (its errors are in build.log)
  if ! built "build/asan/$1"; then echo build >"$CL/$1.rc"; return; fi
  ASAN_OPTIONS=detect_leaks=1 "build/asan/$1" >"$CL/$1.out" 2>&1
  echo $? >"$CL/$1.rc"
}
par_each "$JOBS" c_one "${cnames[@]}"
for name in "${cnames[@]}"; do
  rc=$(job_status "$CL/$name.rc")
  if [ "$rc" = build ] || [ "$rc" = lost ]; then
    build_failure "C $name" "$name" "$CL/build.log" 20
    add 0 1; continue
  fi
  out=$(cat "$CL/$name.out")
  cmocka_counts "$out"; p=$cm_pass f=$cm_fail
  if [ "$rc" -ne 0 ] && [ "$f" = 0 ]; then f=1; echo "$out" | tail -30; fi
  if [ "$p" = 0 ] && [ "$f" = 0 ]; then f=1; echo "C $name: ran zero tests"; fi
  [ "$f" != 0 ] && grep -E "FAILED|error|Error" <<<"$out" | head -20
  echo "C $name: $p passed, $f failed"
  add "$p" "$f"
done

took c "$t0"

# JS tests (uvu), TEST_JOBS files at once.
t0=$SECONDS
out=$(node tests/js/run.mjs --jobs "$JOBS" 2>&1); rc=$?
mkdir -p build; echo "$out" > build/test-js.log
echo "$out" | grep -vE '^\s*$' | tail -40
# A failure far above the tail stays visible: its file and uvu's report.
grep -nE '^# .*(no uvu summary|counted as)|FAIL|✘' build/test-js.log | head -20
line=$(grep -oP '^js: \K[0-9]+ passed, [0-9]+ failed' <<<"$out" | tail -1)
if [ -n "$line" ]; then
  add "$(cut -d' ' -f1 <<<"$line")" "$(cut -d' ' -f3 <<<"$line")"
  [ "$line" = "0 passed, 0 failed" ] && { echo "JS: ran zero tests"; add 0 1; }
else
  echo "JS: runner produced no summary"; add 0 1
fi
[ $rc -ne 0 ] && [ -z "$line" ] && add 0 1
took js "$t0"

# Conformance (ONNX backend test data through the wasm build) and other
# suites that print "<name>: N passed, N failed".
suite() {
  local name=$1; shift
  local t0=$SECONDS
  out=$("$@" 2>&1); rc=$?
  echo "$out" | tail -8
  line=$(grep -oP "^$name: \K[0-9]+ passed, [0-9]+ failed" <<<"$out" | tail -1)
  if [ -n "$line" ]; then
    add "$(cut -d' ' -f1 <<<"$line")" "$(cut -d' ' -f3 <<<"$line")"
    [ "$line" = "0 passed, 0 failed" ] && { echo "$name: ran zero tests"; add 0 1; }
    [ $rc -ne 0 ] && [ "$(cut -d' ' -f3 <<<"$line")" = 0 ] && add 0 1
  else
    echo "$name: produced no summary (exit $rc)"; add 0 1
  fi
  took "$name" "$t0"
}
# The same C suites built for wasm32-wasi (simd128 and relaxed SIMD) under
# node:wasi, and the microkernel tester (SIMD vs scalar in one binary).
[ "$MODE" = all ] && suite wasm-c bash tools/test-wasm-c.sh
suite conformance node tests/conformance/run.mjs --check-baseline
suite size node tools/check-size.mjs
suite core-size node tools/check-core-size.mjs
suite layers node tools/check-layers.mjs
# The committed subset of the real-model zoo (tests/zoo; the whole zoo is `make zoo`).
suite zoo-small node tests/zoo/run.mjs
# One archive of each of its dynamic models run at 3 lengths x 2 batches against onnxruntime-node (issue 41 item 4).
suite zoo-sweep node tests/zoo/sweep.mjs
finish() {
  echo "suite seconds:$times (total $SECONDS s)"
  # build/gate-passed: the commit this run passed on (a clean tree only), for
  # a landing script or hook to check; a pipe to tail hides the exit status
  rm -f build/gate-passed
  if [ "$fail" = 0 ] && [ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    git rev-parse HEAD >build/gate-passed 2>/dev/null || rm -f build/gate-passed
  fi
  echo "$pass passed, $fail failed"
  [ "$fail" = 0 ]
}
[ "$MODE" = check ] && { finish; exit; }
[ -f tests/browser/demo.test.mjs ] && suite browser node tests/browser/demo.test.mjs
[ -f tests/browser/worker.test.mjs ] && suite browser-worker node tests/browser/worker.test.mjs
[ -f tests/browser/threads.test.mjs ] && suite browser-threads node tests/browser/threads.test.mjs
[ -f tests/browser/store.test.mjs ] && suite browser-store node tests/browser/store.test.mjs
# The packed npm package built into a small app by Vite, webpack, esbuild, Rollup
# and Parcel, each output run in Chromium (page, worker, threads) vs Node; the Vite dev server.
suite bundlers node tests/bundlers/run.mjs
# The core on a bare-metal Cortex-M4F (qemu mps2-an386), bytes vs the wasm build.
suite baremetal bash tools/test-baremetal.sh
# Fuzzing (each target FUZZ_SECONDS, 15 in make test: a smoke run that keeps make test near its 20-minute budget; campaigns are `make fuzz`, docs/fuzzing.md) and valgrind over the C suite.
suite fuzz-convert bash tools/fuzz-convert-replay.sh
suite fuzz bash tools/fuzz-suite.sh "${FUZZ_SECONDS:-15}"
[ "${HOLO_SKIP_VALGRIND:-0}" = 1 ] || suite valgrind bash tools/valgrind.sh

finish
