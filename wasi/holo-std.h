/* Host-only amenities (feature `std`): a malloc allocator and FileWarmStore.
 * Built for native tools/tests and for the WASI program, never for the
 * freestanding core. */
#ifndef HOLO_STD_H
#define HOLO_STD_H

#include "hologram/holo.h"

const holo_allocator *holo_std_allocator(void);

/* --- std-store-index.c: the FileWarmStore's index of records ---
 * label digest -> record bytes, in least-recently-used order: a dense entry
 * array threaded by a doubly linked recency list, and an open-addressing
 * table (linear probing, backward-shift deletion) from digest to entry.
 * Grows by doubling; every operation is O(1) expected. */
#define HOLO_STORE_NONE UINT32_MAX
typedef struct holo_store_entry {
  uint8_t key[32];     /* the label's digest */
  uint64_t bytes;      /* the record file's length */
  uint32_t older, newer; /* recency list: entry indices or HOLO_STORE_NONE */
} holo_store_entry;

typedef struct holo_store_index {
  holo_store_entry *e; /* e[0..n) are live */
  uint32_t n, cap;
  uint32_t *slot;      /* entry index + 1; 0 is empty; 2 * cap slots */
  uint32_t mask;
  uint32_t oldest, newest;
  uint64_t bytes;      /* sum of e[].bytes */
  uint64_t seed;       /* hash seed: file names are not trusted to be digests */
} holo_store_index;

void holo_store_index_init(holo_store_index *ix, uint64_t seed);
void holo_store_index_free(holo_store_index *ix);
/* Room for n entries without allocating; false when out of memory (or n
 * is beyond HOLO_FILE_STORE_ENTRIES_LIMIT). */
bool holo_store_index_reserve(holo_store_index *ix, uint32_t n);
uint32_t holo_store_index_find(const holo_store_index *ix, const uint8_t key[32]);
/* Inserts key as the most recent entry, or updates its bytes and makes it
 * the most recent. False when out of memory (the index is then unchanged). */
bool holo_store_index_set(holo_store_index *ix, const uint8_t key[32], uint64_t bytes);
void holo_store_index_touch(holo_store_index *ix, uint32_t i);
/* Removes entry i; the last entry moves into its place. */
void holo_store_index_remove_at(holo_store_index *ix, uint32_t i);

/* --- std-file-store.c: FileWarmStore ---
 * One file per label: DIR/sha256-<64 hex>.hws, written to a temporary name
 * and renamed so a reader never sees half a record. The label is validated
 * (`sha256:` + 64 lowercase hex) before it becomes a path.
 *
 * Bounded (docs/warm-store.md "Bounds"): at most max_bytes of records and
 * max_entries records; a put that would exceed either evicts the least
 * recently used records first (a get counts as use). Recency is each
 * record's mtime, so it survives the process: open lists the directory
 * (sizes, mtimes) and evicts down to the bounds. A record larger than
 * max_bytes is not stored (put returns HOLO_ERR_STORE). */
#define HOLO_FILE_STORE_MAX_BYTES (1ull << 30)  /* default bound: 1 GiB */
#define HOLO_FILE_STORE_MAX_ENTRIES 100000u     /* default bound */
#define HOLO_FILE_STORE_ENTRIES_LIMIT (1u << 30) /* the largest max_entries accepted */
/* A temporary file of this store's form older than this is a dead writer's
 * leftover (a write takes seconds at most) and is removed at open. */
#define HOLO_FILE_STORE_TMP_STALE_S 3600

/* Nanoseconds since the epoch; recency stamps written as mtimes. */
typedef int64_t (*holo_store_clock)(void *ctx);

typedef struct holo_file_store {
  holo_warm_store store; /* pass &fs.store to holo_options */
  char dir[1024];
  uint8_t *last; /* bytes of the last get, owned */
  size_t last_len;
  uint64_t tmp_seq;
  uint64_t max_bytes, max_entries;
  holo_store_index index;
  /* The clock of recency stamps (default: CLOCK_REALTIME). A host or a
   * test may replace it after open. Stamps never go backwards within one
   * store (last_stamp + 1 ns at least), so this process's order is exact
   * where the file system keeps nanoseconds. */
  holo_store_clock clock;
  void *clock_ctx;
  int64_t last_stamp;
  /* since open: records evicted by the bounds, and broken entries (empty,
   * shorter than their listing, unreadable) removed as misses */
  uint64_t evicted, removed;
} holo_file_store;

/* Opens (creating DIR when missing) with the default bounds. */
holo_status holo_file_store_open(holo_file_store *fs, const char *dir, holo_error *err);
/* max_bytes >= 1, 1 <= max_entries <= HOLO_FILE_STORE_ENTRIES_LIMIT, else
 * HOLO_ERR_ARG. Lists DIR once and evicts down to the bounds. */
holo_status holo_file_store_open_bounded(holo_file_store *fs, const char *dir, uint64_t max_bytes,
                                         uint64_t max_entries, holo_error *err);
void holo_file_store_close(holo_file_store *fs);
/* Records and their bytes, as this process sees them. */
uint32_t holo_file_store_count(const holo_file_store *fs);
uint64_t holo_file_store_bytes(const holo_file_store *fs);

/* --- std-store-scan.c: the listing at open ---
 * Indexes DIR's records oldest first (mtime, then name), removes empty
 * records (a write cut by power loss) and this store's stale temporary
 * files. */
holo_status holo_file_store_scan(holo_file_store *fs, holo_error *err);
/* "sha256-<64 lowercase hex>.hws" -> the digest; false for any other name. */
bool holo_store_name_key(const char *name, uint8_t key[32]);

/* Reads a whole file into a 64-byte-aligned buffer (free with free()). */
holo_status holo_read_file(const char *path, uint8_t **bytes, size_t *len, holo_error *err);

/* FileSource: an archive file read by range (pread; fd_pread under WASI)
 * for holo_session_load_source. Keep it open while the session lives. */
typedef struct holo_file_source {
  holo_source source; /* pass &fs.source */
  int fd;
} holo_file_source;
holo_status holo_file_source_open(holo_file_source *fs, const char *path, holo_error *err);
void holo_file_source_close(holo_file_source *fs);

#endif
