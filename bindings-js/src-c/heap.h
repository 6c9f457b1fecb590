#ifndef HOLO_HEAP_H
#define HOLO_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HOLO_HEAP_CLASSES 64
#define HOLO_HEAP_LARGE 0xFFFFFFFFu

typedef struct holo_heap {
  struct freeblk *bins[HOLO_HEAP_CLASSES];
  struct freeblk *large;
  uintptr_t bump, bump_end;
  size_t total, used;
} holo_heap;

void *holo_heap_alloc(holo_heap *h, size_t size, size_t align);
void holo_heap_free(holo_heap *h, void *p);

#endif
