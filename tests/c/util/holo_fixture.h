/* Opens tests/fixtures/<name>.holo as a session with the std allocator:
 * shared by the session-level C tests. Fails the test on any error. */
#ifndef HOLO_TEST_FIXTURE_H
#define HOLO_TEST_FIXTURE_H

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

#endif
