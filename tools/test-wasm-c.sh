#!/usr/bin/env bash
# The C suites built for wasm32-wasi (tests/wasm-tests.mk: simd128 and
# relaxed SIMD), run under node:wasi (tools/wasi-test-run.mjs). Prints one
# line per suite and variant and last `wasm-c: N passed, N failed`; exits
# non-zero on any failure, a build failure, or zero tests.
# WASM_C_VARIANTS / WASM_C_SUITES narrow the run (space-separated names).
set -uo pipefail
cd "$(dirname "$0")/.."
pairs=()
for vs in $(make -s wasm-tests-list); do
  v=${vs%%/*} s=${vs#*/}
  [ -n "${WASM_C_VARIANTS:-}" ] && [[ " $WASM_C_VARIANTS " != *" $v "* ]] && continue
  [ -n "${WASM_C_SUITES:-}" ] && [[ " $WASM_C_SUITES " != *" $s "* ]] && continue
  pairs+=("$vs")
done
pass=0; fail=0; skip=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

targets=()
for vs in "${pairs[@]}"; do targets+=("build/wasm-test/$vs.wasm"); done
# -k: one suite that does not build must not keep the others from running
. tools/par.sh
make_goals "${WASM_C_JOBS:-2}" "$log" "${targets[@]}"

# Each suite runs in its own node process, WASM_C_JOBS at once
# (tools/par.sh); results go to build/logs/wasm-c/VARIANT-SUITE.{out,rc} and
# are read back in the list's order.
WL=build/logs/wasm-c
rm -rf "$WL"; mkdir -p "$WL"
wc_one() {
  local w=build/wasm-test/$1.wasm f=$WL/${1//\//-}
  # not built: it failed (its errors are in the build log); a stale .wasm never runs
  if ! built "$w"; then echo build >"$f.rc"; return; fi
  timeout "${WASM_C_TIMEOUT:-300}" node tools/wasi-test-run.mjs "$w" >"$f.out" 2>&1
  echo $? >"$f.rc"
}
par_each "${WASM_C_JOBS:-2}" wc_one "${pairs[@]}"

for vs in "${pairs[@]}"; do
  v=${vs%%/*} s=${vs#*/} lf=$WL/${vs//\//-}
  rc=$(job_status "$lf.rc")
  if [ "$rc" = build ] || [ "$rc" = lost ]; then
    build_failure "wasm-c $v $s" "$s" "$log" 10
    fail=$((fail + 1)); continue
  fi
  out=$(cat "$lf.out")
  cmocka_counts "$out"; p=$cm_pass f=$cm_fail k=$cm_skip
  if [ "$rc" -ne 0 ] && [ "$f" = 0 ]; then
    f=1; echo "$out" | tail -20
    [ "$rc" -eq 124 ] && echo "wasm-c $v $s: timed out"
  fi
  [ "$f" != 0 ] && grep -E '^\[  (ERROR|FAILED) |^\[   LINE   \]' <<<"$out" | head -20
  echo "wasm-c $v $s: $p passed, $f failed$([ "$k" != 0 ] && echo ", $k skipped")"
  pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + k))
done
[ $pass -eq 0 ] && [ $fail -eq 0 ] && { echo "wasm-c: zero tests ran"; fail=1; }
echo "wasm-c: skipped $skip test(s) that cannot run under WASI (tests/wasm-tests.mk)"
echo "wasm-c: $pass passed, $fail failed"
[ $fail -eq 0 ]
