/* FileWarmStore bounds (wasi/std-file-store.c, issue 22): LRU eviction by
 * bytes and by records, recency refreshed by get and kept across reopen
 * (file mtimes), broken entries removed as misses, records over the bound,
 * zero and absurd bounds, and the index (wasi/std-store-index.c) against a
 * reference model. Runs natively (ASan, valgrind) and as wasm under
 * node:wasi, where a test directory is a fresh one under the runner's /tmp
 * (WASI has no mkdtemp) and mtimes keep whole seconds only. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
/* after the headers it needs (<setjmp.h>, <stdarg.h>, <stddef.h>) */
#include <cmocka.h>

#include "holo-std.h"
#include "hologram/holo.h"
#include "util/holo_fixture.h"

/* --- a directory per test --- */

static void rm_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  char path[1200];
  for (struct dirent *de; (de = readdir(d));) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
      rm_tree(path);
    else
      remove(path);
  }
  closedir(d);
  rmdir(dir);
}

static void fresh_dir(char *dir, size_t cap, const char *name) {
#ifdef __wasi__
  snprintf(dir, cap, "/tmp/fs-%s", name); /* the runner's /tmp is fresh per suite */
  rm_tree(dir);
  assert_int_equal(mkdir(dir, 0755), 0);
#else
  snprintf(dir, cap, "/tmp/holo-fs-%s-XXXXXX", name);
  assert_non_null(mkdtemp(dir));
#endif
}

/* --- records, labels and what the directory holds --- */

static void label_of(unsigned i, char out[HOLO_LABEL_LEN + 1]) {
  snprintf(out, HOLO_LABEL_LEN + 1, "sha256:%064x", i);
}

static void path_of(const char *dir, unsigned i, char *out, size_t cap) {
  char l[HOLO_LABEL_LEN + 1];
  label_of(i, l);
  snprintf(out, cap, "%s/sha256-%s.hws", dir, l + 7);
}

static holo_status put(holo_file_store *fs, unsigned i, size_t len) {
  static uint8_t buf[4096];
  char l[HOLO_LABEL_LEN + 1];
  label_of(i, l);
  for (size_t k = 0; k < len; k++)
    buf[k] = (uint8_t)(i * 31 + k);
  return fs->store.put(fs->store.ctx, l, buf, len);
}

/* get, and check the bytes are the ones put(i, len) wrote */
static bool get(holo_file_store *fs, unsigned i) {
  char l[HOLO_LABEL_LEN + 1];
  label_of(i, l);
  const uint8_t *p;
  size_t n;
  if (fs->store.get(fs->store.ctx, l, &p, &n) != HOLO_OK) return false;
  for (size_t k = 0; k < n; k++)
    if (p[k] != (uint8_t)(i * 31 + k)) fail_msg("record %u: byte %zu differs", i, k);
  return true;
}

static bool on_disk(const char *dir, unsigned i) {
  char path[1200];
  path_of(dir, i, path, sizeof path);
  struct stat st;
  return stat(path, &st) == 0;
}

/* records on disk and their total size (only sha256-*.hws names count) */
static uint32_t disk_records(const char *dir, uint64_t *bytes) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  uint32_t n = 0;
  *bytes = 0;
  uint8_t key[32];
  char path[1200];
  for (struct dirent *de; (de = readdir(d));) {
    if (!holo_store_name_key(de->d_name, key)) continue;
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    n++;
    *bytes += (uint64_t)st.st_size;
  }
  closedir(d);
  return n;
}

/* The store's view equals the directory. */
static void assert_view_is_disk(const holo_file_store *fs) {
  uint64_t bytes;
  assert_int_equal(disk_records(fs->dir, &bytes), holo_file_store_count(fs));
  assert_int_equal(bytes, holo_file_store_bytes(fs));
}

/* A clock one second per reading: the order of uses is then visible in
 * mtimes even where the file system keeps whole seconds (node:wasi). */
