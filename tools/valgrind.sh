#!/usr/bin/env bash
# Runs every C test (tests/c/test_*.c) under valgrind memcheck, built WITHOUT
# sanitizers (build/plain/): uninitialised reads, leaks and invalid frees
# that ASan does not see. One verdict per test binary, then:
#   valgrind: N passed, N failed
# usage: tools/valgrind.sh [name-filter...]    e.g. tools/valgrind.sh session archive
set -uo pipefail
cd "$(dirname "$0")/.."
CC=${CC:-gcc}
P=build/plain
mkdir -p "$P/obj" "$P/logs"
CFLAGS="-std=c11 -Wall -Wextra -Werror -O2 -g -fno-math-errno -ffp-contract=off -Iruntime/include -Ikernels-wasm-simd/include -Igeneration/include -Ikernels-wasm-simd"

# The core library, unsanitized (rebuilt when any source is newer).
lib=$P/libholo.a
srcs=$( (ls runtime/*.c generation/*.c; find kernels-wasm-simd -name '*.c') 2>/dev/null | LC_ALL=C sort)
newest=$(ls -t $srcs runtime/*.h runtime/include/hologram/*.h $(find kernels-wasm-simd -name '*.h') generation/include/hologram/*.h 2>/dev/null | head -1)
if [ ! -f "$lib" ] || [ "$newest" -nt "$lib" ]; then
  rm -f "$lib"; objs=
  for s in $srcs; do
    o=$P/obj/${s//\//_}.o
    $CC $CFLAGS -c "$s" -o "$o" || { echo "valgrind: build of $s failed"; exit 2; }
    objs="$objs $o"
  done
  ar rcs "$lib" $objs
fi

pass=0; fail=0; t0=$(date +%s)
for src in tests/c/test_*.c; do
  name=$(basename "$src" .c)
  if [ $# -gt 0 ]; then keep=0; for f in "$@"; do [[ $name == *$f* ]] && keep=1; done; [ $keep = 1 ] || continue; fi
  # (tests without -Werror: cmocka's assert_* look returnable to gcc without
  # sanitizers, so -Wmaybe-uninitialized can fire in test code)
  if ! $CC ${CFLAGS/-Werror/} -D_POSIX_C_SOURCE=200809L -Itests/c -Iwasi -Iruntime "$src" tests/c/util/*.c wasi/std-*.c "$lib" \
        -lcmocka -lm -o "$P/$name" 2>"$P/logs/$name.build"; then
    echo "valgrind $name: BUILD FAILED"; tail -5 "$P/logs/$name.build"; fail=$((fail + 1)); continue
  fi
  s0=$(date +%s)
  valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
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
