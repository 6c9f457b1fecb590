/* FileSource (holo-std.h): an archive read by range with pread -- natively
 * POSIX, under WASI fd_pread on the preopened file -- so that a session
 * holds its constants under a weight budget instead of the whole file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "holo-std.h"

static holo_status src_read(void *ctx, uint64_t off, void *dst, size_t len) {
  holo_file_source *fs = ctx;
  uint8_t *p = dst;
  while (len) {
    ssize_t r = pread(fs->fd, p, len, (off_t)off);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return HOLO_ERR_IO; /* an error, or the file shrank */
    p += r;
    off += (uint64_t)r;
    len -= (size_t)r;
  }
  return HOLO_OK;
}

static uint64_t src_clock(void *ctx) {
  (void)ctx;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

holo_status holo_file_source_open(holo_file_source *fs, const char *path, holo_error *err) {
  memset(fs, 0, sizeof *fs);
  fs->fd = open(path, O_RDONLY);
  struct stat st;
  if (fs->fd < 0 || fstat(fs->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    int e = fs->fd < 0 ? errno : EINVAL;
    if (fs->fd >= 0) close(fs->fd);
    fs->fd = -1;
    if (err) {
      err->status = HOLO_ERR_IO;
      snprintf(err->message, sizeof err->message, "%s: cannot open as a regular file: %s", path, strerror(e));
    }
    return HOLO_ERR_IO;
  }
  fs->source = (holo_source){fs, (uint64_t)st.st_size, src_read, src_clock};
  return HOLO_OK;
}

void holo_file_source_close(holo_file_source *fs) {
  if (fs->fd >= 0) close(fs->fd);
  fs->fd = -1;
}