static int64_t fake_now(void *ctx) {
  int64_t *t = ctx;
  return *t += 1000000000;
}

static void open_fake(holo_file_store *fs, const char *dir, uint64_t max_bytes, uint64_t max_entries,
                      int64_t *t) {
  holo_error err = {0};
  assert_int_equal(holo_file_store_open_bounded(fs, dir, max_bytes, max_entries, &err), HOLO_OK);
  fs->clock = fake_now;
  fs->clock_ctx = t;
}

static int64_t T0 = 1600000000ll * 1000000000; /* 2020-09-13 */

/* --- tests --- */

static void evicts_least_recent_by_entries(void **st) {
  (void)st;
  char dir[256];
  fresh_dir(dir, sizeof dir, "entries");
  holo_file_store fs;
  int64_t t = T0;
  open_fake(&fs, dir, 1 << 20, 3, &t);
  for (unsigned i = 1; i <= 3; i++)
    assert_int_equal(put(&fs, i, 10), HOLO_OK);
  assert_int_equal(holo_file_store_count(&fs), 3);
  assert_int_equal(put(&fs, 4, 10), HOLO_OK);
  assert_false(on_disk(dir, 1)); /* the oldest went */
  for (unsigned i = 2; i <= 4; i++)
    assert_true(on_disk(dir, i));
  assert_int_equal(fs.evicted, 1);
  assert_int_equal(put(&fs, 5, 10), HOLO_OK);
  assert_false(on_disk(dir, 2));
  assert_false(get(&fs, 1));
  assert_true(get(&fs, 3) && get(&fs, 4) && get(&fs, 5));
  assert_view_is_disk(&fs);
  /* re-putting a kept label replaces it: no eviction, one record */
  assert_int_equal(put(&fs, 4, 10), HOLO_OK);
  assert_int_equal(holo_file_store_count(&fs), 3);
  assert_int_equal(fs.evicted, 2);
  holo_file_store_close(&fs);
  rm_tree(dir);
}

static void evicts_least_recent_by_bytes(void **st) {
  (void)st;
  char dir[256];
  fresh_dir(dir, sizeof dir, "bytes");
  holo_file_store fs;
  int64_t t = T0;
  open_fake(&fs, dir, 100, 1000, &t);
  assert_int_equal(put(&fs, 1, 40), HOLO_OK);
  assert_int_equal(put(&fs, 2, 40), HOLO_OK);
  assert_int_equal(put(&fs, 3, 20), HOLO_OK); /* exactly 100: fits */
  assert_int_equal(holo_file_store_bytes(&fs), 100);
  assert_int_equal(fs.evicted, 0);
  assert_int_equal(put(&fs, 4, 30), HOLO_OK); /* 1 goes: 90 */
  assert_false(on_disk(dir, 1));
  assert_int_equal(holo_file_store_bytes(&fs), 90);
  assert_int_equal(put(&fs, 5, 60), HOLO_OK); /* 2 and 3 go: 90 */
  assert_false(on_disk(dir, 2));
  assert_false(on_disk(dir, 3));
  assert_true(on_disk(dir, 4) && on_disk(dir, 5));
  assert_view_is_disk(&fs);
  /* many puts of random sizes (and replacements): never over the bound */
  uint32_t r = 12345;
  for (int k = 0; k < 300; k++) {
    r = r * 1103515245u + 12345u;
    unsigned label = 10 + (r >> 16) % 40;
    size_t len = 1 + (r >> 8) % 60;
    assert_int_equal(put(&fs, label, len), HOLO_OK);
    assert_true(holo_file_store_bytes(&fs) <= 100);
    assert_true(get(&fs, label));
  }
  assert_view_is_disk(&fs);
  holo_file_store_close(&fs);
  rm_tree(dir);
}

