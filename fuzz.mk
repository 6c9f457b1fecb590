# libFuzzer targets (issue 10; docs/fuzzing.md). Included from the Makefile.
#
#   make fuzz-build                   build/fuzz/fuzz_{archive,execute,warm_store}
#   make fuzz FUZZ_SECONDS=120        run each target N seconds (-max_total_time);
#                                     exit 0 only when no target found a crash
#   make fuzz FUZZ_TARGETS=fuzz_archive FUZZ_JOBS=2
#   make fuzz-regress                 replay the committed corpus and regressions
#                                     (seconds; no fuzzing) -- for CI
#
# The core is compiled again with the fuzzer's instrumentation (clang-19,
# -fsanitize=fuzzer-no-link,address,undefined), not the gcc libholo.a.
# Crashes, leaks, timeouts and OOMs are saved as build/fuzz/crashes/<target>-*;
# new coverage goes to build/fuzz/corpus/<target>/ (the committed seeds in
# tests/fuzz/corpus/<target>/ are read, never written).

FUZZ_CC       ?= $(CLANG)
FUZZ_SECONDS  ?= 60
FUZZ_TARGETS  ?= fuzz_archive fuzz_execute fuzz_warm_store
FUZZ_JOBS     ?= 1
FUZZ_ARGS     ?=
FZ            := build/fuzz
FUZZ_SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS   := -std=c11 -Wall -Wextra -O1 -g -fno-math-errno -ffp-contract=off $(INC) \
                 -Iruntime -Iwasi -D_POSIX_C_SOURCE=200809L $(FUZZ_SAN)
FUZZ_CORE_OBJ := $(call obj_of,$(FZ),$(CORE_SRC) $(STD_SRC))
# libFuzzer options common to every run: hangs over 25 s and single
# allocations over 512 MiB are findings (the targets bound every budget).
FUZZ_RUNOPTS  := -timeout=25 -rss_limit_mb=2048 -malloc_limit_mb=512 -print_final_stats=1
FUZZ_ENV      := ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0:abort_on_error=0 \
                 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: fuzz fuzz-build fuzz-regress fuzz-clean
# One pattern rule (the Makefile's c_rule) for the core and the targets:
# -fsanitize=fuzzer-no-link instruments; only the link adds libFuzzer's main.
$(eval $(call c_rule,$(FZ),,$(FUZZ_CC),$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link))
FUZZ_MAIN_OBJ := $(call obj_of,$(FZ),$(wildcard tests/fuzz/fuzz_*.c))
.SECONDARY: $(FUZZ_MAIN_OBJ)
-include $(call deps_of,$(FUZZ_CORE_OBJ) $(FUZZ_MAIN_OBJ))

$(FZ)/fuzz_%: $(FZ)/obj/tests/fuzz/fuzz_%.o $(FUZZ_CORE_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ -lm -o $@

fuzz-build: $(addprefix $(FZ)/,$(FUZZ_TARGETS))

# Each target: fuzz for FUZZ_SECONDS, log to build/fuzz/<target>.log.
fuzz: fuzz-build
	@mkdir -p $(FZ)/crashes; fail=0; \
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FZ)/corpus/$$t; \
	  dict=; [ -f tests/fuzz/$$t.dict ] && dict=-dict=tests/fuzz/$$t.dict; \
	  echo "== $$t: $(FUZZ_SECONDS) s x $(FUZZ_JOBS) job(s), log $(FZ)/$$t.log"; \
	  if [ "$(FUZZ_JOBS)" -gt 1 ]; then par="-fork=$(FUZZ_JOBS) -ignore_crashes=0"; else par=; fi; \
	  $(FUZZ_ENV) $(FZ)/$$t $(FZ)/corpus/$$t tests/fuzz/corpus/$$t $$dict $$par \
	    -max_total_time=$(FUZZ_SECONDS) $(FUZZ_RUNOPTS) -artifact_prefix=$(FZ)/crashes/$$t- $(FUZZ_ARGS) \
	    >$(FZ)/$$t.log 2>&1; rc=$$?; \
	  grep -E '^#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|cov:' $(FZ)/$$t.log | tail -2; \
	  if [ $$rc -ne 0 ]; then fail=1; echo "!! $$t: exit $$rc -- see $(FZ)/$$t.log and $(FZ)/crashes/"; \
	    grep -E 'ERROR: |SUMMARY: |fuzz invariant|runtime error' $(FZ)/$$t.log | head -5; \
	  else echo "ok $$t: no crash"; fi; \
	done; \
	ls $(FZ)/crashes/ 2>/dev/null | sed 's/^/   crash: /'; \
	exit $$fail

# Replays every committed seed and regression input once (no mutation).
fuzz-regress: fuzz-build
	@fail=0; for t in $(FUZZ_TARGETS); do \
	  files=$$(ls -d tests/fuzz/corpus/$$t/* tests/fuzz/regressions/$$t/* 2>/dev/null); \
	  [ -z "$$files" ] && continue; \
	  if $(FUZZ_ENV) $(FZ)/$$t $(FUZZ_RUNOPTS) $$files >$(FZ)/$$t-regress.log 2>&1; then \
	    echo "ok $$t: $$(echo $$files | wc -w) inputs"; \
	  else fail=1; echo "!! $$t: see $(FZ)/$$t-regress.log"; grep -E 'ERROR: |SUMMARY: |fuzz invariant|Running: ' $(FZ)/$$t-regress.log | tail -4; fi; \
	done; exit $$fail

fuzz-clean:
	rm -rf $(FZ)

# The converter fuzzer (Jazzer.js): make fuzz-convert, fuzz-convert-regress.
include tests/fuzz/convert.mk
