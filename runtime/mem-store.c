/* MemWarmStore: the WarmStore for a process that wants warm starts across
 * sessions without files. Records are copied in; get hands out the stored
 * bytes, valid until the store is released. */
#include "hologram/error.h"
#include "hologram/holo.h"
#include "hologram/mem.h"
#include "label.h"

typedef struct holo_mem_record {
  struct holo_mem_record *next;
  char label[HOLO_LABEL_LEN + 1];
  uint8_t *bytes;
  size_t len;
} holo_mem_record;

static holo_mem_record *find(holo_mem_store *ms, const char *label) {
  for (holo_mem_record *r = ms->head; r; r = r->next)
    if (holo_memcmp(r->label, label, HOLO_LABEL_LEN) == 0) return r;
  return 0;
}

static holo_status ms_get(void *ctx, const char *label, const uint8_t **bytes, size_t *len) {
  holo_mem_record *r = find(ctx, label);
  if (!r) return HOLO_ERR_STORE;
  *bytes = r->bytes;
  *len = r->len;
  return HOLO_OK;
}

static holo_status ms_put(void *ctx, const char *label, const uint8_t *bytes, size_t len) {
  holo_mem_store *ms = ctx;
  holo_digest d;
  if (!holo_label_parse(label, HOLO_LABEL_LEN, &d)) return HOLO_ERR_STORE;
  if (find(ms, label)) return HOLO_OK; /* same label, same content */
  holo_mem_record *r = ms->a.alloc(ms->a.ctx, sizeof *r, 16);
  uint8_t *b = r ? ms->a.alloc(ms->a.ctx, len ? len : 1, 64) : 0;
  if (!b) {
    if (r) ms->a.free(ms->a.ctx, r);
    return HOLO_ERR_MEMORY;
  }
  holo_memcpy(r->label, label, HOLO_LABEL_LEN);
  r->label[HOLO_LABEL_LEN] = 0;
  holo_memcpy(b, bytes, len);
  r->bytes = b;
  r->len = len;
  r->next = ms->head;
  ms->head = r;
  ms->count++;
  return HOLO_OK;
}

void holo_mem_store_init(holo_mem_store *ms, const holo_allocator *a) {
  holo_memset(ms, 0, sizeof *ms);
  ms->a = *a;
  ms->store = (holo_warm_store){ms, ms_get, ms_put};
}

void holo_mem_store_release(holo_mem_store *ms) {
  holo_mem_record *r = ms->head;
  while (r) {
    holo_mem_record *n = r->next;
    ms->a.free(ms->a.ctx, r->bytes);
    ms->a.free(ms->a.ctx, r);
    r = n;
  }
  ms->head = 0;
  ms->count = 0;
}
