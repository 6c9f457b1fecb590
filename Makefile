# hologram-exec — one Makefile for every artifact. `make help` lists targets.
SHELL := /bin/bash
.DEFAULT_GOAL := build

CC       ?= gcc
CLANG    ?= clang-19
WASMLD   ?= wasm-ld-19
WASMOPT  ?= node_modules/.bin/wasm-opt
NODE     ?= node

INC      := -Iruntime/include -Ikernels-wasm-simd/include -Igeneration/include
WARN     := -Wall -Wextra -Werror
CFLAGS_N := -std=c11 $(WARN) -O2 -g -fno-math-errno -ffp-contract=off $(INC)
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

RUNTIME_SRC := $(sort $(wildcard runtime/*.c))
KERNEL_SRC  := $(sort $(wildcard kernels-wasm-simd/*.c kernels-wasm-simd/ops/*.c))
CORE_SRC    := $(RUNTIME_SRC) $(KERNEL_SRC) $(sort $(wildcard generation/*.c))
STD_SRC     := $(sort $(wildcard wasi/std-*.c))
CLI_SRC     := $(sort $(wildcard wasi/cli-*.c))
TEST_SRC    := $(sort $(wildcard tests/c/test_*.c))
TEST_UTIL   := $(sort $(wildcard tests/c/util/*.c))
HDRS        := $(wildcard runtime/include/hologram/*.h generation/include/hologram/*.h kernels-wasm-simd/include/hologram/*.h kernels-wasm-simd/*.h runtime/*.h tests/c/util/*.h wasi/*.h)

N := build/native
A := build/asan
W := build/wasm

.PHONY: build native wasm setup run test test-c test-js clean help format

build: native wasm

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
	@echo "make setup | build | run | test | clean | format"

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
