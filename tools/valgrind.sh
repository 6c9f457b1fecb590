#!/usr/bin/env bash
# Runs every C test (tests/c/test_*.c) under valgrind memcheck, built WITHOUT
# sanitizers (build/plain/): uninitialised reads, leaks and invalid frees
# that ASan does not see. One verdict per test binary, then:
#   valgrind: N passed, N failed
# usage: tools/valgrind.sh [name-filter...]    e.g. tools/valgrind.sh session archive
set -uo pipefail
cd "$(dirname "$0")/.."
P=build/plain
mkdir -p "$P/logs"

# The core library and the tests, unsanitized: the Makefile's build/plain
# variant (per-object rules; only what changed is rebuilt).
if ! make -s -j"${VALGRIND_JOBS:-2}" "$P/libholo.a" >"$P/logs/libholo.build" 2>&1; then
  echo "valgrind: build of $P/libholo.a failed"; tail -20 "$P/logs/libholo.build"; exit 2
fi

pass=0; fail=0; t0=$(date +%s)
for src in tests/c/test_*.c; do
  name=$(basename "$src" .c)
  if [ $# -gt 0 ]; then keep=0; for f in "$@"; do [[ $name == *$f* ]] && keep=1; done; [ $keep = 1 ] || continue; fi
  # (tests are compiled without -Werror there: see the Makefile)
  if ! make -s "$P/$name" >"$P/logs/$name.build" 2>&1; then
    echo "valgrind $name: BUILD FAILED"; tail -5 "$P/logs/$name.build"; fail=$((fail + 1)); continue
  fi
  s0=$(date +%s)
  HOLO_TEST_LIGHT=1 valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
    --show-leak-kinds=definite,indirect --track-origins=yes --trace-children=no -q \
    "$P/$name" >"$P/logs/$name.out" 2>"$P/logs/$name.vg"
  rc=$?
  dt=$(( $(date +%s) - s0 ))
  if [ $rc -eq 0 ]; then
    echo "valgrind $name: ok (${dt}s)"; pass=$((pass + 1))
  else
    echo "valgrind $name: FAILED rc=$rc (${dt}s) -- $P/logs/$name.vg"
    grep -E '==[0-9]+== (Invalid|Conditional|Use of|Syscall|Mismatched|[0-9,]+ bytes in)|FAILED' "$P/logs/$name.vg" "$P/logs/$name.out" | head -8
    fail=$((fail + 1))
  fi
done
echo "valgrind: $pass passed, $fail failed ($(( $(date +%s) - t0 ))s)"
[ $fail -eq 0 ]
