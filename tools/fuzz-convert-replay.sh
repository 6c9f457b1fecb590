#!/bin/sh
# Replays the converter fuzz corpus and regressions and runs the fast-check
# properties (fixed seed, bounded runs): tests/fuzz/convert/replay.mjs.
# Last line: `fuzz-convert: N passed, N failed`; exit 1 on any failure.
cd "$(dirname "$0")/.." || exit 1
exec node tests/fuzz/convert/replay.mjs "$@"
