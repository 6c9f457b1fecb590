/* FileWarmStore (holo-std.h): one record per file, bounded in bytes and
 * records with least-recently-used eviction (docs/warm-store.md "Bounds").
 * The index (std-store-index.c) is this process's view of the directory,
 * built at open (std-store-scan.c) and kept by every get and put. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "holo-std.h"

static holo_status fail(holo_error *err, holo_status st, const char *msg, const char *path) {
  if (err) {
    err->status = st;
    snprintf(err->message, sizeof err->message, "%s: %s", path, msg);
  }
  return st;
}

holo_status holo_read_file(const char *path, uint8_t **bytes, size_t *len, holo_error *err) {
  struct stat st;
  *bytes = 0;
  *len = 0;
  if (stat(path, &st) != 0) return fail(err, HOLO_ERR_ARG, strerror(errno), path);
  if (S_ISDIR(st.st_mode)) return fail(err, HOLO_ERR_ARG, "is a directory, not a file", path);
  FILE *f = fopen(path, "rb");
  if (!f) return fail(err, HOLO_ERR_ARG, strerror(errno), path);
  size_t n = (size_t)st.st_size;
  uint8_t *p = 0;
  if (posix_memalign((void **)&p, 64, n ? n : 1) != 0) {
    fclose(f);
    return fail(err, HOLO_ERR_MEMORY, "out of memory reading file", path);
  }
  if (n && fread(p, 1, n, f) != n) {
    fclose(f);
    free(p);
    return fail(err, HOLO_ERR_ARG, "short read", path);
  }
  fclose(f);
  *bytes = p;
  *len = n;
  return HOLO_OK;
}

/* Only a strictly valid label becomes a file name: no path tricks. Its
 * digest is the index key. */
static bool label_key(const char *label, uint8_t key[32]) {
  if (!label || strncmp(label, "sha256:", 7) != 0 || strlen(label) != HOLO_LABEL_LEN) return false;
  char name[80];
  snprintf(name, sizeof name, "sha256-%s.hws", label + 7);
  return holo_store_name_key(name, key);
}

static void key_path(const holo_file_store *fs, const uint8_t key[32], char *out, size_t cap) {
  static const char HEX[] = "0123456789abcdef";
  char hex[65];
  for (int i = 0; i < 32; i++) {
    hex[2 * i] = HEX[key[i] >> 4];
    hex[2 * i + 1] = HEX[key[i] & 15];
  }
  hex[64] = 0;
  snprintf(out, cap, "%s/sha256-%s.hws", fs->dir, hex);
}

