/* Host-only amenities (feature `std`): a malloc allocator and FileWarmStore.
 * Built for native tools/tests and for the WASI program, never for the
 * freestanding core. */
#ifndef HOLO_STD_H
#define HOLO_STD_H

#include "hologram/holo.h"

const holo_allocator *holo_std_allocator(void);

/* One file per label: DIR/sha256-<64 hex>.hws, written to a temporary name
 * and renamed so a reader never sees half a record. The label is validated
 * (`sha256:` + 64 lowercase hex) before it becomes a path. */
typedef struct holo_file_store {
  holo_warm_store store; /* pass &fs.store to holo_options */
  char dir[1024];
  uint8_t *last; /* bytes of the last get, owned */
  size_t last_len;
  uint64_t tmp_seq;
} holo_file_store;

holo_status holo_file_store_open(holo_file_store *fs, const char *dir, holo_error *err);
void holo_file_store_close(holo_file_store *fs);

/* Reads a whole file into a 64-byte-aligned buffer (free with free()). */
holo_status holo_read_file(const char *path, uint8_t **bytes, size_t *len, holo_error *err);

#endif
