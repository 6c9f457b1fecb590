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
