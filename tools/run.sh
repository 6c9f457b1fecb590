#!/usr/bin/env bash
# `make run`: the main job on the bundled default archive, through the
# native program, the WASI program (node:wasi) and the npm package.
set -euo pipefail
cd "$(dirname "$0")/.."
ARCHIVE=${ARCHIVE:-examples/default.holo}
[ -f "$ARCHIVE" ] || node examples/make-default.mjs "$ARCHIVE"
echo "== native: build/native/holo run $ARCHIVE"
build/native/holo run "$ARCHIVE"
echo
echo "== WASI: holo.wasm under node:wasi (wasmtime: wasmtime run --dir . build/wasm/holo.wasm run $ARCHIVE)"
node tools/wasi-run.mjs run "$ARCHIVE"
echo
echo "== npm package (JS binding over the core wasm module)"
node examples/run-default.mjs "$ARCHIVE"
