/* What the board supplies to the core: memory (a first-fit allocator over
 * the RAM the linker script leaves between bss and stack) and the byte
 * functions the compiler may call for struct copies. The warm store is the
 * runtime's own MemWarmStore over that allocator. */
#ifndef BOARD_H
#define BOARD_H

#include <stddef.h>
#include <stdint.h>

#include "hologram/holo.h"

typedef struct board_heap_stats {
  size_t capacity;    /* bytes of the heap region */
  size_t in_use;      /* bytes of live blocks now (headers and padding included) */
  size_t peak_in_use; /* high-water of in_use */
  size_t peak_top;    /* highest heap offset ever handed out: the RAM it needed */
  unsigned allocs, frees, failed;
} board_heap_stats;

const holo_allocator *board_allocator(void);
board_heap_stats board_heap(void);

/* Stack: the region is painted at reset; the high-water mark is the deepest
 * word no longer holding the paint. */
size_t board_stack_capacity(void);
size_t board_stack_peak(void);

#endif
