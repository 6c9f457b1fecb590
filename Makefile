# hologram-exec — one Makefile for every artifact. `make help` lists targets.
SHELL := /bin/bash
.DEFAULT_GOAL := build

# (make's own default CC is cc: gcc unless the environment says otherwise)
ifeq ($(origin CC),default)
CC       := gcc
endif
CLANG    ?= clang-19
WASMLD   ?= wasm-ld-19
WASMOPT  ?= node_modules/.bin/wasm-opt
NODE     ?= node

INC      := -Iruntime/include -Ikernels-wasm-simd/include -Igeneration/include -Ikernels-wasm-simd
WARN     := -Wall -Wextra -Werror
CFLAGS_N := -std=c11 $(WARN) -O2 -g -fno-math-errno -ffp-contract=off $(INC)
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# Sources are discovered, so a new file or folder needs no edit here.
# $(call find_files,DIR,SUFFIX) every file under DIR (any depth) ending in SUFFIX
find_files = $(foreach f,$(wildcard $(1)/*),$(filter %$(2),$(f)) $(call find_files,$(f),$(2)))
RUNTIME_SRC := $(sort $(call find_files,runtime,.c))
KERNEL_SRC  := $(sort $(call find_files,kernels-wasm-simd,.c))
CORE_SRC    := $(RUNTIME_SRC) $(KERNEL_SRC) $(sort $(call find_files,generation,.c))
STD_SRC     := $(sort $(wildcard wasi/std-*.c))
CLI_SRC     := $(sort $(wildcard wasi/cli-*.c))
TEST_SRC    := $(sort $(wildcard tests/c/test_*.c))
TEST_UTIL   := $(sort $(wildcard tests/c/util/*.c))
# (for `make format` only: every object's real header dependencies are the
# compiler's, below)
HDRS        := $(sort $(foreach d,runtime kernels-wasm-simd generation,$(call find_files,$(d),.h)) $(wildcard tests/c/util/*.h wasi/*.h))

N := build/native
A := build/asan
P := build/plain
W := build/wasm

# Every C build compiles one object per source, build/<variant>/obj/<path>.o,
# by a pattern rule from c_rule; the compiler lists each object's headers in
# <path>.d (-MMD -MP), which the variant includes. So touching a .c rebuilds
# its objects and the links that use them, touching a header rebuilds its
# dependants, and nothing else runs (tools/check-incremental.sh).
DEPFLAGS := -MMD -MP
# $(call obj_of,DIR,SOURCES) the objects of SOURCES in variant DIR
obj_of = $(patsubst %.c,$(1)/obj/%.o,$(2))
# $(call deps_of,OBJECTS) their dependency files that exist
deps_of = $(wildcard $(patsubst %.o,%.d,$(1)))
# $(call flags_stamp,FILE,TEXT): FILE holds TEXT, rewritten (a new mtime)
# only when TEXT changed. Objects depend on their rule's stamp, so a changed
# compiler or flag rebuilds them; it is checked while the makefile is read,
# so `make -q` and `make -n` still see an up-to-date tree as up to date.
# ($(file) reads it without a shell, so make -q stays fast on a loaded machine;
# stripped: make 4.3 sometimes keeps the file's final newline)
same_text = $(and $(findstring x$(1)x,x$(2)x),$(findstring x$(2)x,x$(1)x))
flags_stamp = $(if $(call same_text,$(strip $(file <$(1))),$(strip $(2))),,$(shell mkdir -p $(dir $(1)))$(file >$(1),$(strip $(2))))
# (a stamp removed while make runs, e.g. `make clean build`: rebuild)
%.flags: ;
# $(call c_rule,DIR,SUBDIR,COMPILER,FLAGS): DIR/obj/SUBDIR%.o from SUBDIR%.c.
# A SUBDIR rule overrides the variant's "" rule for that folder (make picks
# the pattern with the shortest stem).
define c_rule
$(call flags_stamp,$(1)/obj/$(2)compile.flags,$(3) $(4) $(DEPFLAGS))
$(1)/obj/$(2)%.o: $(2)%.c $(1)/obj/$(2)compile.flags
	@mkdir -p $$(@D)
	$(3) $(4) $(DEPFLAGS) -c $$< -o $$@
endef

.PHONY: build native wasm setup run test check test-c test-js clean help format

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

# Native (gcc): the core as libholo.a, the CLI on top. wasi/ and bench/ are
# hosted code (POSIX, their own headers).
HOST_N := -D_POSIX_C_SOURCE=200809L -Iwasi
$(eval $(call c_rule,$(N),,$(CC),$(CFLAGS_N)))
$(eval $(call c_rule,$(N),wasi/,$(CC),$(CFLAGS_N) $(HOST_N)))
$(eval $(call c_rule,$(N),bench/,$(CC),$(CFLAGS_N) $(HOST_N) -Iruntime))
N_CORE_OBJ := $(call obj_of,$(N),$(CORE_SRC))
N_HOST_OBJ := $(call obj_of,$(N),$(CLI_SRC) $(STD_SRC))
-include $(call deps_of,$(N_CORE_OBJ) $(N_HOST_OBJ) $(N)/obj/bench/bench-memo.o)

native: $(N)/libholo.a $(N)/holo
$(N)/libholo.a: $(N_CORE_OBJ)
	@rm -f $@; ar rcs $@ $^
$(N)/holo: $(N_HOST_OBJ) $(N)/libholo.a
	$(CC) $^ -lm -o $@

# Sanitized build for the C test suite (build/asan/test_NAME), and an
# unsanitized one for valgrind (tools/valgrind.sh; tests without -Werror:
# cmocka's assert_* look returnable to gcc without sanitizers, so
# -Wmaybe-uninitialized can fire in test code).
HOST_T := -D_POSIX_C_SOURCE=200809L -Itests/c -Iwasi -Iruntime
$(eval $(call c_rule,$(A),,$(CC),$(CFLAGS_N) $(SAN)))
$(eval $(call c_rule,$(A),tests/,$(CC),$(CFLAGS_N) $(SAN) $(HOST_T)))
$(eval $(call c_rule,$(A),wasi/,$(CC),$(CFLAGS_N) $(SAN) $(HOST_T)))
$(eval $(call c_rule,$(P),,$(CC),$(CFLAGS_N)))
$(eval $(call c_rule,$(P),tests/,$(CC),$(filter-out -Werror,$(CFLAGS_N)) $(HOST_T)))
$(eval $(call c_rule,$(P),wasi/,$(CC),$(filter-out -Werror,$(CFLAGS_N)) $(HOST_T)))
# $(call test_variant,DIR,LINK FLAGS): DIR/libholo.a and DIR/test_NAME
define test_variant
$(1)_CORE_OBJ := $$(call obj_of,$(1),$$(CORE_SRC))
$(1)_TEST_OBJ := $$(call obj_of,$(1),$$(TEST_UTIL) $$(STD_SRC))
$(1)/libholo.a: $$($(1)_CORE_OBJ)
	@rm -f $$@; ar rcs $$@ $$^
$(1)/test_%: $(1)/obj/tests/c/test_%.o $$($(1)_TEST_OBJ) $(1)/libholo.a
	$$(CC) $(2) $$^ -lcmocka -lm -o $$@
# (the shared objects too: make 4.3 counts a file named only in a pattern
# rule's prerequisites as intermediate and deletes it, and then `make -q` calls
# every test out of date -- the test scripts build all, then ask make -q)
.SECONDARY: $$(call obj_of,$(1),$$(TEST_SRC)) $$($(1)_TEST_OBJ)
-include $$(call deps_of,$$($(1)_CORE_OBJ) $$($(1)_TEST_OBJ) $$(call obj_of,$(1),$$(TEST_SRC)))
endef
$(eval $(call test_variant,$(A),$(SAN)))
$(eval $(call test_variant,$(P),))
# test_heap also links the wasm module's allocator (not part of libholo).
$(A)/test_heap: $(A)/obj/bindings-js/src-c/heap.o
$(P)/test_heap: $(P)/obj/bindings-js/src-c/heap.o

%/:
	@mkdir -p $@

include wasm.mk
include bindings-js/layout.mk

setup:
	@bash tools/setup.sh

# (built two jobs wide, as the suites run: make test has a 20-minute budget
# on 2 cores; test-inputs are what the suites need beyond build, e.g. demo.mk's)
.PHONY: test-inputs
# Both set themselves up as `make run` does (tools/setup.sh is idempotent and
# takes about a second when nothing is missing), so a fresh clone needs no
# `make setup` first.
test:
	@bash tools/setup.sh
	@$(MAKE) -s -j$${TEST_JOBS:-2} build
	@$(MAKE) -s -j$${TEST_JOBS:-2} test-inputs
	@bash tools/test-all.sh

# The fast gate, run before anything reaches main (under 5 minutes on 2 cores
# on a built tree): tools/test-all.sh --check says which suites.
check:
	@bash tools/setup.sh
	@$(MAKE) -s -j$${TEST_JOBS:-2} build
	@$(MAKE) -s -j$${TEST_JOBS:-2} test-inputs
	@bash tools/test-all.sh --check

# The packed npm package through Vite, webpack, esbuild, Rollup and Parcel in
# Chromium (part of make test; tests/bundlers/run.mjs NAME... runs some).
.PHONY: test-bundlers
test-bundlers: build
	@node tests/bundlers/run.mjs

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
	@echo "make setup | build | run | check | test | clean | format | bench | bench-peers | bench-peers-browser | bench-overhead | bench-gemm | bench-memo | bench-generate | check-core-size | zoo | zoo-models | demo | fuzz | fuzz-regress | baremetal | baremetal-size | test-bundlers"

# Content-addressing benchmarks (issue 3): native, then wasm under Node.
.PHONY: bench-memo
$(N)/bench-memo: $(N)/obj/bench/bench-memo.o $(call obj_of,$(N),$(STD_SRC)) $(N)/libholo.a
	$(CC) $^ -lm -o $@
bench-memo: build $(N)/bench-memo
	@node bench/memo-archives.mjs build/bench
	@echo "== native"; $(N)/bench-memo build/bench
	@echo "== wasm (Node, via the npm package)"; node bench/memo.mjs build/bench

# Kernels vs onnxruntime-web (issue 5): same models, same inputs, one process.
# BENCH_ARGS e.g. "mlp_b1 --variant relaxed --ms 4000" (relaxed needs
# NODE_FLAGS=--experimental-wasm-relaxed-simd on Node 20).
.PHONY: bench
# (every bench target loads the npm package: its wasm, its layout table
# bindings-js/dist/layout.js and its copy of the converter; PKG_JS)
PKG_JS := pkg-layout pkg-compiler
bench: $(PKG_WASM)/hologram-simd128.wasm $(PKG_WASM)/hologram-scalar.wasm $(PKG_WASM)/hologram-relaxed.wasm $(PKG_JS)
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
bench-peers: $(PKG_WASM)/hologram-simd128.wasm $(PKG_WASM)/hologram-simd128-threads.wasm $(PKG_JS) bench-models
	$(NODE) $(NODE_FLAGS) bench/peers.mjs $(BENCH_MODELS) $(PEERS_ARGS)

# The same race inside headless Chromium (cross-origin isolated page, ORT-web's
# own dist files), 1 and 2 threads: the issue's second table.
.PHONY: bench-peers-browser
bench-peers-browser: $(PKG_WASM)/hologram-simd128.wasm $(PKG_WASM)/hologram-simd128-threads.wasm $(PKG_JS) bench-models
	$(NODE) bench/peers-browser.mjs $(BENCH_MODELS) $(PEERS_ARGS)

# The fixed cost of one execution (issue 40): a ladder of synthetic graphs
# (bench/overhead-models.mjs) raced against onnxruntime-web, hologram's time
# split into JS in / core / JS out, the core's split by callgrind of the
# native CLI ($(N)/holo; skipped without valgrind). OVERHEAD_ARGS e.g.
# "ew16_64 --ms 3000" or "--no-callgrind". Ends with overhead_ratio_max=R.
.PHONY: bench-overhead
bench-overhead: $(PKG_WASM)/hologram-simd128.wasm $(PKG_JS) $(N)/holo
	$(NODE) $(NODE_FLAGS) bench/overhead.mjs $(OVERHEAD_ARGS)

# SIMD128 peak vs hologram's 512^3 MatMulPacked (bench/gemm-peak.mjs), then the
# int8 row: MatMulInteger vs f32 MatMul vs onnxruntime-web, 512^3 (bench/gemm-int8.mjs).
.PHONY: bench-gemm
bench-gemm: $(PKG_WASM)/hologram-simd128.wasm $(W)/gemm-peak-simd128.wasm $(W)/gemm-peak-relaxed.wasm $(PKG_JS) bench-models
	$(NODE) --experimental-wasm-relaxed-simd bench/gemm-peak.mjs $(BENCH_MODELS)/matmul_512.onnx $(GEMM_ARGS)
	$(NODE) bench/gemm-int8.mjs

# Generation on the trained char-LM (issue 11): hologram vs onnxruntime-web
# (1 thread), prompt repeat vs cold prefill, speculative decoding with the draft.
# GEN_ARGS e.g. "--tokens 64 --k 4".
.PHONY: bench-generate
bench-generate: $(PKG_WASM)/hologram-simd128.wasm $(PKG_JS)
	$(NODE) $(NODE_FLAGS) bench/generate.mjs $(GEN_ARGS)
include tests/wasm-tests.mk
include baremetal.mk
include bench/zoo/zoo.mk
