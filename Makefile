# hologram-exec — one Makefile for every artifact. `make help` lists targets.
SHELL := /bin/bash
.DEFAULT_GOAL := build

CC       ?= gcc
CLANG    ?= clang-19
WASMLD   ?= wasm-ld-19
WASMOPT  ?= node_modules/.bin/wasm-opt
NODE     ?= node

INC      := -Iruntime/include -Ikernels-wasm-simd/include -Igeneration/include -Ikernels-wasm-simd
WARN     := -Wall -Wextra -Werror
CFLAGS_N := -std=c11 $(WARN) -O2 -g -fno-math-errno -ffp-contract=off $(INC)
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

RUNTIME_SRC := $(sort $(wildcard runtime/*.c))
KERNEL_SRC  := $(sort $(shell find kernels-wasm-simd -name '*.c'))
CORE_SRC    := $(RUNTIME_SRC) $(KERNEL_SRC) $(sort $(wildcard generation/*.c))
STD_SRC     := $(sort $(wildcard wasi/std-*.c))
CLI_SRC     := $(sort $(wildcard wasi/cli-*.c))
TEST_SRC    := $(sort $(wildcard tests/c/test_*.c))
TEST_UTIL   := $(sort $(wildcard tests/c/util/*.c))
HDRS        := $(wildcard runtime/include/hologram/*.h generation/include/hologram/*.h runtime/*.h) $(shell find kernels-wasm-simd -name '*.h') $(wildcard tests/c/util/*.h wasi/*.h)

N := build/native
A := build/asan
W := build/wasm

.PHONY: build native wasm setup run test test-c test-js clean help format

build: native wasm pkg-compiler

# The converter ships inside the npm package (bindings-js/compiler/, not
# tracked; docs/decisions.md 13): a plain copy of compiler/*.js and
# compiler/rewrites/*.js, with convert.js's import of the shim pointed at the
# package's own index.js.
PKG_COMPILER := $(patsubst compiler/%,bindings-js/compiler/%,$(wildcard compiler/*.js compiler/rewrites/*.js))
.PHONY: pkg-compiler
pkg-compiler: $(PKG_COMPILER)
bindings-js/compiler/convert.js: compiler/convert.js
	@mkdir -p $(@D); sed "s#'../bindings-js/index.js'#'../index.js'#" $< > $@.tmp && mv $@.tmp $@
bindings-js/compiler/%.js: compiler/%.js
	@mkdir -p $(@D); cp $< $@.tmp && mv $@.tmp $@

native: $(N)/libholo.a $(N)/holo
$(N)/libholo.a: $(CORE_SRC) $(HDRS) | $(N)/
	@rm -f $@; objs=; for s in $(CORE_SRC); do o=$(N)/obj/$${s//\//_}.o; mkdir -p $(N)/obj; \
	  $(CC) $(CFLAGS_N) -c $$s -o $$o || exit 1; objs="$$objs $$o"; done; ar rcs $@ $$objs
$(N)/holo: $(CLI_SRC) $(STD_SRC) $(N)/libholo.a
	$(CC) $(CFLAGS_N) -D_POSIX_C_SOURCE=200809L -Iwasi $(CLI_SRC) $(STD_SRC) $(N)/libholo.a -lm -o $@

# Sanitized build for the C test suite.
$(A)/libholo.a: $(CORE_SRC) $(HDRS) | $(A)/
	@rm -f $@; objs=; for s in $(CORE_SRC); do o=$(A)/obj/$${s//\//_}.o; mkdir -p $(A)/obj; \
	  $(CC) $(CFLAGS_N) $(SAN) -c $$s -o $$o || exit 1; objs="$$objs $$o"; done; ar rcs $@ $$objs
$(A)/%: tests/c/%.c $(TEST_UTIL) $(A)/libholo.a
	$(CC) $(CFLAGS_N) $(SAN) -D_POSIX_C_SOURCE=200809L -Itests/c -Iwasi -Iruntime $< $(TEST_UTIL) $(STD_SRC) $(A)/libholo.a -lcmocka -lm -o $@

%/:
	@mkdir -p $@

include wasm.mk
include bindings-js/layout.mk

setup:
	@bash tools/setup.sh

test: build
	@bash tools/test-all.sh

# The main job sets itself up on a fresh machine.
run:
	@{ [ -d node_modules ] && command -v clang-19 >/dev/null && [ -e /usr/bin/chromium ]; } || bash tools/setup.sh
	@$(MAKE) -s build
	@bash tools/run.sh

format:
	clang-format -i $(CORE_SRC) $(STD_SRC) $(CLI_SRC) $(TEST_SRC) $(HDRS)

clean:
	rm -rf build

help:
	@echo "make setup | build | run | test | clean | format | bench | bench-peers | bench-peers-browser | bench-gemm | bench-memo"

# Content-addressing benchmarks (issue 3): native, then wasm under Node.
.PHONY: bench-memo
$(N)/bench-memo: bench/bench-memo.c $(STD_SRC) $(N)/libholo.a
	$(CC) $(CFLAGS_N) -D_POSIX_C_SOURCE=200809L -Iwasi -Iruntime $< $(STD_SRC) $(N)/libholo.a -lm -o $@
bench-memo: build $(N)/bench-memo
	@node bench/memo-archives.mjs build/bench
	@echo "== native"; $(N)/bench-memo build/bench
	@echo "== wasm (Node, via the npm package)"; node bench/memo.mjs build/bench

# Kernels vs onnxruntime-web (issue 5): same models, same inputs, one process.
# BENCH_ARGS e.g. "mlp_b1 --variant relaxed --ms 4000" (relaxed needs
# NODE_FLAGS=--experimental-wasm-relaxed-simd on Node 20).
.PHONY: bench
bench: $(PKG_WASM)/hologram-simd128.wasm $(PKG_WASM)/hologram-scalar.wasm $(PKG_WASM)/hologram-relaxed.wasm
	$(NODE) $(NODE_FLAGS) bench/run.mjs $(BENCH_ARGS)
include fuzz.mk

# The web demo and its model (issue 9): DEMO_HOLO is part of `build`; `make demo`.
include demo.mk

# hologram-exec vs onnxruntime-web (wasm, 1 thread) vs onnxruntime-node (native,
# 1 thread) on the torch-exported models of /work/shared/bench/make_models.py
# (mobilenet_v2/resnet18 need python3-torchvision; skipped when missing — after
# installing it, rm build/bench-models/.stamp).
# PEERS_ARGS e.g. "mlp_b1 --ms 5000" or "--no-mem".
BENCH_MODELS := build/bench-models
MAKE_MODELS  ?= $(firstword $(wildcard ../shared/bench/make_models.py /work/shared/bench/make_models.py))
.PHONY: bench-peers bench-models
bench-models: $(BENCH_MODELS)/.stamp
$(BENCH_MODELS)/.stamp: $(MAKE_MODELS) | $(BENCH_MODELS)/
	@/usr/bin/python3 -c "import torch, torchvision" 2>/dev/null || \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-torch python3-torchvision python3-onnx >/dev/null
	/usr/bin/python3 $(MAKE_MODELS) $(BENCH_MODELS) 2>&1 | grep -v -i warn || true
	@/usr/bin/python3 -c "import torchvision" 2>/dev/null || echo "note: python3-torchvision missing: mobilenet_v2 and resnet18 skipped"
	@touch $@
bench-peers: $(PKG_WASM)/hologram-simd128.wasm $(PKG_WASM)/hologram-simd128-threads.wasm bench-models
	$(NODE) $(NODE_FLAGS) bench/peers.mjs $(BENCH_MODELS) $(PEERS_ARGS)

# The same race inside headless Chromium (cross-origin isolated page, ORT-web's
# own dist files), 1 and 2 threads: the issue's second table.
.PHONY: bench-peers-browser
bench-peers-browser: $(PKG_WASM)/hologram-simd128.wasm $(PKG_WASM)/hologram-simd128-threads.wasm bench-models
	$(NODE) bench/peers-browser.mjs $(BENCH_MODELS) $(PEERS_ARGS)

# SIMD128 peak vs hologram's 512^3 MatMulPacked (bench/gemm-peak.mjs).
.PHONY: bench-gemm
bench-gemm: $(PKG_WASM)/hologram-simd128.wasm $(W)/gemm-peak-simd128.wasm $(W)/gemm-peak-relaxed.wasm bench-models
	$(NODE) --experimental-wasm-relaxed-simd bench/gemm-peak.mjs $(BENCH_MODELS)/matmul_512.onnx $(GEMM_ARGS)

# Generation on the trained char-LM (issue 11): hologram vs onnxruntime-web
# (1 thread), prompt repeat vs cold prefill, speculative decoding with the draft.
# GEN_ARGS e.g. "--tokens 64 --k 4".
.PHONY: bench-generate
bench-generate: $(PKG_WASM)/hologram-simd128.wasm
	$(NODE) $(NODE_FLAGS) bench/generate.mjs $(GEN_ARGS)
include tests/wasm-tests.mk
include baremetal.mk
include bench/zoo/zoo.mk