static void get_refreshes_recency(void **st) {
  (void)st;
  char dir[256];
  fresh_dir(dir, sizeof dir, "recency");
  holo_file_store fs;
  int64_t t = T0;
  open_fake(&fs, dir, 1 << 20, 3, &t);
  for (unsigned i = 1; i <= 3; i++)
    assert_int_equal(put(&fs, i, 10), HOLO_OK);
  assert_true(get(&fs, 1)); /* 1 is now the most recent: 2 is the oldest */
  assert_int_equal(put(&fs, 4, 10), HOLO_OK);
  assert_true(on_disk(dir, 1));
  assert_false(on_disk(dir, 2));
  /* and the use is on disk: 1's mtime is after 3's */
  char p1[1200], p3[1200];
  path_of(dir, 1, p1, sizeof p1);
  path_of(dir, 3, p3, sizeof p3);
  struct stat s1, s3;
  assert_int_equal(stat(p1, &s1), 0);
  assert_int_equal(stat(p3, &s3), 0);
  assert_true(s1.st_mtim.tv_sec > s3.st_mtim.tv_sec);
  holo_file_store_close(&fs);
  rm_tree(dir);
}

static void reopen_keeps_order(void **st) {
  (void)st;
  char dir[256];
  fresh_dir(dir, sizeof dir, "reopen");
  holo_file_store fs;
  int64_t t = T0;
  open_fake(&fs, dir, 1 << 20, 10, &t);
  /* labels whose name order is not their use order: a listing that fell
   * back to names would keep the wrong ones */
  const unsigned use[] = {7, 3, 9, 1, 5};
  for (int k = 0; k < 5; k++)
    assert_int_equal(put(&fs, use[k], 16), HOLO_OK);
  assert_true(get(&fs, 3)); /* order now 7 9 1 5 3 */
  holo_file_store_close(&fs);
  /* same bounds: nothing evicted at open; the next put evicts 7 once full */
  open_fake(&fs, dir, 1 << 20, 5, &t);
  assert_int_equal(holo_file_store_count(&fs), 5);
  assert_int_equal(holo_file_store_bytes(&fs), 80);
  assert_int_equal(put(&fs, 11, 16), HOLO_OK);
  assert_false(on_disk(dir, 7));
  assert_true(on_disk(dir, 9));
  holo_file_store_close(&fs); /* order: 9 1 5 3 11 */
  /* a smaller bound at open evicts the oldest down to it */
  open_fake(&fs, dir, 1 << 20, 2, &t);
  assert_int_equal(fs.evicted, 3);
  assert_true(on_disk(dir, 3) && on_disk(dir, 11));
  assert_false(on_disk(dir, 9) || on_disk(dir, 1) || on_disk(dir, 5));
  holo_file_store_close(&fs);
  open_fake(&fs, dir, 20, 10, &t); /* by bytes: only the newest 16 fit */
  assert_true(on_disk(dir, 11));
  assert_false(on_disk(dir, 3));
  assert_view_is_disk(&fs);
  holo_file_store_close(&fs);
  rm_tree(dir);
}

/* The real clock: nanoseconds natively; node:wasi keeps whole seconds, so
 * there the uses are a second apart. */
static void reopen_keeps_order_real_clock(void **st) {
  (void)st;
  char dir[256];
  fresh_dir(dir, sizeof dir, "realclock");
  holo_file_store fs;
  holo_error err = {0};
  assert_int_equal(holo_file_store_open_bounded(&fs, dir, 1 << 20, 10, &err), HOLO_OK);
  const unsigned use[] = {8, 2, 6, 4};
  for (int k = 0; k < 4; k++) {
#ifdef __wasi__
    nanosleep(&(struct timespec){1, 50000000}, 0);
#endif
    assert_int_equal(put(&fs, use[k], 8), HOLO_OK);
  }
#ifdef __wasi__
  nanosleep(&(struct timespec){1, 50000000}, 0);
#endif
  assert_true(get(&fs, 8)); /* order: 2 6 4 8 */
  holo_file_store_close(&fs);
  assert_int_equal(holo_file_store_open_bounded(&fs, dir, 1 << 20, 2, &err), HOLO_OK);
  assert_true(on_disk(dir, 4) && on_disk(dir, 8));
  assert_false(on_disk(dir, 2) || on_disk(dir, 6));
  holo_file_store_close(&fs);
  rm_tree(dir);
}

