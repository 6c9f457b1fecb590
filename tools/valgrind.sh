#!/usr/bin/env bash
# Runs every C test (tests/c/test_*.c) under valgrind memcheck, built WITHOUT
# sanitizers (build/plain/): uninitialised reads, leaks and invalid frees
# that ASan does not see. One verdict per test binary, then:
#   valgrind: N passed, N failed
# usage: tools/valgrind.sh [name-filter...]    e.g. tools/valgrind.sh session archive
# VALGRIND_JOBS (default 2) binaries are built and run at once (tools/par.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
. tools/par.sh
P=build/plain
L=$P/logs
JOBS=${VALGRIND_JOBS:-2}
mkdir -p "$L"

names=()
for src in tests/c/test_*.c; do
  name=$(basename "$src" .c)
  if [ $# -gt 0 ]; then keep=0; for f in "$@"; do [[ $name == *$f* ]] && keep=1; done; [ $keep = 1 ] || continue; fi
  names+=("$name")
done
[ ${#names[@]} -eq 0 ] && { echo "valgrind: no test matches $*"; echo "valgrind: 0 passed, 1 failed"; exit 1; }

t0=$(date +%s)
# The core library and the tests, unsanitized: the Makefile's build/plain
# variant (per-object rules; only what changed is rebuilt). -k: one test that
# does not build must not keep the others from running.
# (tests are compiled without -Werror there: see the Makefile)
make_goals "$JOBS" "$L/build.log" "${names[@]/#/$P/}"

vg_one() {
  rm -f "$L/$1.rc"
  if ! built "$P/$1"; then echo "build 0" >"$L/$1.rc"; return; fi
  local s0=$(date +%s)
  HOLO_TEST_LIGHT=1 valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
    --show-leak-kinds=definite,indirect --track-origins=yes --trace-children=no -q \
    "$P/$1" >"$L/$1.out" 2>"$L/$1.vg"
  echo "$? $(( $(date +%s) - s0 ))" >"$L/$1.rc"
}
par_each "$JOBS" vg_one "${names[@]}"

pass=0; fail=0
for name in "${names[@]}"; do
  rc=$(job_status "$L/$name.rc")
  if [ "$rc" = build ] || [ "$rc" = lost ]; then
    build_failure "valgrind $name" "$name" "$L/build.log" 5
    fail=$((fail + 1)); continue
  fi
  read -r _ dt <"$L/$name.rc"
  if [ "$rc" -eq 0 ]; then
    echo "valgrind $name: ok (${dt}s)"; pass=$((pass + 1))
  else
    echo "valgrind $name: FAILED rc=$rc (${dt}s) -- $L/$name.vg"
    grep -E '==[0-9]+== (Invalid|Conditional|Use of|Syscall|Mismatched|[0-9,]+ bytes in)|FAILED' "$L/$name.vg" "$L/$name.out" | head -8
    fail=$((fail + 1))
  fi
done
echo "valgrind: $pass passed, $fail failed ($(( $(date +%s) - t0 ))s)"
[ $fail -eq 0 ]
