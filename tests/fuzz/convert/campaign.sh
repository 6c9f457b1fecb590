#!/bin/sh
# A fuzz_convert campaign of CPU_SECONDS of the fuzzer's own CPU time
# (user+sys, measured by /usr/bin/time -v per run), at nice 19. libFuzzer stops
# at a finding; the campaign saves it (build/fuzz/crashes/convert-*) and
# starts again from the grown corpus until the CPU budget is spent.
#   tests/fuzz/convert/campaign.sh CPU_SECONDS [LOG]
set -u
budget=${1:?CPU seconds}
log=${2:-build/fuzz/convert-campaign.log}
mkdir -p build/fuzz/convert/corpus build/fuzz/crashes
make -s jazzer-compat >/dev/null || exit 1
used=0; run=0; idle=0
echo "campaign: start $(date -u +%FT%TZ), budget ${budget} CPU s" >>"$log"
while [ "$used" -lt "$budget" ]; do
  run=$((run + 1))
  left=$((budget - used))
  # wall time cap per run = CPU still to spend (nice 19 may make it longer;
  # libFuzzer counts wall time, so a run ends early and the loop goes on)
  /usr/bin/time -v -o build/fuzz/convert/time.$run make -s fuzz-convert FUZZ_SECONDS=$left >build/fuzz/convert/run.out 2>&1
  cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%d", s }' build/fuzz/convert/time.$run)
  used=$((used + cpu))
  # a run that could not even start (no CPU used) three times: give up
  if [ "$cpu" -eq 0 ]; then idle=$((idle + 1)); [ "$idle" -lt 3 ] || { echo "campaign: runs do not start, see build/fuzz/convert/fuzz.log" >>"$log"; exit 1; }; else idle=0; fi
  cat build/fuzz/convert/fuzz.log >>build/fuzz/convert/campaign-fuzz.log
  execs=$(awk '/^stat::number_of_executed_units/ { print $2; exit }' build/fuzz/convert/fuzz.log)
  last=$(grep -E '^#[0-9]+[[:space:]]' build/fuzz/convert/fuzz.log | tail -1 | sed 's/ lim:.*//; s/[[:space:]]\{1,\}/ /g')
  found=$(grep -m1 'fuzz_convert finding\|Uncaught\|==[0-9]*== ERROR' build/fuzz/convert/fuzz.log)
  echo "campaign: run $run: ${cpu} CPU s (total ${used} of ${budget}), ${execs:-0} execs; last: ${last}; ${found:-no finding}" >>"$log"
done
echo "campaign: done $(date -u +%FT%TZ), ${used} CPU s in ${run} runs" >>"$log"
