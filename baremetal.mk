# The core on a bare-metal Cortex-M4F (MPS2 AN386 under qemu-system-arm;
# docs/baremetal.md). runtime/ + the scalar kernels + generation/ are
# compiled freestanding and linked with -nostdlib: besides the board file
# (boards/mps2-an386/) only libgcc, the compiler's runtime (64-bit division,
# soft double arithmetic), may resolve a symbol. `make baremetal` builds;
# tools/test-baremetal.sh runs it against the wasm build's bytes.
BM_CC      ?= arm-none-eabi-gcc
BM_SIZE    ?= arm-none-eabi-size
BM_NM      ?= arm-none-eabi-nm
BM_BOARD   := boards/mps2-an386
BM_ARCHIVE ?= web-demo/model/digits.holo
BM         := build/baremetal
BM_ARCH    := -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16
# -fno-tree-loop-distribute-patterns: gcc would otherwise turn the core's
# own byte loops (runtime/mem.c) into calls to memcpy, which forwards to them.
# HOLO_MEMO_MAX_SLOTS: the graph memo's table capped at 256 records (17 KiB
# instead of 1.1 MiB of the board's 4 MiB; a cache, so same bytes and labels).
BM_CFLAGS  := $(BM_ARCH) -std=c11 $(WARN) -O2 -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns \
              -fno-math-errno -ffp-contract=off -ffunction-sections -fdata-sections -DHOLO_MEMO_MAX_SLOTS=256u $(INC)
# (any folder's parallel-pthread.c: the pthreads pool, hosted only)
BM_CORE_SRC  := $(filter-out %/parallel-pthread.c,$(CORE_SRC))
BM_BOARD_SRC := $(sort $(wildcard $(BM_BOARD)/*.c))
BM_CORE_OBJ  := $(call obj_of,$(BM),$(BM_CORE_SRC))
BM_BOARD_OBJ := $(call obj_of,$(BM),$(BM_BOARD_SRC))

.PHONY: baremetal baremetal-size
baremetal: $(BM)/holo-board.elf $(BM)/core.o

$(eval $(call c_rule,$(BM),,$(BM_CC),$(BM_CFLAGS)))
$(eval $(call c_rule,$(BM),$(BM_BOARD)/,$(BM_CC),$(BM_CFLAGS) -Iruntime))
-include $(call deps_of,$(BM_CORE_OBJ) $(BM_BOARD_OBJ))
$(BM)/obj/archive.o: $(BM_BOARD)/archive.S $(BM_ARCHIVE)
	@mkdir -p $(@D); $(BM_CC) $(BM_ARCH) -DHOLO_BOARD_ARCHIVE='"$(BM_ARCHIVE)"' -c $< -o $@

# The core alone, as one relocatable object: its undefined symbols are what
# a board must supply (checked by tools/test-baremetal.sh).
$(BM)/core.o: $(BM_CORE_OBJ)
	$(BM_CC) $(BM_ARCH) -nostdlib -r $^ -o $@

$(BM)/holo-board.elf: $(BM_CORE_OBJ) $(BM_BOARD_OBJ) $(BM)/obj/archive.o $(BM_BOARD)/link.ld
	$(BM_CC) $(BM_ARCH) -nostdlib -ffreestanding -T $(BM_BOARD)/link.ld -Wl,--gc-sections -Wl,-Map=$(BM)/holo-board.map \
	  $(BM_CORE_OBJ) $(BM_BOARD_OBJ) $(BM)/obj/archive.o -lgcc -o $@

baremetal-size: baremetal
	@$(BM_SIZE) -A $(BM)/core.o | awk '/^\.(text|rodata)/ {s += $$2} END {print "core.o (before --gc-sections) text+rodata:", s}'
	@echo "kept in the image, by origin (text+rodata):"; perl $(BM_BOARD)/map-sizes.pl $(BM)/holo-board.map
	@$(BM_SIZE) -A $(BM)/holo-board.elf | grep -E '^(section|\.text|\.data|\.bss|\.heap|\.stack)'
