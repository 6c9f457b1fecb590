# The converter fuzzer (issue 16; docs/fuzzing.md, "The converter"). Included from fuzz.mk.
#
#   make fuzz-convert FUZZ_SECONDS=N   Jazzer.js over compiler/convert.js for N s (nice 19);
#                                      findings in build/fuzz/crashes/convert-*
#   make fuzz-convert-regress          replay corpus + regressions + fast-check properties
#   make fuzz-convert-corpus           regenerate the seeds and minimise them (-merge)
#                                      into tests/fuzz/corpus/convert/
#
# Jazzer.js 4.0.0's prebuilt addon (inside the npm package; nothing is
# downloaded) needs glibc 2.38 / GCC 13's libstdc++ for three symbols; on
# Debian 12 a patched copy (version needs marked weak) plus a shim that
# defines them are used: tests/fuzz/convert/jazzer-compat/, decision in
# docs/decisions.md. node_modules is left as npm ci installed it.

FZC          := build/fuzz/convert
JAZZER_CXX   ?= clang++-19
JAZZER_DIR   := $(FZC)/jazzer
JAZZER_ADDON := node_modules/@jazzer.js/fuzzer/prebuilds/fuzzer-linux-x64.node
JAZZER_CLI   := node_modules/@jazzer.js/core/dist/cli.js
# -rss_limit_mb bounds the whole process (heap, wasm memories, buffers);
# --max-old-space-size the JS heap; -timeout (s) each input.
FUZZ_CONVERT_OPTS := -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
                     -dict=tests/fuzz/convert/onnx.dict
JAZZER_ENV   = HOLO_JAZZER_ADDON=$(abspath $(JAZZER_DIR))/fuzzer-linux-x64.node \
               LD_PRELOAD=$(abspath $(JAZZER_DIR))/libjazzer-compat.so \
               NODE_OPTIONS="--require $(abspath tests/fuzz/convert/jazzer-compat/preload.cjs) --max-old-space-size=512"
JAZZER_RUN   = node $(JAZZER_CLI) tests/fuzz/convert/fuzz_convert.mjs --sync --timeout=10000 \
               -i compiler/ -i tests/fuzz/convert/ -e node_modules

.PHONY: fuzz-convert fuzz-convert-regress fuzz-convert-corpus jazzer-compat

$(JAZZER_DIR)/fuzzer-linux-x64.node: $(JAZZER_ADDON) tests/fuzz/convert/jazzer-compat/patch-addon.mjs
	@mkdir -p $(@D)
	node tests/fuzz/convert/jazzer-compat/patch-addon.mjs $< $@

$(JAZZER_DIR)/libjazzer-compat.so: tests/fuzz/convert/jazzer-compat/compat.cpp
	@mkdir -p $(@D)
	$(JAZZER_CXX) -O2 -shared -fPIC -o $@ $<

jazzer-compat: $(JAZZER_DIR)/fuzzer-linux-x64.node $(JAZZER_DIR)/libjazzer-compat.so

# New coverage goes to $(FZC)/corpus (the committed seeds are only read).
fuzz-convert: jazzer-compat
	@mkdir -p $(FZC)/corpus build/fuzz/crashes
	$(JAZZER_ENV) nice -n 19 $(JAZZER_RUN) $(FZC)/corpus tests/fuzz/corpus/convert -- $(FUZZ_CONVERT_OPTS) \
	  -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=build/fuzz/crashes/convert- $(FUZZ_ARGS) \
	  2>&1 | tee $(FZC)/fuzz.log | grep -E '^#[0-9]+.*(pulse|DONE|NEW)|finding|stat::' | tail -20; \
	  ! ls build/fuzz/crashes/convert-* >/dev/null 2>&1 || { echo "!! findings: build/fuzz/crashes/convert-*"; exit 1; }

fuzz-convert-regress:
	tools/fuzz-convert-replay.sh

fuzz-convert-corpus: jazzer-compat
	rm -rf $(FZC)/seeds $(FZC)/merged && mkdir -p $(FZC)/merged
	node tests/fuzz/convert/gen-corpus.mjs $(FZC)/seeds
	$(JAZZER_ENV) $(JAZZER_RUN) $(FZC)/merged $(FZC)/seeds $(FZC)/corpus -- -merge=1 -timeout=10 -rss_limit_mb=2048 -max_len=65536
	node tests/fuzz/convert/pick-corpus.mjs $(FZC)/merged tests/fuzz/corpus/convert