static void write_file(const char *path, const void *b, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  if (n) assert_int_equal(fwrite(b, 1, n, f), n);
  assert_int_equal(fclose(f), 0);
}

static void broken_entries_are_misses_and_removed(void **st) {
  (void)st;
  char dir[256], path[1200];
  fresh_dir(dir, sizeof dir, "broken");
  /* before open: an empty record (a write cut by power loss), a directory
   * under a record's name, and a file that is not a record */
  path_of(dir, 1, path, sizeof path);
  write_file(path, "", 0);
  path_of(dir, 2, path, sizeof path);
  assert_int_equal(mkdir(path, 0755), 0);
  snprintf(path, sizeof path, "%s/notes.txt", dir);
  write_file(path, "keep me", 7);
  holo_file_store fs;
  int64_t t = T0;
  open_fake(&fs, dir, 1 << 20, 10, &t);
  assert_int_equal(fs.removed, 1);
  assert_false(on_disk(dir, 1));
  assert_int_equal(holo_file_store_count(&fs), 0);
  assert_false(get(&fs, 2)); /* a directory: a miss, left alone */
  assert_true(on_disk(dir, 2));
  /* after open: a record emptied behind the store's back */
  assert_int_equal(put(&fs, 3, 50), HOLO_OK);
  assert_int_equal(put(&fs, 4, 50), HOLO_OK);
  path_of(dir, 3, path, sizeof path);
  write_file(path, "", 0);
  assert_false(get(&fs, 3));
  assert_false(on_disk(dir, 3));
  assert_int_equal(fs.removed, 2);
  assert_int_equal(holo_file_store_count(&fs), 1);
  assert_int_equal(holo_file_store_bytes(&fs), 50);
  /* a record deleted behind its back (another process's eviction) */
  path_of(dir, 4, path, sizeof path);
  assert_int_equal(remove(path), 0);
  assert_false(get(&fs, 4));
  assert_int_equal(holo_file_store_count(&fs), 0);
  snprintf(path, sizeof path, "%s/notes.txt", dir);
  struct stat sb;
  assert_int_equal(stat(path, &sb), 0);
  holo_file_store_close(&fs);
  rm_tree(dir);
}

/* A record whose bytes no longer match its digest is the core's to detect
 * (the store keeps opaque bytes): counted, recomputed, and the recomputed
 * record replaces it in the store and its index. */
static void corrupt_record_is_replaced(void **st) {
  (void)st;
  char dir[256];
  fresh_dir(dir, sizeof dir, "corrupt");
  holo_file_store fs;
  holo_error err = {0};
  assert_int_equal(holo_file_store_open_bounded(&fs, dir, 1 << 20, 10, &err), HOLO_OK);
  holo_options o = {holo_std_allocator(), 0, &fs.store, 0};
  fx a;
  fx_open(&a, "cone", &o);
  fx_close(&a);
  assert_int_equal(holo_file_store_count(&fs), 1);
  uint64_t good = holo_file_store_bytes(&fs);
  DIR *d = opendir(dir);
  char path[1200] = "";
  uint8_t key[32];
  for (struct dirent *de; (de = readdir(d));)
    if (holo_store_name_key(de->d_name, key)) snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
  closedir(d);
  uint8_t *rec;
  size_t n;
  assert_int_equal(holo_read_file(path, &rec, &n, &err), HOLO_OK);
  rec[n - 3] ^= 0x40;
  write_file(path, rec, n - 1); /* flipped and one byte short */
  free(rec);
  fx_open(&a, "cone", &o);
  holo_counters c;
  holo_session_counters(a.s, &c);
  assert_int_equal(c.store_corrupt, 1);
  assert_int_equal(c.dispatches, 1);
  assert_int_equal(c.store_puts, 1);
  fx_close(&a);
  assert_int_equal(holo_file_store_count(&fs), 1);
  assert_int_equal(holo_file_store_bytes(&fs), good);
  assert_view_is_disk(&fs);
  fx_open(&a, "cone", &o);
  holo_session_counters(a.s, &c);
  assert_int_equal(c.store_hits, 1);
  assert_int_equal(c.dispatches, 0);
  fx_close(&a);
  holo_file_store_close(&fs);
  rm_tree(dir);
}

