/* Shared by the libFuzzer targets (tests/fuzz/fuzz_*.c; docs/fuzzing.md).
 * Header-only so each target is one translation unit plus the core.
 *
 * Every target starts from scratch for every input (fresh sessions, fresh
 * stores): no state crosses inputs, so every crash reproduces from its
 * input file alone. */
#ifndef HOLO_FUZZ_COMMON_H
#define HOLO_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hologram/cpu_backend.h"
#include "hologram/holo.h"
#include "holo-std.h"

/* ----------------------------------------------------------- allocation */

/* An allocator that can fail its k-th call (k = 0: never), so the
 * out-of-memory paths run too; it counts live blocks so a target can check
 * that a freed session released everything it took. */
typedef struct fz_alloc {
  holo_allocator a;
  uint64_t calls, fail_at, live;
} fz_alloc;

static void *fz_alloc_fn(void *ctx, size_t size, size_t align) {
  fz_alloc *f = ctx;
  if (f->fail_at && ++f->calls == f->fail_at) return NULL;
  if (!f->fail_at) f->calls++;
  if (align < sizeof(void *)) align = sizeof(void *);
  void *p = 0;
  if (posix_memalign(&p, align, size ? size : 1) != 0) return NULL;
  f->live++;
  return p;
}

static void fz_free_fn(void *ctx, void *p) {
  fz_alloc *f = ctx;
  if (!p) return;
  f->live--;
  free(p);
}

static inline void fz_alloc_init(fz_alloc *f, uint64_t fail_at) {
  memset(f, 0, sizeof *f);
  f->a = (holo_allocator){f, fz_alloc_fn, fz_free_fn};
  f->fail_at = fail_at;
}

/* ------------------------------------------------------------- checking */

#define FZ_CHECK(cond, ...)                                                           \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "fuzz invariant violated at %s:%d: %s\n  ", __FILE__, __LINE__, \
              #cond);                                                                 \
      fprintf(stderr, __VA_ARGS__);                                                   \
      fprintf(stderr, "\n");                                                          \
      abort();                                                                        \
    }                                                                                 \
  } while (0)

/* A failed call must say why: a known status and a non-empty message. */
static inline void fz_check_error(holo_status st, const holo_error *err) {
  FZ_CHECK(st > HOLO_OK && st <= HOLO_ERR_LIMIT, "unknown status %d", (int)st);
  FZ_CHECK(err->status == st, "err.status %d != returned %d", (int)err->status, (int)st);
  FZ_CHECK(err->message[0] != 0, "status %d without a message", (int)st);
  FZ_CHECK(memchr(err->message, 0, sizeof err->message) != NULL, "message not terminated");
}

/* ------------------------------------------------------------- fixtures */

typedef struct fz_file {
  uint8_t *bytes; /* 64-byte aligned (holo_read_file) */
  size_t len;
} fz_file;

/* Reads tests/fixtures/NAME.holo: from $HOLO_FIXTURES, ./tests/fixtures, or
 * relative to the binary (build/fuzz/<target> -> ../../tests/fixtures). */
static inline fz_file fz_fixture(const char *name, const char *argv0) {
  char path[2048];
  const char *dirs[3] = {getenv("HOLO_FIXTURES"), "tests/fixtures", 0};
  char rel[1024] = {0};
  if (argv0) {
    const char *slash = strrchr(argv0, '/');
    if (slash) {
      snprintf(rel, sizeof rel, "%.*s/../../tests/fixtures", (int)(slash - argv0), argv0);
      dirs[2] = rel;
    }
  }
  fz_file f = {0, 0};
  for (int i = 0; i < 3; i++) {
    if (!dirs[i]) continue;
    snprintf(path, sizeof path, "%s/%s.holo", dirs[i], name);
    if (holo_read_file(path, &f.bytes, &f.len, 0) == HOLO_OK) return f;
  }
  fprintf(stderr, "fuzz: cannot find fixture %s.holo (run from the repository root or set HOLO_FIXTURES)\n", name);
  exit(2);
}

/* -------------------------------------------------------------- inputs */

/* Input buffers for one execution: shapes chosen by the caller, bytes
 * filled from a pattern. */
#define FZ_MAX_PORTS 8
typedef struct fz_inputs {
  uint32_t n;
  holo_input in[FZ_MAX_PORTS];
  int64_t shape[FZ_MAX_PORTS][HOLO_MAX_RANK];
  uint8_t *buf[FZ_MAX_PORTS];
} fz_inputs;

static inline void fz_inputs_free(fz_inputs *x) {
  for (uint32_t i = 0; i < x->n; i++) free(x->buf[i]);
  memset(x, 0, sizeof *x);
}

/* Fills bytes cyclically from pat (zeros when pat_len is 0). */
static inline void fz_fill(uint8_t *p, size_t n, const uint8_t *pat, size_t pat_len) {
  if (!pat_len) {
    memset(p, 0, n);
    return;
  }
  for (size_t i = 0; i < n; i++) p[i] = pat[i % pat_len];
}

#endif
