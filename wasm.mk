# The freestanding core module and the WASI program.
WASM_CFLAGS := --target=wasm32 -std=c11 $(WARN) -O3 -ffreestanding -fno-builtin -nostdlib \
               -msimd128 -mbulk-memory -mnontrapping-fptoint -msign-ext -fno-math-errno -ffp-contract=off $(INC)
CORE_EXPORTS := holo_session_input_count holo_session_output_count holo_session_kernel_count \
  holo_session_resident_bytes holo_session_resident_count holo_session_content_store_len \
  holo_session_input_info holo_session_output_info holo_session_counters \
  holo_session_archive_label holo_session_verify_constants holo_status_name \
  holo_session_memo_key
WASM_GLUE := $(sort $(wildcard bindings-js/src-c/*.c))
PKG_WASM := bindings-js/dist

wasm: $(PKG_WASM)/hologram-simd128.wasm $(PKG_WASM)/hologram-scalar.wasm $(PKG_WASM)/hologram-relaxed.wasm \
      $(PKG_WASM)/hologram-simd128-threads.wasm $(W)/holo.wasm $(PKG_WASM)/wasi/holo.wasm

# The core module, in four kernel variants (docs/kernels.md), each
# build/wasm/core-NAME/obj/ -> build/wasm/core-NAME.wasm -> (wasm-opt)
# bindings-js/dist/hologram-NAME.wasm:
#  simd128          the default;
#  scalar           no SIMD: the scalar kernels, for engines without SIMD
#                   and as the byte reference tests/js compares against;
#  relaxed          relaxed SIMD (f32x4.relaxed_madd in the GEMM core; its
#                   own backend identity). Debian's binaryen cannot parse
#                   relaxed SIMD: use node_modules' wasm-opt. Node 20 runs
#                   it with --experimental-wasm-relaxed-simd;
#  simd128-threads  feature `parallel` (docs/decisions.md 14): the simd128
#                   core + bindings-js/src-c/threads.c's pool, on an imported
#                   shared memory (a shared memory must declare a maximum:
#                   THREADS_MAX_MEMORY bounds model + intermediates). Each
#                   worker instance gets its own stack by setting the
#                   exported __stack_pointer. Same kernels, same split rule,
#                   same bytes and backend identity as simd128.
THREADS_MAX_MEMORY ?= 2147483648
CORE_LD      := --no-entry --export-memory=memory --stack-first -z stack-size=1048576
CORE_LD_THREADS := --no-entry --import-memory --shared-memory --max-memory=$(THREADS_MAX_MEMORY) --initial-memory=2097152 \
  --stack-first -z stack-size=1048576 --export=__stack_pointer
OPT_FEATURES := --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
# The cores link --stack-first: addresses below 1 KiB are the last KiB of a
# 1 MiB stack (reached only at the edge of overflow, which traps either way),
# never data or heap (worker stacks are heap blocks). wasm-opt may then fold
# a constant add into a load/store offset (x + c wraps only for a target
# below c < 1 KiB): 1.1 KB of gzip off each core, no change in any result
# (docs/decisions.md 98).
CORE_OPT_LOWMEM := --low-memory-unused
# Linked in path order (bindings-js/src-c/ first), the order the objects had
# when the link took a folder's *.o.
CORE_WASM_SRC := $(sort $(CORE_SRC) $(WASM_GLUE))

# Size (issue 20: the core module <= 200 KiB gzip). -O3 unrolls and
# vectorizes every loop; in the code that never carries a model's time that
# is ~30 KB of gzip for nothing. The files below are the hot ones (the SIMD
# microkernels, the f32 and int8 scalar microkernels the SIMD builds still
# call, the GEMM/conv/elementwise/normalization/layout operators, math/,
# hashing, the run loop): they keep -O3. Every other core file (plan-time
# checks, rare dtypes and ops, archive parsing, loading, generation's
# bookkeeping, the exports) is compiled -Oz: the optimization level never
# changes a result (no -ffast-math, -ffp-contract=off), so the bytes stay
# the same (docs/decisions.md 71). A file that becomes hot
# belongs here; `make check-core-size` bounds the gzip size.
K := kernels-wasm-simd
MK := $(K)/microkernels
OP := $(K)/operators
CORE_HOT := $(MK)/%-simd128.c $(MK)/%-relaxedsimd.c $(MK)/avgpool2d-f32-scalar.c \
  $(MK)/dwconv2d-f32-rows-scalar.c $(MK)/gavgpool-f32-scalar.c $(MK)/gemm-f32-scalar.c \
  $(MK)/im2col-f32-scalar.c $(MK)/instancenorm-f32-scalar.c $(MK)/layernorm-f32-scalar.c \
  $(MK)/layernormsteps-f32-scalar.c $(MK)/logsoftmax-f32-scalar.c $(MK)/maxpool2d-f32-scalar.c \
  $(MK)/packa-f32-scalar.c $(MK)/packb-f32-scalar.c $(MK)/reduce-f32-runs-scalar.c \
  $(MK)/reduce-f32-f64-scalar.c $(MK)/resize2d-f32-scalar.c $(MK)/rnncell-f32-scalar.c \
  $(MK)/softmax-f32-scalar.c $(MK)/transpose-any-scalar.c $(MK)/vbinary-f32-scalar.c \
  $(MK)/verf-f32-scalar.c $(MK)/vprelu-f32-scalar.c $(MK)/vrelu-f32-scalar.c \
  $(MK)/vsigmoid-f32-scalar.c $(MK)/vtanh-f32-scalar.c $(MK)/vunary-f32-scalar.c \
  $(MK)/vclip-f32-scalar.c $(MK)/vminmax-f32-scalar.c $(MK)/vwhere-any-scalar.c \
  $(MK)/cast-numeric-scalar.c $(MK)/vcvt-f16-bf16-scalar.c $(MK)/igemm-i8-4x8-scalar.c $(MK)/ipack-i8-scalar.c \
  $(MK)/iim2col-i8-scalar.c $(MK)/requant-i32-scalar.c $(MK)/idwpad-i8-scalar.c \
  $(MK)/idwconv2d-i16-row-scalar.c $(MK)/vquantize-f32-q8-scalar.c $(OP)/conv2d.c $(OP)/matmul.c \
  $(OP)/gemm-tasks.c $(OP)/gemm-epilogue.c $(OP)/packed-weights.c $(OP)/elementwise.c $(OP)/binary.c \
  $(OP)/unary.c $(OP)/softmax.c $(OP)/layernorm.c $(OP)/instancenorm.c $(OP)/batchnorm.c \
  $(OP)/pool2d.c $(OP)/concat.c $(OP)/transpose.c $(OP)/split.c $(OP)/slice.c $(OP)/gather.c \
  $(OP)/where.c $(OP)/expand.c $(OP)/clip.c $(OP)/prelu.c $(OP)/cast.c $(OP)/reduce.c \
  $(OP)/resize-planes.c $(OP)/resize-bilinear.c $(OP)/resize.c \
  $(OP)/convtranspose.c $(OP)/pad.c $(OP)/tile.c $(OP)/depthspace.c $(OP)/minmax.c \
  $(OP)/recurrent-run.c $(OP)/conv-integer.c \
  $(OP)/matmul-integer.c $(OP)/qlinear.c $(OP)/qlinear-quant.c $(OP)/argminmax.c \
  $(MK)/argminmax-f32-scalar.c $(K)/common/bcast.c $(K)/common/elements.c \
  $(K)/common/window2d.c $(K)/math/% runtime/sha256.c runtime/sha256-lanes.c runtime/label.c \
  runtime/label-tree.c runtime/mem.c runtime/mem-store.c runtime/session-walk.c \
  runtime/session-loop.c runtime/arena.c runtime/session-labels.c \
  bindings-js/src-c/libc-shim.c bindings-js/src-c/heap.c generation/gen-mathf.c generation/sampler.c
CORE_COLD_OPT := -Oz
CORE_COLD_SRC := $(filter-out $(CORE_HOT),$(CORE_WASM_SRC))
# Hot in the scalar core only: under SIMD these scalar references run just a
# tail (vquantize, < 16 elements) or a stride no SIMD kernel takes
# (idwconv2d), so the SIMD cores compile them -Oz too (decision 80: the
# relaxed core was 137 B over the bound); the scalar f16/bf16 conversions
# likewise run only the SIMD kernel's tail of < 8 there. Min/Max and Clip
# keep only their f32 files hot (vminmax-f32, vclip-f32); the other dtypes'
# numeric kernels, and generation/logprobs.c (once per token, only when
# log-probabilities are asked for), are cold: 2.1 KB of gzip that made room
# for the SIMD half casts. The scalar Resize row runs only the odd last
# output of a row under SIMD (resize2d-f32-simd128.c does 2 a step): cold
# there, room for im2col's one-row panels (issue 40 item 5).
# session-inputs.c, session-outputs.c and memo.c run once per execution,
# not per node (the input hashing they call is in sha256*.c, label*.c), and
# session-weights.c's per-node calls return at once unless constants are
# read from a source (whose cost is the read and its SHA-256): -Oz there
# made room for the anonymous values of session-anon.c (the relaxed core
# was 409 B over the bound with them).
CORE_SIMD_COLD := $(MK)/idwconv2d-i16-row-scalar.c $(MK)/vquantize-f32-q8-scalar.c $(MK)/vcvt-f16-bf16-scalar.c \
  $(MK)/resize2d-f32-scalar.c

# $(call core_variant,NAME,CFLAGS,LINK FLAGS,WASM-OPT FLAGS[,MORE COLD FILES])
define core_variant
$(call c_rule,$(W)/core-$(1),,$(CLANG),$(2) -Ibindings-js/src-c)
CORE_OBJ_$(1) := $$(call obj_of,$(W)/core-$(1),$$(CORE_WASM_SRC))
$(call flags_stamp,$(W)/core-$(1)/link.flags,$(WASMLD) $(3) $(WASMOPT) $(CORE_OPT_LOWMEM) $(4))
$(W)/core-$(1).wasm: $$(CORE_OBJ_$(1)) $(W)/core-$(1)/link.flags
	$(WASMLD) $(3) $(addprefix --export=,$(CORE_EXPORTS)) $$(filter %.o,$$^) -o $$@
$(PKG_WASM)/hologram-$(1).wasm: $(W)/core-$(1).wasm | $(PKG_WASM)/
	$(WASMOPT) -O3 $(CORE_OPT_LOWMEM) $(4) $$< -o $$@
-include $$(call deps_of,$$(CORE_OBJ_$(1)))
# the cold files at $(CORE_COLD_OPT) (an explicit rule: it wins over c_rule's
# pattern); every object rebuilds when CORE_HOT or the level changes (the
# stamp holds the list's patterns: a new cold file does not rebuild the rest)
$(call flags_stamp,$(W)/core-$(1)/obj/cold.flags,$(CORE_COLD_OPT) $(CORE_HOT) $(5))
$$(CORE_OBJ_$(1)): $(W)/core-$(1)/obj/cold.flags
$$(call obj_of,$(W)/core-$(1),$(CORE_COLD_SRC) $(5)): $(W)/core-$(1)/obj/%.o: %.c $(W)/core-$(1)/obj/compile.flags
	@mkdir -p $$(@D)
	$(CLANG) $(2) -Ibindings-js/src-c $(CORE_COLD_OPT) $(DEPFLAGS) -c $$< -o $$@
endef
$(eval $(call core_variant,simd128,$(WASM_CFLAGS),$(CORE_LD),--enable-simd $(OPT_FEATURES),$(CORE_SIMD_COLD)))
$(eval $(call core_variant,scalar,$(filter-out -msimd128,$(WASM_CFLAGS)) -mno-simd128,$(CORE_LD),$(OPT_FEATURES)))
$(eval $(call core_variant,relaxed,$(WASM_CFLAGS) -mrelaxed-simd,$(CORE_LD),--enable-simd --enable-relaxed-simd $(OPT_FEATURES),$(CORE_SIMD_COLD)))
$(eval $(call core_variant,simd128-threads,$(WASM_CFLAGS) -matomics,$(CORE_LD_THREADS),\
  --enable-simd --enable-threads $(OPT_FEATURES) --enable-mutable-globals,$(CORE_SIMD_COLD)))

# The shipped core variants' gzip -9 size against the issue's bound (also a
# suite of make test, tools/test-all.sh).
.PHONY: check-core-size
check-core-size: $(foreach v,simd128 scalar relaxed simd128-threads,$(PKG_WASM)/hologram-$(v).wasm)
	$(NODE) tools/check-core-size.mjs

# WASI program: the same core plus wasi/ (std) against wasi-libc.
WASI_CFLAGS := --target=wasm32-wasi --sysroot=/usr -std=c11 $(WARN) -O3 -msimd128 -fno-math-errno -ffp-contract=off \
               -D_POSIX_C_SOURCE=200809L $(INC) -Iwasi
WASI_LD     := -Wl,-z,stack-size=1048576
$(eval $(call c_rule,$(W)/wasi,,$(CLANG),$(WASI_CFLAGS)))
WASI_OBJ := $(call obj_of,$(W)/wasi,$(CORE_SRC) $(STD_SRC) $(CLI_SRC))
$(call flags_stamp,$(W)/wasi/link.flags,$(CLANG) $(WASI_CFLAGS) $(WASI_LD))
$(W)/holo-raw.wasm: $(WASI_OBJ) $(W)/wasi/link.flags
	$(CLANG) $(WASI_CFLAGS) $(filter %.o,$^) $(WASI_LD) -o $@
$(W)/holo.wasm: $(W)/holo-raw.wasm
	$(WASMOPT) -O3 --enable-simd $(OPT_FEATURES) $< -o $@
# ... shipped in the npm package: its `holo` bin runs it (bindings-js/bin/wasi-runner.js);
# not in dist/ itself, where every *.wasm is a core module (the rm: where it was first put)
$(PKG_WASM)/wasi/holo.wasm: $(W)/holo.wasm | $(PKG_WASM)/wasi/
	rm -f $(PKG_WASM)/holo.wasm && cp $< $@
-include $(call deps_of,$(WASI_OBJ))

# GEMM peak probe (bench/gemm-peak.c; issue 5): a tiny freestanding module per
# flavour, no runtime. `make bench-gemm` prints peak GFLOP/s and gemm_efficiency.
$(W)/gemm-peak-simd128.wasm: bench/gemm-peak.c | $(W)/
	$(CLANG) --target=wasm32 -O3 -ffreestanding -nostdlib $(WARN) -msimd128 -c $< -o $(W)/gemm-peak-simd128.o
	$(WASMLD) --no-entry $(W)/gemm-peak-simd128.o -o $@
$(W)/gemm-peak-relaxed.wasm: bench/gemm-peak.c | $(W)/
	$(CLANG) --target=wasm32 -O3 -ffreestanding -nostdlib $(WARN) -msimd128 -mrelaxed-simd -c $< -o $(W)/gemm-peak-relaxed.o
	$(WASMLD) --no-entry $(W)/gemm-peak-relaxed.o -o $@
