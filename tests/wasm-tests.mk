# The C suites (tests/c/test_*.c) built for wasm32-wasi, so every C test also
# runs the SIMD kernels (native builds never define __wasm_simd128__). Two
# variants: simd128 (the flags of build/wasm/holo.wasm) and relaxed
# (+ -mrelaxed-simd, like hologram-relaxed.wasm). cmocka is not packaged for
# wasm32: tests/c/util/cmocka-wasi.h stands in for it (docs/decisions.md).
# Run them with tools/test-wasm-c.sh (node:wasi via tools/wasi-test-run.mjs).
#
#   make -j2 wasm-tests      build both variants of every suite
#   build/wasm-test/<variant>/<suite>.wasm
WT := build/wasm-test
WT_VARIANTS := simd128 relaxed
WT_CFLAGS_simd128 := $(WASI_CFLAGS)
WT_CFLAGS_relaxed := $(WASI_CFLAGS) -mrelaxed-simd

# Suites that cannot run under WASI at all, with the reason:
#   test_parallel  the pthreads pool of feature `parallel` (wasm32-wasi
#                  preview 1 has no threads; the threaded wasm module is
#                  tested by tests/browser/threads.test.mjs)
#   test_determinism (relaxed only)  all three tests assert the scalar byte
#                  class (identity, golden labels and contents), which the
#                  relaxed build by design does not belong to (see below)
WT_EXCLUDE := test_parallel
WT_EXCLUDE_relaxed := test_determinism

# Single tests that cannot run under WASI (reported as SKIPPED, never as
# passed; cmocka-wasi.h fails a test that calls one of these functions
# without being listed, and fails the suite if a listed name does not exist):
#   store_path_tricks, file_store_corrupt_and_path_attack,
#   prompt_cache_file_store   mkstemp/mkdtemp and system("rm -rf"/"dd"):
#                             WASI has neither temp-file creation nor processes
#   identical_across_processes   fork() and pipe()
#   versus_node                  popen("node ...")
WT_SKIP_test_bad_inputs := store_path_tricks
WT_SKIP_test_determinism := identical_across_processes
WT_SKIP_test_gen_decode := prompt_cache_file_store
WT_SKIP_test_session := file_store_corrupt_and_path_attack
WT_SKIP_test_sha256 := versus_node
# Relaxed variant only: tests that assert the scalar byte class (backend
# identity "hologram-cpu/scalar/1", golden labels and contents), which the
# relaxed build by design does not belong to (its GEMM may fuse; its own
# identities, docs/kernels.md). The simd128 variant runs them.
WT_SKIP_relaxed_test_kernels_layout := test_registry

WT_SUITES := $(basename $(notdir $(TEST_SRC)))
$(foreach v,$(WT_VARIANTS),$(eval WT_SUITES_$(v) := $(filter-out $(WT_EXCLUDE) $(WT_EXCLUDE_$(v)),$(WT_SUITES))))
WT_ALL := $(foreach v,$(WT_VARIANTS),$(addprefix $(v)/,$(WT_SUITES_$(v))))
# tests/c/util/wasi/: <cmocka.h>, <setjmp.h>, <sys/wait.h> and a serial
# stand-in for the pthreads pool (hologram/parallel.h), wasi builds only.
WT_LIB_SRC := $(CORE_SRC) $(STD_SRC) $(TEST_UTIL) tests/c/util/wasi/pool-serial.c
WT_INC := -Itests/c/util/wasi/include -Itests/c -Iruntime
WT_LDFLAGS := -Wl,-z,stack-size=8388608 -lm

.PHONY: wasm-tests wasm-tests-list
wasm-tests: $(addprefix $(WT)/,$(addsuffix .wasm,$(WT_ALL)))
# variant/suite pairs, for tools/test-wasm-c.sh
wasm-tests-list:
	@echo $(WT_ALL)

# $(call wt_variant,VARIANT): the Makefile's c_rule plus the suite's skip list
define wt_variant
$(call flags_stamp,$(WT)/$(1)/obj/compile.flags,$(CLANG) $(WT_CFLAGS_$(1)) $(WT_INC) $(DEPFLAGS))
$(WT)/$(1)/obj/%.o: %.c $(WT)/$(1)/obj/compile.flags
	@mkdir -p $$(@D)
	$(CLANG) $$(WT_CFLAGS_$(1)) $$(WT_SKIP_FLAG) $(WT_INC) $(DEPFLAGS) -c $$< -o $$@
$(WT)/$(1)/%.wasm: $(WT)/$(1)/obj/tests/c/%.o $(patsubst %.c,$(WT)/$(1)/obj/%.o,$(WT_LIB_SRC))
	$(CLANG) $(WT_CFLAGS_$(1)) $$(filter %.o,$$^) $(WT_LDFLAGS) -o $$@
-include $$(call deps_of,$$(call obj_of,$(WT)/$(1),$$(WT_LIB_SRC) $$(TEST_SRC)))
endef
$(foreach v,$(WT_VARIANTS),$(eval $(call wt_variant,$(v))))
# test_heap also links the module's allocator (bindings-js/src-c/heap.c).
$(foreach v,$(WT_VARIANTS),$(eval $(WT)/$(v)/test_heap.wasm: $(WT)/$(v)/obj/bindings-js/src-c/heap.o))

# A suite's skip list is compiled into its main TU (rebuilt when it changes).
wt_comma := ,
wt_space := $(subst ,, )
wt_skip = $(subst $(wt_space),$(wt_comma),$(strip $(WT_SKIP_$(2)) $(WT_SKIP_$(1)_$(2))))
define wt_suite_obj
$(WT)/$(1)/obj/tests/c/$(2).o: WT_SKIP_FLAG := -DHOLO_CM_SKIP='"$(call wt_skip,$(1),$(2))"'
$(WT)/$(1)/obj/tests/c/$(2).o: tests/wasm-tests.mk
endef
$(foreach v,$(WT_VARIANTS),$(foreach s,$(WT_SUITES_$(v)),$(eval $(call wt_suite_obj,$(v),$(s)))))
# Objects are reached only through the pattern rules above, so make would
# delete them as intermediates after each link (and recompile all of them
# for the next): keep them.
.SECONDARY: $(foreach v,$(WT_VARIANTS),$(patsubst %.c,$(WT)/$(v)/obj/%.o,$(WT_LIB_SRC) $(TEST_SRC)))