/* Larger than max_bytes: not stored (HOLO_ERR_STORE), nothing evicted for
 * it. Empty: not stored either. */
static void record_over_the_bound_is_not_stored(void **st) {
  (void)st;
  char dir[256];
  fresh_dir(dir, sizeof dir, "over");
  holo_file_store fs;
  int64_t t = T0;
  open_fake(&fs, dir, 100, 10, &t);
  assert_int_equal(put(&fs, 1, 30), HOLO_OK);
  assert_int_equal(put(&fs, 2, 101), HOLO_ERR_STORE);
  assert_false(on_disk(dir, 2));
  assert_true(on_disk(dir, 1));
  assert_int_equal(fs.evicted, 0);
  assert_int_equal(put(&fs, 3, 0), HOLO_ERR_STORE);
  assert_false(on_disk(dir, 3));
  assert_int_equal(put(&fs, 4, 100), HOLO_OK); /* exactly the bound: the rest goes */
  assert_false(on_disk(dir, 1));
  assert_int_equal(holo_file_store_count(&fs), 1);
  assert_view_is_disk(&fs);
  holo_file_store_close(&fs);
  rm_tree(dir);
}

static void zero_and_absurd_bounds(void **st) {
  (void)st;
  char dir[256];
  fresh_dir(dir, sizeof dir, "bounds");
  holo_file_store fs;
  holo_error err = {0};
  assert_int_equal(holo_file_store_open_bounded(&fs, dir, 0, 10, &err), HOLO_ERR_ARG);
  assert_non_null(strstr(err.message, "max bytes"));
  assert_int_equal(holo_file_store_open_bounded(&fs, dir, 100, 0, &err), HOLO_ERR_ARG);
  assert_non_null(strstr(err.message, "max entries"));
  assert_int_equal(holo_file_store_open_bounded(&fs, dir, 100, HOLO_FILE_STORE_ENTRIES_LIMIT + 1ull, &err),
                   HOLO_ERR_ARG);
  assert_int_equal(holo_file_store_open_bounded(&fs, dir, 100, UINT64_MAX, &err), HOLO_ERR_ARG);
  holo_file_store_close(&fs); /* after a failed open: nothing to free, no crash */
  /* the largest bounds: no overflow in the arithmetic */
  assert_int_equal(holo_file_store_open_bounded(&fs, dir, UINT64_MAX, HOLO_FILE_STORE_ENTRIES_LIMIT, &err),
                   HOLO_OK);
  for (unsigned i = 1; i <= 20; i++)
    assert_int_equal(put(&fs, i, 64), HOLO_OK);
  assert_int_equal(holo_file_store_count(&fs), 20);
  assert_int_equal(fs.evicted, 0);
  holo_file_store_close(&fs);
  /* the smallest: one record of one byte */
  assert_int_equal(holo_file_store_open_bounded(&fs, dir, 1, 1, &err), HOLO_OK);
  assert_int_equal(holo_file_store_count(&fs), 0); /* the 64-byte records are over it */
  assert_int_equal(fs.evicted, 20);
  assert_int_equal(put(&fs, 1, 2), HOLO_ERR_STORE);
  assert_int_equal(put(&fs, 1, 1), HOLO_OK);
  assert_int_equal(put(&fs, 2, 1), HOLO_OK);
  assert_false(on_disk(dir, 1));
  assert_true(get(&fs, 2));
  assert_view_is_disk(&fs);
  holo_file_store_close(&fs);
  /* the defaults */
  assert_int_equal(holo_file_store_open(&fs, dir, &err), HOLO_OK);
  assert_int_equal(fs.max_bytes, HOLO_FILE_STORE_MAX_BYTES);
  assert_int_equal(fs.max_entries, HOLO_FILE_STORE_MAX_ENTRIES);
  assert_int_equal(HOLO_FILE_STORE_MAX_BYTES, 1ull << 30);
  assert_int_equal(holo_file_store_count(&fs), 1);
  holo_file_store_close(&fs);
  rm_tree(dir);
}

