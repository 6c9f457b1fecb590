#!/usr/bin/env bash
# The core on a bare-metal Cortex-M4F (docs/baremetal.md): builds
# `make baremetal`, checks the core links against nothing but the board file
# and libgcc, runs the digit CNN (linked into the image) and the cnn.holo
# fixture (read over semihosting) under qemu-system-arm -M mps2-an386, and
# compares every output's bytes, label and argmax with the wasm build's
# (the npm package, variants scalar and simd128).
#
#   bash tools/test-baremetal.sh     last line: baremetal: N passed, N failed
set -uo pipefail
cd "$(dirname "$0")/.."
pass=0; fail=0
ok() { echo "baremetal $1: ok${2:+ ($2)}"; pass=$((pass + 1)); }
bad() { echo "baremetal $1: FAILED: $2"; fail=$((fail + 1)); }
finish() { echo "baremetal: $pass passed, $fail failed"; [ "$fail" = 0 ] && [ "$pass" -gt 0 ]; exit $?; }

BM=build/baremetal
ELF=$BM/holo-board.elf
QEMU=(qemu-system-arm -M mps2-an386 -nographic -monitor none -serial none)
TIMEOUT=${BAREMETAL_TIMEOUT:-120}

for tool in arm-none-eabi-gcc arm-none-eabi-nm arm-none-eabi-size qemu-system-arm node; do
  command -v "$tool" >/dev/null || { bad toolchain "$tool is missing (make setup installs it)"; finish; }
done
for f in bindings-js/dist/hologram-scalar.wasm bindings-js/dist/hologram-simd128.wasm web-demo/model/digits.holo tests/fixtures/cnn.holo; do
  [ -f "$f" ] || { bad inputs "$f is missing (make build)"; finish; }
done
if ! make -s -j2 baremetal >$BM.build.log 2>&1; then
  tail -30 $BM.build.log; bad build "make baremetal failed"; finish
fi
ok build

# 1. No libc: every symbol the core leaves undefined is one the board file
# defines (its byte functions) or libgcc, the compiler's runtime, does.
libgcc=$(arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -print-libgcc-file-name)
board_syms=$(arm-none-eabi-nm -g --defined-only $BM/obj/boards/mps2-an386/board.o | awk '{print $3}')
gcc_syms=$(arm-none-eabi-nm -g --defined-only "$libgcc" 2>/dev/null | awk 'NF == 3 {print $3}')
undef=$(arm-none-eabi-nm -u $BM/core.o | awk '{print $2}')
stray=$(comm -23 <(sort -u <<<"$undef") <(sort -u <<<"$board_syms"$'\n'"$gcc_syms"))
from_board=$(comm -12 <(sort -u <<<"$undef") <(sort -u <<<"$board_syms") | tr '\n' ' ')
if [ -z "$undef" ]; then
  bad no-libc "core.o has no undefined symbols at all: the check would prove nothing"
elif [ -n "$stray" ]; then
  bad no-libc "the core needs symbols neither the board nor libgcc defines: $(tr '\n' ' ' <<<"$stray")"
else
  ok no-libc "core needs from the board: ${from_board% }; the rest from libgcc"
fi

# run NAME ARCHIVE QEMU-ARCHIVE-ARG [ref.mjs args]: reference, board run, compare.
run() {
  local name=$1 archive=$2 archive_arg=$3; shift 3
  local d=$BM/run/$name
  rm -rf "$d"; mkdir -p "$d"
  if ! node boards/mps2-an386/ref.mjs "$archive" "$d" "$@" >"$d/ref.log" 2>&1; then
    cat "$d/ref.log"; bad "$name" "no wasm reference"; return
  fi
  local args="arg=holo-board,arg=$d/inputs.bin,arg=$d/board.bin${archive_arg:+,arg=$archive_arg}"
  local t0=$(date +%s.%N)
  timeout "$TIMEOUT" "${QEMU[@]}" -semihosting-config "enable=on,target=native,$args" -kernel $ELF \
    >"$d/qemu.log" 2>"$d/board.txt"
  local rc=$? secs=$(echo "$(date +%s.%N) - $t0" | bc)
  grep -v '^out ' "$d/board.txt" | sed 's/^/  /'
  [ $rc = 124 ] && { bad "$name" "qemu timed out after ${TIMEOUT}s"; return; }
  [ $rc = 0 ] || { cat "$d/qemu.log"; bad "$name" "the board exited $rc"; return; }
  grep -q '^board: ok' "$d/board.txt" || { bad "$name" "the board did not finish"; return; }
  # The warm session takes every record the cold one put (the constant cone).
  local puts=$(grep -oP 'cold session: .*store_puts=\K[0-9]+' "$d/board.txt")
  grep -q "warm session: store_hits=${puts:-x} store_misses=0 .* identical" "$d/board.txt" ||
    { bad "$name" "the warm session (MemWarmStore) missed or differed"; return; }
  if ! diff <(grep '^out ' "$d/board.txt") "$d/ref.txt" >"$d/diff.txt"; then
    head -6 "$d/diff.txt"; bad "$name" "output labels/bytes differ from the wasm build's"; return
  fi
  if ! cmp -s "$d/board.bin" "$d/ref.bin"; then bad "$name" "raw output bytes differ"; return; fi
  local n=$(grep -c '^out ' "$d/ref.txt")
  ok "$name" "$n outputs byte-identical to wasm, sha256 of all $(sha256sum <"$d/board.bin" | cut -c1-16)..., qemu ${secs}s"
}

run digits web-demo/model/digits.holo "" --digits 50
run cnn-fixture tests/fixtures/cnn.holo tests/fixtures/cnn.holo

echo "sizes:"
arm-none-eabi-size -A $BM/core.o | awk '/^\.text/ {t += $2} /^\.rodata/ {r += $2} END {printf "  core.o        text %d + rodata %d = %d bytes\n", t, r, t + r}'
arm-none-eabi-size -A $ELF | awk '$1 == ".text" {t = $2} $1 == ".data" {d = $2} $1 == ".bss" {b = $2} END {printf "  holo-board.elf .text (code + rodata + archive) %d, .data %d, .bss %d bytes\n", t, d, b}'
finish
