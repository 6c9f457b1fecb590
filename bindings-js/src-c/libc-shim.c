/* clang may emit calls to these for struct copies and zeroing even in a
 * freestanding build; they forward to the core's own byte routines. */
#include <stddef.h>

#include "hologram/mem.h"

void *memcpy(void *d, const void *s, size_t n) {
  holo_memcpy(d, s, n);
  return d;
}
void *memmove(void *d, const void *s, size_t n) {
  holo_memmove(d, s, n);
  return d;
}
void *memset(void *d, int c, size_t n) {
  holo_memset(d, c, n);
  return d;
}
int memcmp(const void *a, const void *b, size_t n) { return holo_memcmp(a, b, n); }
