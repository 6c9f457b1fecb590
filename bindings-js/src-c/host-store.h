/* The host's warm store (the JS WarmStore behind the env imports
 * holo_host_store_get/put) as a holo_warm_store. A get hands back bytes
 * the host allocated in the module heap: the bridge owns them until the
 * next get or wasm_host_store_release. */
#ifndef HOLO_WASM_HOST_STORE_H
#define HOLO_WASM_HOST_STORE_H

#include "hologram/holo.h"

typedef struct wasm_host_store {
  holo_warm_store store;
  const uint8_t *last_get;
} wasm_host_store;

void wasm_host_store_init(wasm_host_store *h);
/* Frees the bytes of the last get, if any. */
void wasm_host_store_release(wasm_host_store *h);

#endif
