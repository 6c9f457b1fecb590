/* Byte operations without libc. A freestanding build must still supply
 * memcpy/memset/memmove/memcmp, because the compiler may emit calls to them
 * for struct copies: the npm package's module defines them over these
 * (bindings-js/src-c/libc-shim.c), as does the bare-metal board file
 * (boards/mps2-an386/board.c); holo.wasm and the native builds take libc's. */
#ifndef HOLOGRAM_MEM_H
#define HOLOGRAM_MEM_H

#include <stddef.h>

void holo_memcpy(void *dst, const void *src, size_t n);
void holo_memmove(void *dst, const void *src, size_t n);
void holo_memset(void *dst, int c, size_t n);
int holo_memcmp(const void *a, const void *b, size_t n);

#endif
