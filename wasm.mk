# The freestanding core module and the WASI program.
WASM_CFLAGS := --target=wasm32 -std=c11 $(WARN) -O3 -ffreestanding -fno-builtin -nostdlib \
               -msimd128 -mbulk-memory -mnontrapping-fptoint -msign-ext -fno-math-errno -ffp-contract=off $(INC)
CORE_EXPORTS := holo_session_input_count holo_session_output_count holo_session_kernel_count \
  holo_session_resident_bytes holo_session_resident_count holo_session_content_store_len \
  holo_session_input_info holo_session_output_info holo_session_counters \
  holo_session_archive_label holo_session_verify_constants holo_status_name
WASM_GLUE := $(sort $(wildcard bindings-js/src-c/*.c))
PKG_WASM := bindings-js/dist

wasm: $(PKG_WASM)/hologram-simd128.wasm $(PKG_WASM)/hologram-scalar.wasm $(PKG_WASM)/hologram-relaxed.wasm \
      $(PKG_WASM)/hologram-simd128-threads.wasm $(W)/holo.wasm $(PKG_WASM)/wasi/holo.wasm

$(W)/core-simd128.wasm: $(CORE_SRC) $(WASM_GLUE) $(HDRS) | $(W)/
	@rm -rf $(W)/obj-core && mkdir -p $(W)/obj-core
	@for s in $(CORE_SRC) $(WASM_GLUE); do $(CLANG) $(WASM_CFLAGS) -Ibindings-js/src-c -c $$s -o $(W)/obj-core/$${s//\//_}.o || exit 1; done
	$(WASMLD) --no-entry --export-memory=memory --stack-first -z stack-size=1048576 \
	  $(addprefix --export=,$(CORE_EXPORTS)) $(W)/obj-core/*.o -o $@

$(PKG_WASM)/hologram-simd128.wasm: $(W)/core-simd128.wasm | $(PKG_WASM)/
	$(WASMOPT) -O3 --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext $< -o $@

# Kernel variant modules of the same core (docs/kernels.md):
#  hologram-scalar.wasm  no SIMD: the scalar kernels, for engines without SIMD
#                        and as the byte reference tests/js compares against;
#  hologram-relaxed.wasm relaxed SIMD (f32x4.relaxed_madd in the GEMM core;
#                        its own backend identity). Debian's binaryen cannot
#                        parse relaxed SIMD: use node_modules' wasm-opt.
#                        Node 20 runs it with --experimental-wasm-relaxed-simd.
WASM_CFLAGS_SCALAR  := $(filter-out -msimd128,$(WASM_CFLAGS)) -mno-simd128
WASM_CFLAGS_RELAXED := $(WASM_CFLAGS) -mrelaxed-simd

# $(call core_variant,NAME,CFLAGS)
define core_variant
$(W)/core-$(1).wasm: $(CORE_SRC) $(WASM_GLUE) $(HDRS) | $(W)/
	@rm -rf $(W)/obj-$(1) && mkdir -p $(W)/obj-$(1)
	@for s in $(CORE_SRC) $(WASM_GLUE); do $(CLANG) $(2) -Ibindings-js/src-c -c $$$$s -o $(W)/obj-$(1)/$$$${s//\//_}.o || exit 1; done
	$(WASMLD) --no-entry --export-memory=memory --stack-first -z stack-size=1048576 \
	  $(addprefix --export=,$(CORE_EXPORTS)) $(W)/obj-$(1)/*.o -o $$@
endef
$(eval $(call core_variant,scalar,$(WASM_CFLAGS_SCALAR)))
$(eval $(call core_variant,relaxed,$(WASM_CFLAGS_RELAXED)))

$(PKG_WASM)/hologram-scalar.wasm: $(W)/core-scalar.wasm | $(PKG_WASM)/
	$(WASMOPT) -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext $< -o $@
$(PKG_WASM)/hologram-relaxed.wasm: $(W)/core-relaxed.wasm | $(PKG_WASM)/
	$(WASMOPT) -O3 --enable-simd --enable-relaxed-simd --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext $< -o $@

# hologram-simd128-threads.wasm (feature `parallel`, docs/decisions.md 14):
# the simd128 core + bindings-js/src-c/threads.c's pool, on an imported
# shared memory (a shared memory must declare a maximum: THREADS_MAX_MEMORY
# bounds model + intermediates). Each worker instance gets its own stack by
# setting the exported __stack_pointer. Same kernels, same split rule, same
# bytes and backend identity as hologram-simd128.wasm.
THREADS_MAX_MEMORY ?= 2147483648
WASM_CFLAGS_THREADS := $(WASM_CFLAGS) -matomics
$(W)/core-simd128-threads.wasm: $(CORE_SRC) $(WASM_GLUE) $(HDRS) | $(W)/
	@rm -rf $(W)/obj-threads && mkdir -p $(W)/obj-threads
	@for s in $(CORE_SRC) $(WASM_GLUE); do $(CLANG) $(WASM_CFLAGS_THREADS) -Ibindings-js/src-c -c $$s -o $(W)/obj-threads/$${s//\//_}.o || exit 1; done
	$(WASMLD) --no-entry --import-memory --shared-memory --max-memory=$(THREADS_MAX_MEMORY) --initial-memory=2097152 \
	  --stack-first -z stack-size=1048576 --export=__stack_pointer \
	  $(addprefix --export=,$(CORE_EXPORTS)) $(W)/obj-threads/*.o -o $@
$(PKG_WASM)/hologram-simd128-threads.wasm: $(W)/core-simd128-threads.wasm | $(PKG_WASM)/
	$(WASMOPT) -O3 --enable-simd --enable-threads --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals $< -o $@

# WASI program: the same core plus wasi/ (std) against wasi-libc.
WASI_CFLAGS := --target=wasm32-wasi --sysroot=/usr -std=c11 $(WARN) -O3 -msimd128 -fno-math-errno -ffp-contract=off \
               -D_POSIX_C_SOURCE=200809L $(INC) -Iwasi
$(W)/holo-raw.wasm: $(CORE_SRC) $(STD_SRC) $(CLI_SRC) $(HDRS) | $(W)/
	$(CLANG) $(WASI_CFLAGS) $(CORE_SRC) $(STD_SRC) $(CLI_SRC) -Wl,-z,stack-size=1048576 -o $@
$(W)/holo.wasm: $(W)/holo-raw.wasm
	$(WASMOPT) -O3 --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext $< -o $@
# ... shipped in the npm package: its `holo` bin runs it (bindings-js/bin/wasi-runner.js);
# not in dist/ itself, where every *.wasm is a core module (the rm: where it was first put)
$(PKG_WASM)/wasi/holo.wasm: $(W)/holo.wasm | $(PKG_WASM)/wasi/
	rm -f $(PKG_WASM)/holo.wasm && cp $< $@

# GEMM peak probe (bench/gemm-peak.c; issue 5): a tiny freestanding module per
# flavour, no runtime. `make bench-gemm` prints peak GFLOP/s and gemm_efficiency.
$(W)/gemm-peak-simd128.wasm: bench/gemm-peak.c | $(W)/
	$(CLANG) --target=wasm32 -O3 -ffreestanding -nostdlib $(WARN) -msimd128 -c $< -o $(W)/gemm-peak-simd128.o
	$(WASMLD) --no-entry $(W)/gemm-peak-simd128.o -o $@
$(W)/gemm-peak-relaxed.wasm: bench/gemm-peak.c | $(W)/
	$(CLANG) --target=wasm32 -O3 -ffreestanding -nostdlib $(WARN) -msimd128 -mrelaxed-simd -c $< -o $(W)/gemm-peak-relaxed.o
	$(WASMLD) --no-entry $(W)/gemm-peak-relaxed.o -o $@
