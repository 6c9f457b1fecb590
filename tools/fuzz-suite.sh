#!/usr/bin/env bash
# Replays the regressions and seeds, then fuzzes each target for N seconds;
# prints "fuzz: N passed, N failed" (one verdict per target, plus the replay).
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
pass=0; fail=0
# The instrumented core, two objects at a time (serially it is most of this
# suite's time); the targets below then find it built.
if ! make -s -j"${FUZZ_BUILD_JOBS:-2}" fuzz-build >/tmp/holo-fuzz-build.log 2>&1; then
  tail -20 /tmp/holo-fuzz-build.log; echo "fuzz: 0 passed, 1 failed"; exit 1
fi
if make -s fuzz-regress >/tmp/holo-fuzz-regress.log 2>&1; then pass=$((pass + 1)); else fail=$((fail + 1)); tail -20 /tmp/holo-fuzz-regress.log; fi
# A fixed seed: the smoke run's verdict is reproducible (the same binary
# mutates the same way; only the time cut-off depends on the machine).
# Campaigns (`make fuzz`) draw random seeds.
out=$(make -s fuzz FUZZ_SECONDS="$secs" FUZZ_ARGS="-seed=${FUZZ_SEED:-1}" 2>&1); rc=$?
# The finding itself (sanitizer report, invariant, saved artifact) must reach
# the log a CI run prints.
echo "$out" | grep -E "^== |^!!|cov:|ERROR|SUMMARY|runtime error|fuzz invariant|crash:" | tail -24
targets=$(grep -c "^== " <<<"$out")
bad=$(grep -c "^!!" <<<"$out")
if [ "$targets" = 0 ]; then fail=$((fail + 1)); echo "$out" | tail -20; fi
pass=$((pass + targets - bad)); fail=$((fail + bad))
[ $rc -ne 0 ] && [ "$bad" = 0 ] && [ "$targets" != 0 ] && fail=$((fail + 1))
echo "fuzz: $pass passed, $fail failed"
