/* The layer check's question to the CPU backend (tools/check-layers.mjs):
 * which of these strings (one a line on stdin) are ops its registry
 * serves? Asked through the backend's own lookup, so the answer is the
 * registry's, however its tables are laid out. */
#include <stdio.h>
#include <string.h>

#include "hologram/cpu_backend.h"

int main(void) {
  holo_backend b;
  holo_cpu_backend_init(&b);
  char line[1024];
  while (fgets(line, sizeof line, stdin)) {
    size_t n = strcspn(line, "\n");
    line[n] = 0;
    if (n && b.lookup(b.ctx, line, (uint32_t)n)) printf("%s\n", line);
  }
  return 0;
}
