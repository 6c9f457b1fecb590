#include "holo_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "hologram/cpu_backend.h"
#include "holo-std.h"

/* The session keeps pointers to *be and the archive bytes: they must live in
 * the caller's fixture, not in a copy. */
static void load(const char *name, const holo_options *o, uint8_t **bytes, size_t *len, holo_backend *be,
                 holo_session **s) {
  char path[256];
  holo_error err = {0};
  snprintf(path, sizeof path, "tests/fixtures/%s.holo", name);
  if (holo_read_file(path, bytes, len, &err)) fail_msg("%s", err.message);
  holo_cpu_backend_init(be);
  holo_options def = {holo_std_allocator(), 0, 0, 0};
  if (holo_session_load(*bytes, *len, be, o ? o : &def, s, &err)) fail_msg("load %s: %s", name, err.message);
}

void fx_open(fx *f, const char *name, const holo_options *o) {
  load(name, o, &f->bytes, &f->len, &f->be, &f->s);
}

void fx_close(fx *f) {
  holo_session_free(f->s);
  free(f->bytes);
}

void gfx_open(gfx *f, const char *name, const holo_options *o, const holo_causal_model *m,
              const holo_input *init) {
  load(name, o, &f->bytes, &f->len, &f->be, &f->s);
  holo_causal_model def;
  holo_causal_model_default(&def);
  holo_error err = {0};
  if (holo_gen_init(&f->g, f->s, m ? m : &def, init, holo_std_allocator(), &err))
    fail_msg("gen %s: %s", name, err.message);
}

void gfx_close(gfx *f) {
  holo_gen_free(&f->g);
  holo_session_free(f->s);
  free(f->bytes);
}

void gfx_greedy_feed(holo_gen *g, uint32_t v, uint32_t n, uint32_t *out) {
  holo_error err = {0};
  for (uint32_t i = 0; i < n; i++) {
    out[i] = holo_argmax(g->logits, v, 0);
    if (holo_gen_feed(g, out[i], &err)) fail_msg("feed: %s", err.message);
  }
}
