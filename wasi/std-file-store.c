#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* Only a strictly valid label becomes a file name: no path tricks. */
static bool label_ok(const char *label) {
  if (!label || strncmp(label, "sha256:", 7) != 0 || strlen(label) != HOLO_LABEL_LEN) return false;
  for (int i = 7; i < HOLO_LABEL_LEN; i++) {
    char c = label[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

static void path_for(const holo_file_store *fs, const char *label, char *out, size_t cap) {
  snprintf(out, cap, "%s/sha256-%s.hws", fs->dir, label + 7);
}

static holo_status fs_get(void *ctx, const char *label, const uint8_t **bytes, size_t *len) {
  holo_file_store *fs = ctx;
  char path[1200];
  *bytes = 0;
  *len = 0;
  if (!label_ok(label)) return HOLO_ERR_STORE;
  path_for(fs, label, path, sizeof path);
  free(fs->last);
  fs->last = 0;
  uint8_t *p;
  size_t n;
  if (holo_read_file(path, &p, &n, 0) != HOLO_OK) return HOLO_ERR_STORE;
  fs->last = p;
  fs->last_len = n;
  *bytes = p;
  *len = n;
  return HOLO_OK;
}

static holo_status fs_put(void *ctx, const char *label, const uint8_t *bytes, size_t len) {
  holo_file_store *fs = ctx;
  char path[1200], tmp[1300];
  if (!label_ok(label)) return HOLO_ERR_STORE;
  path_for(fs, label, path, sizeof path);
  snprintf(tmp, sizeof tmp, "%s/.tmp-%s-%llu", fs->dir, label + 7, (unsigned long long)fs->tmp_seq++);
  FILE *f = fopen(tmp, "wb");
  if (!f) return HOLO_ERR_STORE;
  bool ok = fwrite(bytes, 1, len, f) == len;
  ok = (fclose(f) == 0) && ok;
  if (!ok || rename(tmp, path) != 0) {
    remove(tmp);
    return HOLO_ERR_STORE;
  }
  return HOLO_OK;
}

holo_status holo_file_store_open(holo_file_store *fs, const char *dir, holo_error *err) {
  memset(fs, 0, sizeof *fs);
  if (!dir || strlen(dir) >= sizeof fs->dir) return fail(err, HOLO_ERR_ARG, "warm store path too long", dir ? dir : "(null)");
  struct stat st;
  if (stat(dir, &st) != 0) {
    if (mkdir(dir, 0755) != 0) return fail(err, HOLO_ERR_STORE, strerror(errno), dir);
  } else if (!S_ISDIR(st.st_mode)) {
    return fail(err, HOLO_ERR_STORE, "warm store is not a directory", dir);
  }
  strcpy(fs->dir, dir);
  fs->store = (holo_warm_store){fs, fs_get, fs_put};
  return HOLO_OK;
}

void holo_file_store_close(holo_file_store *fs) {
  free(fs->last);
  fs->last = 0;
}
