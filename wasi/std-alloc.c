#include <stdlib.h>

#include "holo-std.h"

static void *std_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  void *p = 0;
  if (align < sizeof(void *)) align = sizeof(void *);
  return posix_memalign(&p, align, size ? size : 1) == 0 ? p : 0;
}

static void std_free(void *ctx, void *p) {
  (void)ctx;
  free(p);
}

static const holo_allocator STD_ALLOCATOR = {0, std_alloc, std_free};

const holo_allocator *holo_std_allocator(void) { return &STD_ALLOCATOR; }
