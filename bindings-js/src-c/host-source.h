/* The host's archive source (a JS object behind the env import
 * holo_host_source_read, keyed by an id the shim chose) as a holo_source,
 * for a session whose constants are read by range under a weight budget. */
#ifndef HOLO_WASM_HOST_SOURCE_H
#define HOLO_WASM_HOST_SOURCE_H

#include "hologram/holo.h"

typedef struct wasm_host_source {
  holo_source source;
  uint32_t id;
} wasm_host_source;

void wasm_host_source_init(wasm_host_source *h, uint32_t id, uint64_t size);

#endif
