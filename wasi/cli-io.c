/* Files for the `holo` program, with messages a user can act on. Under WASI
 * a path outside every preopened directory fails with ENOENT/ENOTCAPABLE;
 * that case is told apart (wasi-libc's preopen map) and named plainly. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __wasi__
#include <wasi/libc-find-relpath.h>
#endif

#include "holo-cli.h"
#include "holo-std.h"

int cli_fail(int code, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  for (char *p = msg; *p; p++)
    if (*p == '\n' || *p == '\r') *p = ' '; /* one line, always */
  fprintf(stderr, "holo: %s\n", msg);
  return code;
}

int holo_cli_fail(const char *what, const holo_error *err, int code) {
  return cli_fail(code, "%s: %s", what, err->message);
}

int cli_exit_code(holo_status st) {
  switch (st) {
  case HOLO_OK: return CLI_OK;
  case HOLO_ERR_FORMAT:
  case HOLO_ERR_UNSUPPORTED: return CLI_ARCHIVE;
  case HOLO_ERR_INPUT:
  case HOLO_ERR_ARG:
  case HOLO_ERR_KERNEL:
  case HOLO_ERR_STATE: return CLI_INPUT;
  default: return CLI_LIMIT; /* MEMORY, BUDGET, LIMIT, STORE */
  }
}

void cli_host_cwd(void) {
#ifdef __wasi__
  /* WASI has no working directory: wasi-libc's starts at "/", and a relative
   * path is looked up in the preopen whose name it starts with. When the
   * chdir fails (PWD unset, or outside every preopen: wasmtime --dir .),
   * that lookup stays as it was. */
  const char *pwd = getenv("PWD");
  if (pwd && pwd[0] == '/') (void)chdir(pwd);
#endif
}

/* True when, under WASI, `path` lies outside every preopened directory (or
 * the host refused it as escaping one). Natively always false. */
static bool outside_preopens(const char *path, int e) {
#ifdef __wasi__
  if (e == ENOTCAPABLE) return true;
  if (e != ENOENT) return false;
  const char *prefix = 0;
  char buf[4096], *rel = buf;
  errno = 0;
  int fd = __wasilibc_find_relpath(path, &prefix, &rel, sizeof buf);
  return fd < 0 && errno == ENOENT;
#else
  (void)path;
  (void)e;
  return false;
#endif
}

static int open_fail(const char *path, int e, int code, const char *verb) {
  if (outside_preopens(path, e))
    return cli_fail(code, "cannot %s %s: not inside a preopened directory — run with --dir . (or --dir of the directory holding it)",
                    verb, path);
#ifdef __wasi__
  if (e == ENOENT && path[0] == '/')
    return cli_fail(code, "cannot %s %s: %s (under WASI an absolute path is looked up inside the preopened "
                    "directories: preopen its directory, e.g. wasmtime --dir DIR::DIR)", verb, path, strerror(e));
#endif
  return cli_fail(code, "cannot %s %s: %s", verb, path, strerror(e));
}

int cli_read_file(const char *path, int code, uint8_t **bytes, size_t *len) {
  *bytes = 0;
  *len = 0;
  struct stat st;
  if (stat(path, &st) != 0) return open_fail(path, errno, code, "open");
  if (S_ISDIR(st.st_mode)) return cli_fail(code, "%s: is a directory, not a file", path);
  int fd = open(path, O_RDONLY);
  if (fd < 0) return open_fail(path, errno, code, "open");
  /* Read to end of file rather than trusting st_size (pipes, /proc). */
  size_t cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : 65536, n = 0;
  if (S_ISREG(st.st_mode) && (uint64_t)st.st_size >= (uint64_t)SIZE_MAX / 2) {
    close(fd);
    return cli_fail(CLI_LIMIT, "%s: %llu bytes is more than this build can address", path,
                    (unsigned long long)st.st_size);
  }
  uint8_t *p = 0;
  for (;;) {
    if (!p || n == cap) {
      size_t ncap = p ? cap * 2 : cap;
      uint8_t *q = 0;
      if (ncap < cap || posix_memalign((void **)&q, 64, ncap) != 0) {
        free(p);
        close(fd);
        return cli_fail(CLI_LIMIT, "%s: out of memory reading the file (%zu bytes so far)", path, n);
      }
      if (p) memcpy(q, p, n);
      free(p);
      p = q;
      cap = ncap;
    }
    ssize_t r = read(fd, p + n, cap - n);
    if (r < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      free(p);
      close(fd);
      return cli_fail(code, "cannot read %s: %s", path, strerror(e));
    }
    if (r == 0) break;
    n += (size_t)r;
  }
  close(fd);
  *bytes = p;
  *len = n;
  return 0;
}

int cli_write_file(const char *path, int code, const void *head, size_t head_len, const void *body, size_t len) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return cli_fail(code, "%s: is a directory, not a file", path);
  FILE *f = fopen(path, "wb");
  if (!f) return open_fail(path, errno, code, "create");
  bool ok = (!head_len || fwrite(head, 1, head_len, f) == head_len) && (!len || fwrite(body, 1, len, f) == len);
  int e = errno;
  if (fclose(f) != 0 && ok) {
    ok = false;
    e = errno;
  }
  if (!ok) {
    remove(path);
    return cli_fail(e == ENOSPC ? CLI_LIMIT : code, "cannot write %s: %s", path, strerror(e));
  }
  return 0;
}

int cli_open_store(struct holo_file_store *fs, const char *dir, uint64_t max_bytes, uint64_t max_entries) {
  int rc = cli_ensure_dir(dir, CLI_INPUT, "warm store");
  if (rc) return rc;
  holo_error err = {0};
  if (holo_file_store_open_bounded(fs, dir, max_bytes ? max_bytes : HOLO_FILE_STORE_MAX_BYTES,
                                   max_entries ? max_entries : HOLO_FILE_STORE_MAX_ENTRIES, &err))
    return cli_fail(CLI_INPUT, "%s", err.message);
  return 0;
}

int cli_ensure_dir(const char *dir, int code, const char *what) {
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (!S_ISDIR(st.st_mode)) return cli_fail(code, "%s: %s is not a directory", dir, what);
    return 0;
  }
  int e = errno;
  if (e != ENOENT || outside_preopens(dir, e)) return open_fail(dir, e, code, "open");
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) return open_fail(dir, errno, code, "create");
  return 0;
}
