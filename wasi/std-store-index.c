/* The FileWarmStore's index (holo-std.h): which records exist, their sizes,
 * and their recency order. Entries stay dense (a removal moves the last
 * entry into the hole) so eviction and growth never scan. */
#include <stdlib.h>
#include <string.h>

#include "holo-std.h"

void holo_store_index_init(holo_store_index *ix, uint64_t seed) {
  memset(ix, 0, sizeof *ix);
  ix->oldest = ix->newest = HOLO_STORE_NONE;
  ix->seed = seed;
}

void holo_store_index_free(holo_store_index *ix) {
  free(ix->e);
  free(ix->slot);
  holo_store_index_init(ix, ix->seed);
}

static uint64_t mix(uint64_t h) {
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

/* Keys come from file names, which anyone with write access to the
 * directory chooses: hash every byte under a per-index seed, so names
 * crafted to collide cannot turn the listing at open quadratic. */
static uint32_t home(const holo_store_index *ix, const uint8_t key[32]) {
  uint64_t h = ix->seed;
  for (int w = 0; w < 4; w++) {
    uint64_t v;
    memcpy(&v, key + 8 * w, 8);
    h = mix(h ^ v);
  }
  return (uint32_t)h & ix->mask;
}

uint32_t holo_store_index_find(const holo_store_index *ix, const uint8_t key[32]) {
  if (!ix->slot) return HOLO_STORE_NONE;
  for (uint32_t s = home(ix, key);; s = (s + 1) & ix->mask) {
    uint32_t v = ix->slot[s];
    if (!v) return HOLO_STORE_NONE;
    if (!memcmp(ix->e[v - 1].key, key, 32)) return v - 1;
  }
}

static void place(holo_store_index *ix, uint32_t i) {
  uint32_t s = home(ix, ix->e[i].key);
  while (ix->slot[s])
    s = (s + 1) & ix->mask;
  ix->slot[s] = i + 1;
}

bool holo_store_index_reserve(holo_store_index *ix, uint32_t n) {
  if (n <= ix->cap) return true;
  if (n > HOLO_FILE_STORE_ENTRIES_LIMIT) return false;
  uint32_t cap = ix->cap ? ix->cap : 64;
  while (cap < n)
    cap *= 2;
  holo_store_entry *e = realloc(ix->e, (size_t)cap * sizeof *e);
  if (!e) return false;
  ix->e = e;
  uint32_t *slot = calloc((size_t)cap * 2, sizeof *slot);
  if (!slot) return false; /* the larger e[] is kept; cap is not raised */
  free(ix->slot);
  ix->slot = slot;
  ix->cap = cap;
  ix->mask = cap * 2 - 1;
  for (uint32_t i = 0; i < ix->n; i++)
    place(ix, i);
  return true;
}

static void unlink_list(holo_store_index *ix, uint32_t i) {
  holo_store_entry *x = &ix->e[i];
  if (x->older != HOLO_STORE_NONE)
    ix->e[x->older].newer = x->newer;
  else
    ix->oldest = x->newer;
  if (x->newer != HOLO_STORE_NONE)
    ix->e[x->newer].older = x->older;
  else
    ix->newest = x->older;
}

static void push_newest(holo_store_index *ix, uint32_t i) {
  holo_store_entry *x = &ix->e[i];
  x->older = ix->newest;
  x->newer = HOLO_STORE_NONE;
  if (ix->newest != HOLO_STORE_NONE)
    ix->e[ix->newest].newer = i;
  else
    ix->oldest = i;
  ix->newest = i;
}

void holo_store_index_touch(holo_store_index *ix, uint32_t i) {
  if (ix->newest == i) return;
  unlink_list(ix, i);
  push_newest(ix, i);
}

bool holo_store_index_set(holo_store_index *ix, const uint8_t key[32], uint64_t bytes) {
  uint32_t i = holo_store_index_find(ix, key);
  if (i != HOLO_STORE_NONE) {
    ix->bytes = ix->bytes - ix->e[i].bytes + bytes;
    ix->e[i].bytes = bytes;
    holo_store_index_touch(ix, i);
    return true;
  }
  if (ix->n == UINT32_MAX || !holo_store_index_reserve(ix, ix->n + 1)) return false;
  i = ix->n++;
  memcpy(ix->e[i].key, key, 32);
  ix->e[i].bytes = bytes;
  ix->bytes += bytes;
  place(ix, i);
  push_newest(ix, i);
  return true;
}

/* The slot that holds entry index i. */
static uint32_t slot_of(const holo_store_index *ix, uint32_t i) {
  uint32_t s = home(ix, ix->e[i].key);
  while (ix->slot[s] != i + 1)
    s = (s + 1) & ix->mask;
  return s;
}

/* Linear probing without tombstones: after emptying slot s, move back every
 * later entry of the run whose home does not lie cyclically in (s, j]. */
static void clear_slot(holo_store_index *ix, uint32_t s) {
  ix->slot[s] = 0;
  for (uint32_t j = (s + 1) & ix->mask; ix->slot[j]; j = (j + 1) & ix->mask) {
    uint32_t h = home(ix, ix->e[ix->slot[j] - 1].key);
    bool stays = s < j ? (s < h && h <= j) : (s < h || h <= j);
    if (stays) continue;
    ix->slot[s] = ix->slot[j];
    ix->slot[j] = 0;
    s = j;
  }
}

void holo_store_index_remove_at(holo_store_index *ix, uint32_t i) {
  clear_slot(ix, slot_of(ix, i));
  unlink_list(ix, i);
  ix->bytes -= ix->e[i].bytes;
  uint32_t last = --ix->n;
  if (i == last) return;
  /* the last entry moves into i: its slot and its list neighbours follow */
  ix->slot[slot_of(ix, last)] = i + 1;
  ix->e[i] = ix->e[last];
  holo_store_entry *x = &ix->e[i];
  if (x->older != HOLO_STORE_NONE)
    ix->e[x->older].newer = i;
  else
    ix->oldest = i;
  if (x->newer != HOLO_STORE_NONE)
    ix->e[x->newer].older = i;
  else
    ix->newest = i;
}
