#include "host-source.h"

#include "module.h"

/* Copies len bytes at offset (lo, hi halves) of source `id` to dst; 0 = ok. */
IMPORT(holo_host_source_read)
int host_source_read(uint32_t id, uint32_t off_lo, uint32_t off_hi, uint8_t *dst, size_t len);
/* A monotonic clock in milliseconds (performance.now()), for the stall counter. */
IMPORT(holo_host_clock_ms) double host_clock_ms(void);

static holo_status source_read(void *ctx, uint64_t off, void *dst, size_t len) {
  const wasm_host_source *h = ctx;
  return host_source_read(h->id, (uint32_t)off, (uint32_t)(off >> 32), dst, len) == 0 ? HOLO_OK : HOLO_ERR_IO;
}

static uint64_t source_clock(void *ctx) {
  (void)ctx;
  double ms = host_clock_ms();
  return ms > 0 ? (uint64_t)(ms * 1e6) : 0;
}

void wasm_host_source_init(wasm_host_source *h, uint32_t id, uint64_t size) {
  h->source = (holo_source){h, size, source_read, source_clock};
  h->id = id;
}
