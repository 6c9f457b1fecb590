#!/usr/bin/env bash
# Sourced by the test scripts: make test has a 20-minute budget on 2 cores,
# and most suites are many independent single-threaded programs.
#
#   par_each JOBS FUNC ARG...   runs `FUNC ARG` for every ARG, at most JOBS at
#                               once, and returns when all have finished.
# FUNC must write its results to files (one per ARG): the caller reads them
# afterwards in ARG order, so the printed report does not depend on which
# job finished first.
par_each() {
  local jobs=$1 fn=$2 running=0
  shift 2
  for arg in "$@"; do
    if [ "$running" -ge "$jobs" ]; then
      wait -n
      running=$((running - 1))
    fi
    "$fn" "$arg" &
    running=$((running + 1))
  done
  wait
}

# job_status FILE: the first word a job wrote to its .rc file ("build" when
# it was not built, else its exit code), or "lost" when it wrote none.
job_status() {
  local rc
  { read -r rc _ <"$1"; } 2>/dev/null || rc=lost
  echo "${rc:-lost}"
}

# build_failure WHAT NAME LOG LINES: the report for a program that did not
# build: its own lines of the build log, else the log's tail.
build_failure() {
  echo "$1: BUILD FAILED"
  { grep -E "error|Error" "$3" | grep -F "$2" || tail -5 "$3"; } | head -"$4"
}

# cmocka_counts TEXT: sets cm_pass, cm_fail and cm_skip from a cmocka run's
# summary lines (0 when a line is missing).
cmocka_counts() {
  cm_pass=$(grep -oP '^\[  PASSED  \] \K[0-9]+' <<<"$1" | tail -1)
  cm_fail=$(grep -oP '^\[  FAILED  \] \K[0-9]+(?= test)' <<<"$1" | tail -1)
  cm_skip=$(grep -oP '^\[  SKIPPED \] \K[0-9]+(?= test)' <<<"$1" | tail -1)
  cm_pass=${cm_pass:-0} cm_fail=${cm_fail:-0} cm_skip=${cm_skip:-0}
}

# make_goals JOBS LOG TARGET...: builds the targets with make -k into LOG and
# keeps the goals make gave up on (GNU make -k names each: "Target 'X' not
# remade because of errors."). `built X` then answers from that list: one
# parse of the Makefile, not a `make -q` per program (~1 s each with the
# build tree's dependency files: a minute of make check's C suites).
make_goals() {
  local jobs=$1 log=$2
  shift 2
  mg_rc=0
  make -s -k -j"$jobs" "$@" >"$log" 2>&1 || mg_rc=$?
  mg_unmade=$(grep -oP "Target '\K[^']+(?=' not remade because of errors)" "$log" || true)
}

# built TARGET: 0 when make_goals built it (or it was up to date).
built() {
  [ -e "$1" ] || return 1
  grep -qxF "$1" <<<"$mg_unmade" && return 1
  # make failed and named no goal (a Makefile error): trust no old binary
  [ "$mg_rc" -eq 0 ] || [ -n "$mg_unmade" ]
}
