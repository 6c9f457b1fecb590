#include "holo_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "hologram/cpu_backend.h"
#include "holo-std.h"

void fx_open(fx *f, const char *name, const holo_options *o) {
  char path[256];
  holo_error err = {0};
  snprintf(path, sizeof path, "tests/fixtures/%s.holo", name);
  if (holo_read_file(path, &f->bytes, &f->len, &err)) fail_msg("%s", err.message);
  holo_cpu_backend_init(&f->be);
  holo_options def = {holo_std_allocator(), 0, 0, 0};
  if (holo_session_load(f->bytes, f->len, &f->be, o ? o : &def, &f->s, &err)) fail_msg("load %s: %s", name, err.message);
}

void fx_close(fx *f) {
  holo_session_free(f->s);
  free(f->bytes);
}
