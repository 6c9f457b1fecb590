#ifndef HOLO_HEAP_H
#define HOLO_HEAP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct holo_heap {
  struct blk *free;
  size_t total, used;
} holo_heap;

void *holo_heap_alloc(holo_heap *h, size_t size, size_t align);
void holo_heap_free(holo_heap *h, void *p);

#endif
