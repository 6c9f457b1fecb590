/* Byte operations without libc. The freestanding wasm build also exports
 * memcpy/memset/memmove/memcmp (runtime/freestanding.c) because the compiler
 * may emit calls to them for struct copies. */
#ifndef HOLOGRAM_MEM_H
#define HOLOGRAM_MEM_H

#include <stddef.h>

void holo_memcpy(void *dst, const void *src, size_t n);
void holo_memmove(void *dst, const void *src, size_t n);
void holo_memset(void *dst, int c, size_t n);
int holo_memcmp(const void *a, const void *b, size_t n);

#endif
