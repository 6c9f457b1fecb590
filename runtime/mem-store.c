/* MemWarmStore: the WarmStore for a process that wants warm starts across
 * sessions without files. Records are copied in and kept in recency order
 * (a doubly linked list: head most recently used) under a byte and a record
 * cap; get hands out the stored bytes, valid until the store's next put
 * (which may evict them) or release -- the WarmStore contract's "until the
 * store's next call". Lookup is a linear scan: the store holds what one
 * process computed, and the caps bound the scan. */
#include "hologram/error.h"
#include "hologram/holo.h"
#include "hologram/mem.h"
#include "label.h"

typedef struct holo_mem_record {
  struct holo_mem_record *prev, *next;
  char label[HOLO_LABEL_LEN + 1];
  uint8_t *bytes;
  size_t len;
} holo_mem_record;

static holo_mem_record *find(holo_mem_store *ms, const char *label) {
  for (holo_mem_record *r = ms->head; r; r = r->next)
    if (holo_memcmp(r->label, label, HOLO_LABEL_LEN) == 0) return r;
  return 0;
}

static void unlink_record(holo_mem_store *ms, holo_mem_record *r) {
  if (r->prev)
    r->prev->next = r->next;
  else
    ms->head = r->next;
  if (r->next)
    r->next->prev = r->prev;
  else
    ms->tail = r->prev;
  r->prev = r->next = 0;
}

static void push_front(holo_mem_store *ms, holo_mem_record *r) {
  r->prev = 0;
  r->next = ms->head;
  if (ms->head) ms->head->prev = r;
  ms->head = r;
  if (!ms->tail) ms->tail = r;
}

static void drop(holo_mem_store *ms, holo_mem_record *r) {
  unlink_record(ms, r);
  ms->bytes -= r->len;
  ms->count--;
  ms->a.free(ms->a.ctx, r->bytes);
  ms->a.free(ms->a.ctx, r);
}

/* Evicts least recently used records until `len` more bytes and one more
 * record fit (len = 0, extra = 0: until within the caps). */
static void make_room(holo_mem_store *ms, size_t len, uint32_t extra) {
  while (ms->tail && (ms->bytes + len > ms->max_bytes || ms->count + extra > ms->max_entries)) {
    drop(ms, ms->tail);
    ms->evicted++;
  }
}

static holo_status ms_get(void *ctx, const char *label, const uint8_t **bytes, size_t *len) {
  holo_mem_store *ms = ctx;
  holo_mem_record *r = find(ms, label);
  if (!r) return HOLO_ERR_STORE;
  if (r != ms->head) {
    unlink_record(ms, r);
    push_front(ms, r);
  }
  *bytes = r->bytes;
  *len = r->len;
  return HOLO_OK;
}

static holo_status ms_put(void *ctx, const char *label, const uint8_t *bytes, size_t len) {
  holo_mem_store *ms = ctx;
  holo_digest d;
  if (!holo_label_parse(label, HOLO_LABEL_LEN, &d)) return HOLO_ERR_STORE;
  if (find(ms, label)) return HOLO_OK; /* same label, same content */
  if (len > ms->max_bytes) {
    ms->evicted++; /* never fits: not kept, as a put the store dropped */
    return HOLO_OK;
  }
  holo_mem_record *r = ms->a.alloc(ms->a.ctx, sizeof *r, 16);
  uint8_t *b = r ? ms->a.alloc(ms->a.ctx, len ? len : 1, 64) : 0;
  if (!b) {
    if (r) ms->a.free(ms->a.ctx, r);
    return HOLO_ERR_MEMORY;
  }
  make_room(ms, len, 1);
  holo_memcpy(r->label, label, HOLO_LABEL_LEN);
  r->label[HOLO_LABEL_LEN] = 0;
  holo_memcpy(b, bytes, len);
  r->bytes = b;
  r->len = len;
  push_front(ms, r);
  ms->bytes += len;
  ms->count++;
  return HOLO_OK;
}

void holo_mem_store_init(holo_mem_store *ms, const holo_allocator *a) {
  holo_memset(ms, 0, sizeof *ms);
  ms->a = *a;
  ms->max_bytes = HOLO_MEM_STORE_MAX_BYTES;
  ms->max_entries = HOLO_MEM_STORE_MAX_ENTRIES;
  ms->store = (holo_warm_store){ms, ms_get, ms_put};
}

void holo_mem_store_bound(holo_mem_store *ms, uint64_t max_bytes, uint32_t max_entries) {
  ms->max_bytes = max_bytes ? max_bytes : HOLO_MEM_STORE_MAX_BYTES;
  ms->max_entries = max_entries ? max_entries : HOLO_MEM_STORE_MAX_ENTRIES;
  make_room(ms, 0, 0);
}

void holo_mem_store_release(holo_mem_store *ms) {
  while (ms->head)
    drop(ms, ms->head);
  ms->bytes = 0;
  ms->count = 0;
}