static void set_mtime(const char *path, int64_t sec) {
  struct timespec ts[2] = {{(time_t)sec, 0}, {(time_t)sec, 0}};
  assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* Temporary files: a stale one of this store's form is a dead writer's and
 * goes at open; a fresh one (a live writer) and the Node adapter's stay. A
 * put never writes into a temporary name that exists. */
static void temporary_files(void **st) {
  (void)st;
  char dir[256], stale[1200], fresh[1200], node[1200], taken[1200];
  fresh_dir(dir, sizeof dir, "tmp");
  char l[HOLO_LABEL_LEN + 1];
  label_of(5, l);
  snprintf(stale, sizeof stale, "%s/.tmp-%s-17", dir, l + 7);
  snprintf(fresh, sizeof fresh, "%s/.tmp-%s-18", dir, l + 7);
  snprintf(node, sizeof node, "%s/.tmp-%s-4242-3", dir, l + 7);
  write_file(stale, "half", 4);
  write_file(fresh, "half", 4);
  write_file(node, "half", 4);
  int64_t now = (int64_t)time(0);
  set_mtime(stale, now - 2 * HOLO_FILE_STORE_TMP_STALE_S);
  set_mtime(node, now - 2 * HOLO_FILE_STORE_TMP_STALE_S);
  holo_file_store fs;
  holo_error err = {0};
  assert_int_equal(holo_file_store_open_bounded(&fs, dir, 1000, 10, &err), HOLO_OK);
  struct stat sb;
  assert_int_not_equal(stat(stale, &sb), 0);
  assert_int_equal(stat(fresh, &sb), 0);
  assert_int_equal(stat(node, &sb), 0);
  assert_int_equal(holo_file_store_count(&fs), 0);
  fs.tmp_seq = 18; /* the next name is taken by another writer */
  snprintf(taken, sizeof taken, "%s", fresh);
  assert_int_equal(put(&fs, 5, 40), HOLO_OK);
  assert_true(get(&fs, 5));
  uint8_t *b;
  size_t n;
  assert_int_equal(holo_read_file(taken, &b, &n, &err), HOLO_OK);
  assert_int_equal(n, 4);
  assert_memory_equal(b, "half", 4);
  free(b);
  holo_file_store_close(&fs);
  rm_tree(dir);
}

/* Two stores on one directory (two processes, in one): a record the other
 * wrote joins this view on get; one the other evicted leaves it. */
static void shared_directory(void **st) {
  (void)st;
  char dir[256];
  fresh_dir(dir, sizeof dir, "shared");
  holo_file_store a, b;
  int64_t ta = T0, tb = T0 + 500000000;
  open_fake(&a, dir, 1000, 2, &ta);
  open_fake(&b, dir, 1000, 10, &tb);
  assert_int_equal(put(&a, 1, 10), HOLO_OK);
  assert_int_equal(holo_file_store_count(&b), 0);
  assert_true(get(&b, 1));
  assert_int_equal(holo_file_store_count(&b), 1);
  assert_int_equal(put(&a, 2, 10), HOLO_OK);
  assert_int_equal(put(&a, 3, 10), HOLO_OK); /* a evicts 1 */
  assert_false(get(&b, 1));
  assert_int_equal(holo_file_store_count(&b), 0);
  holo_file_store_close(&a);
  holo_file_store_close(&b);
  rm_tree(dir);
}

/* --- the index against a reference: a recency array --- */

static void key_of(uint32_t i, uint8_t k[32]) {
  memset(k, 0, 32);
  /* keys differing in one byte only, and some in the last: every byte is hashed */
  k[i % 32] = (uint8_t)(i >> 5);
  k[(i >> 13) % 32] ^= (uint8_t)(i >> 3);
  memcpy(k + 28, &i, 4);
}

static void index_matches_reference(void **st) {
  (void)st;
  enum { KEYS = 3000, OPS = 40000 };
  holo_store_index ix;
  holo_store_index_init(&ix, 99);
  static uint32_t order[KEYS]; /* reference: keys, oldest first */
  static uint64_t size[KEYS];
  uint32_t n = 0;
  uint64_t bytes = 0;
  uint32_t r = 7;
  uint8_t k[32];
  for (int op = 0; op < OPS; op++) {
    r = r * 1664525u + 1013904223u;
    uint32_t key = (r >> 8) % KEYS, what = r % 4;
    key_of(key, k);
    uint32_t pos = HOLO_STORE_NONE;
    for (uint32_t j = 0; j < n; j++)
      if (order[j] == key) pos = j;
    uint32_t i = holo_store_index_find(&ix, k);
    assert_int_equal(i == HOLO_STORE_NONE, pos == HOLO_STORE_NONE);
    if (what <= 1) { /* set: insert or update, most recent */
      uint64_t len = 1 + r % 1000;
      if (pos != HOLO_STORE_NONE) {
        bytes -= size[key];
        memmove(order + pos, order + pos + 1, (n - pos - 1) * sizeof *order);
        n--;
      }
      order[n++] = key;
      size[key] = len;
      bytes += len;
      assert_true(holo_store_index_set(&ix, k, len));
    } else if (what == 2 && pos != HOLO_STORE_NONE) { /* touch */
      memmove(order + pos, order + pos + 1, (n - pos - 1) * sizeof *order);
      order[n - 1] = key;
      holo_store_index_touch(&ix, i);
    } else if (pos != HOLO_STORE_NONE) { /* remove */
      bytes -= size[key];
      memmove(order + pos, order + pos + 1, (n - pos - 1) * sizeof *order);
      n--;
      holo_store_index_remove_at(&ix, i);
    }
    assert_int_equal(ix.n, n);
    assert_int_equal(ix.bytes, bytes);
  }
  /* the recency list, oldest to newest, is the reference order */
  uint32_t j = 0;
  for (uint32_t i = ix.oldest; i != HOLO_STORE_NONE; i = ix.e[i].newer, j++) {
    key_of(order[j], k);
    assert_memory_equal(ix.e[i].key, k, 32);
    assert_int_equal(ix.e[i].bytes, size[order[j]]);
  }
  assert_int_equal(j, n);
  for (uint32_t key = 0; key < KEYS; key++) {
    key_of(key, k);
    bool present = false;
    for (uint32_t q = 0; q < n; q++)
      present |= order[q] == key;
    assert_int_equal(holo_store_index_find(&ix, k) != HOLO_STORE_NONE, present);
  }
  assert_false(holo_store_index_reserve(&ix, HOLO_FILE_STORE_ENTRIES_LIMIT + 1u));
  holo_store_index_free(&ix);
  holo_store_index_free(&ix); /* twice: harmless */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(evicts_least_recent_by_entries),
      cmocka_unit_test(evicts_least_recent_by_bytes),
      cmocka_unit_test(get_refreshes_recency),
      cmocka_unit_test(reopen_keeps_order),
      cmocka_unit_test(reopen_keeps_order_real_clock),
      cmocka_unit_test(broken_entries_are_misses_and_removed),
      cmocka_unit_test(corrupt_record_is_replaced),
      cmocka_unit_test(record_over_the_bound_is_not_stored),
      cmocka_unit_test(zero_and_absurd_bounds),
      cmocka_unit_test(temporary_files),
      cmocka_unit_test(shared_directory),
      cmocka_unit_test(index_matches_reference),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