static int64_t realtime_ns(void *ctx) {
  (void)ctx;
  struct timespec t;
  if (clock_gettime(CLOCK_REALTIME, &t) != 0) return 0;
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The file's atime and mtime := a recency stamp, given explicitly: the
 * kernel's own "now" is coarse (jiffies), so two uses in a row could tie.
 * (node:wasi keeps whole seconds only.) Recency is a hint: a failure to set
 * it costs order, not correctness. */
static void stamp(holo_file_store *fs, const char *path) {
  int64_t now = fs->clock(fs->clock_ctx);
  if (now <= fs->last_stamp) now = fs->last_stamp + 1;
  fs->last_stamp = now;
  struct timespec t[2] = {{(time_t)(now / 1000000000), (long)(now % 1000000000)}, {0, 0}};
  t[1] = t[0];
  (void)utimensat(AT_FDCWD, path, t, 0);
}

/* Removes the least recently used records until `incoming` more bytes in
 * `records` more records fit (incoming <= max_bytes). */
static void evict(holo_file_store *fs, uint64_t incoming, uint32_t records) {
  holo_store_index *ix = &fs->index;
  while (ix->n && (ix->bytes > fs->max_bytes - incoming || (uint64_t)ix->n + records > fs->max_entries)) {
    char path[1200];
    key_path(fs, ix->e[ix->oldest].key, path, sizeof path);
    /* a failed removal (ENOENT: another process's eviction) still leaves
     * this view: the bound is on what this store keeps */
    (void)remove(path);
    holo_store_index_remove_at(ix, ix->oldest);
    fs->evicted++;
  }
}

/* A broken entry (empty, shorter than its size, unreadable): a miss, and
 * gone, so that the recomputed record replaces it. */
static holo_status drop_broken(holo_file_store *fs, const char *path, uint32_t i) {
  if (remove(path) == 0) fs->removed++;
  if (i != HOLO_STORE_NONE) holo_store_index_remove_at(&fs->index, i);
  return HOLO_ERR_STORE;
}

/* Reads the whole record at path into a 64-byte-aligned buffer; *len 0 and
 * HOLO_OK for an empty or short file (broken); HOLO_ERR_STORE: absent. */
static holo_status read_record(const char *path, uint8_t **bytes, size_t *len, bool *regular) {
  *bytes = 0;
  *len = 0;
  *regular = false;
  FILE *f = fopen(path, "rb");
  if (!f) return HOLO_ERR_STORE;
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    fclose(f);
    return HOLO_ERR_STORE;
  }
  *regular = true;
  size_t n = (size_t)st.st_size;
  uint8_t *p = 0;
  if (n == 0 || posix_memalign((void **)&p, 64, n) != 0) {
    fclose(f);
    return n ? HOLO_ERR_STORE : HOLO_OK;
  }
  /* one byte more than the size: a file that grew while read is not the
   * record its size named either */
  uint8_t extra;
  bool whole = fread(p, 1, n, f) == n && fread(&extra, 1, 1, f) == 0;
  fclose(f);
  if (!whole) {
    free(p);
    return HOLO_OK;
  }
  *bytes = p;
  *len = n;
  return HOLO_OK;
}

static holo_status fs_get(void *ctx, const char *label, const uint8_t **bytes, size_t *len) {
  holo_file_store *fs = ctx;
  uint8_t key[32];
  char path[1200];
  *bytes = 0;
  *len = 0;
  free(fs->last);
  fs->last = 0;
  fs->last_len = 0;
  if (!label_key(label, key)) return HOLO_ERR_STORE;
  key_path(fs, key, path, sizeof path);
  uint32_t i = holo_store_index_find(&fs->index, key);
  uint8_t *p;
  size_t n;
  bool regular;
  if (read_record(path, &p, &n, &regular) != HOLO_OK) {
    /* absent (evicted by another process) or not a file: out of this view */
    if (i != HOLO_STORE_NONE && !regular) holo_store_index_remove_at(&fs->index, i);
    return HOLO_ERR_STORE;
  }
  if (!p) return drop_broken(fs, path, i);
  /* a record another process wrote joins this view; either way it is now
   * the most recently used */
  if (!holo_store_index_set(&fs->index, key, n)) {
    free(p);
    return HOLO_ERR_STORE;
  }
  evict(fs, 0, 0);
  stamp(fs, path);
  fs->last = p;
  fs->last_len = n;
  *bytes = p;
  *len = n;
  return HOLO_OK;
}

/* Writes bytes to a fresh temporary name in DIR ("x": never a file another
 * writer has open, so two processes putting one label cannot interleave). */
static bool write_tmp(holo_file_store *fs, const char *label, const uint8_t *bytes, size_t len, char *tmp,
                      size_t cap) {
  for (int attempt = 0; attempt < 8; attempt++) {
    snprintf(tmp, cap, "%s/.tmp-%s-%llu", fs->dir, label + 7, (unsigned long long)fs->tmp_seq++);
    FILE *f = fopen(tmp, "wbx");
    if (!f) {
      if (errno == EEXIST) continue;
      return false;
    }
    bool ok = fwrite(bytes, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok) remove(tmp);
    return ok;
  }
  return false;
}

