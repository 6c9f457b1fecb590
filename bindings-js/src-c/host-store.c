#include "host-store.h"

#include "module.h"

IMPORT(holo_host_store_get) int host_store_get(const char *label, const uint8_t **bytes, size_t *len);
IMPORT(holo_host_store_put) int host_store_put(const char *label, const uint8_t *bytes, size_t len);

void wasm_host_store_release(wasm_host_store *h) {
  if (h->last_get) wasm_free((void *)h->last_get);
  h->last_get = 0;
}

static holo_status get(void *ctx, const char *label, const uint8_t **bytes, size_t *len) {
  wasm_host_store *h = ctx;
  wasm_host_store_release(h);
  if (host_store_get(label, bytes, len) != 0 || !*bytes) return HOLO_ERR_STORE;
  h->last_get = *bytes;
  return HOLO_OK;
}

static holo_status put(void *ctx, const char *label, const uint8_t *bytes, size_t len) {
  (void)ctx;
  return host_store_put(label, bytes, len) == 0 ? HOLO_OK : HOLO_ERR_STORE;
}

void wasm_host_store_init(wasm_host_store *h) {
  h->store = (holo_warm_store){h, get, put};
  h->last_get = 0;
}
