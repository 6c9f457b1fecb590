/* Opens tests/fixtures/<name>.holo as a session with the std allocator:
 * shared by the session-level C tests. Fails the test on any error. */
#ifndef HOLO_TEST_FIXTURE_H
#define HOLO_TEST_FIXTURE_H

#include "hologram/generate.h"
#include "hologram/holo.h"

typedef struct fx {
  uint8_t *bytes;
  size_t len;
  holo_backend be;
  holo_session *s;
} fx;

/* o may be NULL: std allocator, no budget, no store. */
void fx_open(fx *f, const char *name, const holo_options *o);
void fx_close(fx *f);

/* The same session with a generator over it (the generation suites).
 * m NULL: holo_causal_model_default; init NULL: the model's initial state. */
typedef struct gfx {
  uint8_t *bytes;
  size_t len;
  holo_backend be;
  holo_session *s;
  holo_gen g;
} gfx;

void gfx_open(gfx *f, const char *name, const holo_options *o, const holo_causal_model *m,
              const holo_input *init);
void gfx_close(gfx *f);
/* n greedy tokens after the current logits over a vocabulary of v, each fed. */
void gfx_greedy_feed(holo_gen *g, uint32_t v, uint32_t n, uint32_t *out);

#endif