static holo_status fs_put(void *ctx, const char *label, const uint8_t *bytes, size_t len) {
  holo_file_store *fs = ctx;
  uint8_t key[32];
  char path[1200], tmp[1300];
  if (!label_key(label, key)) return HOLO_ERR_STORE;
  /* not stored: a record over the byte bound (it would evict everything
   * and still not fit), and an empty one (no format has one; the listing
   * takes an empty file for a cut-short write) */
  if (len == 0 || (uint64_t)len > fs->max_bytes) return HOLO_ERR_STORE;
  if (!holo_store_index_reserve(&fs->index, fs->index.n + 1)) return HOLO_ERR_STORE;
  key_path(fs, key, path, sizeof path);
  if (!write_tmp(fs, label, bytes, len, tmp, sizeof tmp)) return HOLO_ERR_STORE;
  stamp(fs, tmp); /* rename keeps the mtime */
  uint32_t i = holo_store_index_find(&fs->index, key);
  if (i != HOLO_STORE_NONE) holo_store_index_remove_at(&fs->index, i); /* replaced below */
  evict(fs, len, 1);
  if (rename(tmp, path) != 0) {
    remove(tmp);
    remove(path); /* the index no longer counts it: neither does the directory */
    return HOLO_ERR_STORE;
  }
  holo_store_index_set(&fs->index, key, len); /* reserved above: cannot fail */
  return HOLO_OK;
}

holo_status holo_file_store_open_bounded(holo_file_store *fs, const char *dir, uint64_t max_bytes,
                                         uint64_t max_entries, holo_error *err) {
  memset(fs, 0, sizeof *fs);
  holo_store_index_init(&fs->index, 0);
  if (!dir || strlen(dir) >= sizeof fs->dir) return fail(err, HOLO_ERR_ARG, "warm store path too long", dir ? dir : "(null)");
  if (max_bytes == 0) return fail(err, HOLO_ERR_ARG, "warm store max bytes must be at least 1", dir);
  if (max_entries == 0 || max_entries > HOLO_FILE_STORE_ENTRIES_LIMIT)
    return fail(err, HOLO_ERR_ARG, "warm store max entries must be from 1 to 1073741824", dir);
  struct stat st;
  if (stat(dir, &st) != 0) {
    if (mkdir(dir, 0755) != 0) return fail(err, HOLO_ERR_STORE, strerror(errno), dir);
  } else if (!S_ISDIR(st.st_mode)) {
    return fail(err, HOLO_ERR_STORE, "warm store is not a directory", dir);
  }
  strcpy(fs->dir, dir);
  fs->store = (holo_warm_store){fs, fs_get, fs_put};
  fs->max_bytes = max_bytes;
  fs->max_entries = max_entries;
  fs->clock = realtime_ns;
  int64_t now = realtime_ns(0);
  /* distinct temporary names across processes sharing DIR (write_tmp
   * still refuses an existing one) and a hash seed no file name knows */
  fs->tmp_seq = (uint64_t)now;
  holo_store_index_init(&fs->index, (uint64_t)now ^ (uint64_t)(uintptr_t)fs);
  holo_status s = holo_file_store_scan(fs, err);
  if (s) {
    holo_store_index_free(&fs->index);
    return s;
  }
  evict(fs, 0, 0);
  return HOLO_OK;
}

holo_status holo_file_store_open(holo_file_store *fs, const char *dir, holo_error *err) {
  return holo_file_store_open_bounded(fs, dir, HOLO_FILE_STORE_MAX_BYTES, HOLO_FILE_STORE_MAX_ENTRIES, err);
}

void holo_file_store_close(holo_file_store *fs) {
  free(fs->last);
  fs->last = 0;
  holo_store_index_free(&fs->index);
}

uint32_t holo_file_store_count(const holo_file_store *fs) { return fs->index.n; }
uint64_t holo_file_store_bytes(const holo_file_store *fs) { return fs->index.bytes; }
