/* The FileWarmStore's listing at open (holo-std.h): one pass over DIR gives
 * every record's size and mtime; sorted by mtime they are the recency order
 * the previous processes left. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "holo-std.h"

typedef struct found {
  uint8_t key[32];
  uint64_t bytes;
  int64_t mtime_ns;
} found;

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1; /* upper case too: the store writes and reads lower case only */
}

static bool hex_key(const char *h, uint8_t key[32]) {
  for (int i = 0; i < 32; i++) {
    int a = hexval(h[2 * i]), b = hexval(h[2 * i + 1]);
    if (a < 0 || b < 0) return false;
    key[i] = (uint8_t)(a << 4 | b);
  }
  return true;
}

bool holo_store_name_key(const char *name, uint8_t key[32]) {
  return strlen(name) == 7 + 64 + 4 && !strncmp(name, "sha256-", 7) && !strcmp(name + 71, ".hws") &&
         hex_key(name + 7, key);
}

/* ".tmp-<64 hex>-<digits>": this store's temporary files (the Node
 * adapter's carry a pid, ".tmp-<hex>-<pid>-<seq>", and are its to clean). */
static bool is_own_tmp(const char *name) {
  uint8_t key[32];
  size_t n = strlen(name);
  if (n < 5 + 64 + 2 || strncmp(name, ".tmp-", 5) || !hex_key(name + 5, key) || name[69] != '-') return false;
  for (size_t i = 70; i < n; i++)
    if (name[i] < '0' || name[i] > '9') return false;
  return true;
}

static int by_age(const void *pa, const void *pb) {
  const found *a = pa, *b = pb;
  if (a->mtime_ns != b->mtime_ns) return a->mtime_ns < b->mtime_ns ? -1 : 1;
  return memcmp(a->key, b->key, 32); /* equal mtimes (whole-second clocks): by name */
}

static holo_status fail(holo_error *err, holo_status st, const char *dir, const char *msg) {
  if (err) {
    err->status = st;
    /* a long DIR cuts the message short: it still starts with the path */
    if (snprintf(err->message, sizeof err->message, "%s: %s", dir, msg) < 0) err->message[0] = 0;
  }
  return st;
}

/* One directory entry: appended to *list when it is a record. */
static holo_status visit(holo_file_store *fs, const char *name, found **list, size_t *n, size_t *cap,
                         int64_t now_ns) {
  uint8_t key[32];
  bool record = holo_store_name_key(name, key);
  if (!record && !is_own_tmp(name)) return HOLO_OK;
  char path[1200];
  snprintf(path, sizeof path, "%s/%s", fs->dir, name);
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return HOLO_OK; /* gone, or not ours to judge */
  int64_t mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
  if (!record) {
    if (now_ns - mtime > (int64_t)HOLO_FILE_STORE_TMP_STALE_S * 1000000000) remove(path);
    return HOLO_OK;
  }
  if (st.st_size == 0) { /* no record is empty: a write cut short by power loss */
    if (remove(path) == 0) fs->removed++;
    return HOLO_OK;
  }
  if (*n == *cap) {
    size_t c = *cap ? *cap * 2 : 256;
    found *p = realloc(*list, c * sizeof *p);
    if (!p) return fail(0, HOLO_ERR_MEMORY, fs->dir, "");
    *list = p;
    *cap = c;
  }
  found *f = &(*list)[(*n)++];
  memcpy(f->key, key, 32);
  f->bytes = (uint64_t)st.st_size;
  f->mtime_ns = mtime;
  return HOLO_OK;
}

holo_status holo_file_store_scan(holo_file_store *fs, holo_error *err) {
  DIR *d = opendir(fs->dir);
  if (!d) return fail(err, HOLO_ERR_STORE, fs->dir, strerror(errno));
  int64_t now = fs->clock(fs->clock_ctx);
  found *list = 0;
  size_t n = 0, cap = 0;
  holo_status st = HOLO_OK;
  for (struct dirent *de; !st && (de = readdir(d));)
    st = visit(fs, de->d_name, &list, &n, &cap, now);
  closedir(d);
  if (!st && n > HOLO_FILE_STORE_ENTRIES_LIMIT)
    st = fail(err, HOLO_ERR_STORE, fs->dir, "more records than a warm store indexes");
  else if (st)
    fail(err, st, fs->dir, "out of memory listing the warm store");
  if (!st && !holo_store_index_reserve(&fs->index, (uint32_t)n))
    st = fail(err, HOLO_ERR_MEMORY, fs->dir, "out of memory indexing the warm store");
  if (!st) {
    if (n) qsort(list, n, sizeof *list, by_age);
    for (size_t i = 0; i < n; i++)
      holo_store_index_set(&fs->index, list[i].key, list[i].bytes);
  }
  free(list);
  return st;
}
