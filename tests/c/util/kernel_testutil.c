#include "kernel_testutil.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hologram/cpu_backend.h"

void kt_init(kt_call *k, const char *op) {
  memset(k, 0, sizeof *k);
  holo_backend b;
  holo_cpu_backend_init(&b);
  k->kernel = b.lookup(b.ctx, op, (uint32_t)strlen(op));
  assert_non_null(k->kernel);
  k->call.inputs = k->in;
  k->call.outputs = k->out;
  k->call.n_outputs = 1;
  k->call.attrs = k->attrs;
  k->call.msg = k->msg;
  k->call.msg_cap = sizeof k->msg;
  k->call.alias_input = -7;
}

size_t kt_numel(uint32_t rank, const int64_t *shape) {
  size_t n = 1;
  for (uint32_t i = 0; i < rank; i++) n *= (size_t)shape[i];
  return n;
}

void kt_input(kt_call *k, uint32_t idx, uint32_t dtype, uint32_t rank, const int64_t *shape,
              const void *data) {
  holo_tensor *t = &k->in[idx];
  memset(t, 0, sizeof *t);
  t->data = (void *)data;
  t->dtype = dtype;
  t->rank = rank;
  for (uint32_t i = 0; i < rank && i < HOLO_MAX_RANK; i++) t->shape[i] = shape[i];
  t->bytes = rank <= HOLO_MAX_RANK ? kt_numel(rank, shape) * holo_dtype_size(dtype) : 0;
  if (k->call.n_inputs < idx + 1) k->call.n_inputs = idx + 1;
}

void kt_absent(kt_call *k, uint32_t idx) {
  memset(&k->in[idx], 0, sizeof k->in[idx]);
  if (k->call.n_inputs < idx + 1) k->call.n_inputs = idx + 1;
}

static holo_attr *kt_new_attr(kt_call *k, const char *name, uint32_t type, uint32_t count) {
  uint32_t i = k->call.n_attrs++;
  assert_true(i < KT_MAX_ATTR);
  holo_attr *a = &k->attrs[i];
  a->name = name;
  a->name_len = (uint32_t)strlen(name);
  a->type = type;
  a->count = count;
  a->payload = k->payload[i];
  return a;
}

static void kt_le(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

void kt_attr_int(kt_call *k, const char *name, int64_t v) {
  holo_attr *a = kt_new_attr(k, name, HOLO_ATTR_INT, 1);
  kt_le((uint8_t *)a->payload, (uint64_t)v, 8);
}

void kt_attr_float(kt_call *k, const char *name, float v) {
  holo_attr *a = kt_new_attr(k, name, HOLO_ATTR_FLOAT, 1);
  uint32_t u;
  memcpy(&u, &v, 4);
  kt_le((uint8_t *)a->payload, u, 4);
}

void kt_attr_ints(kt_call *k, const char *name, uint32_t n, const int64_t *v) {
  assert_true(n <= 16);
  holo_attr *a = kt_new_attr(k, name, HOLO_ATTR_INTS, n);
  for (uint32_t i = 0; i < n; i++) kt_le((uint8_t *)a->payload + 8 * i, (uint64_t)v[i], 8);
}

void kt_attr_floats(kt_call *k, const char *name, uint32_t n, const float *v) {
  assert_true(n <= 32);
  holo_attr *a = kt_new_attr(k, name, HOLO_ATTR_FLOATS, n);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t u;
    memcpy(&u, &v[i], 4);
    kt_le((uint8_t *)a->payload + 4 * i, u, 4);
  }
}

void kt_attr_string(kt_call *k, const char *name, const char *s) {
  size_t n = strlen(s);
  assert_true(n <= 128);
  holo_attr *a = kt_new_attr(k, name, HOLO_ATTR_STRING, (uint32_t)n);
  memcpy((uint8_t *)a->payload, s, n); /* not NUL-terminated, as in an archive */
}

holo_status kt_infer(kt_call *k) {
  k->msg[0] = 0;
  return k->kernel->infer(&k->call);
}

holo_status kt_exec(kt_call *k) {
  holo_status st = kt_infer(k);
  if (st) return st;
  assert_true(k->call.alias_input == -1 || k->call.alias_input == 0);
  for (uint32_t i = 0; i < k->call.n_outputs; i++) {
    holo_tensor *o = &k->out[i];
    size_t bytes;
    assert_true(holo_shape_bytes(o->dtype, o->shape, o->rank, &bytes));
    assert_int_equal(bytes, o->bytes);
    if (k->call.alias_input == 0) {
      o->data = k->in[0].data;
    } else {
      /* poison so a kernel that skips an element is caught */
      o->data = malloc(bytes ? bytes : 1);
      memset(o->data, 0xA5, bytes);
    }
  }
  if (k->call.workspace_bytes) {
    k->ws = aligned_alloc(64, (k->call.workspace_bytes + 63) / 64 * 64);
    k->call.workspace = k->ws;
  }
  if (k->call.alias_input == 0) return HOLO_OK;
  return k->kernel->run(&k->call);
}

void kt_free(kt_call *k) {
  if (k->call.alias_input != 0)
    for (uint32_t i = 0; i < 3; i++) {
      free(k->out[i].data);
      k->out[i].data = NULL;
    }
  free(k->ws);
  k->ws = NULL;
}

void kt_expect_fail(kt_call *k, holo_status st, const char *op) {
  holo_status got = kt_infer(k);
  if (got != st || !strstr(k->msg, op) || getenv("KT_VERBOSE"))
    fprintf(stderr, "expected status %d mentioning %s, got %d: \"%s\"\n", (int)st, op, (int)got,
            k->msg);
  assert_int_equal(got, st);
  assert_non_null(strstr(k->msg, op));
}

uint64_t kt_rand(uint64_t *s) {
  /* splitmix64 */
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void kt_fill(float *p, size_t n, uint64_t *seed, float lo, float hi) {
  for (size_t i = 0; i < n; i++)
    p[i] = lo + (hi - lo) * (float)((double)(kt_rand(seed) >> 11) / 9007199254740992.0);
}

void kt_close(const float *got, const double *want, size_t n, double rtol, double atol) {
  for (size_t i = 0; i < n; i++) {
    double g = got[i], w = want[i];
    if (isnan(w) && isnan(g)) continue;
    if (isinf(w) && g == w) continue;
    if (!(fabs(g - w) <= atol + rtol * fabs(w))) {
      fprintf(stderr, "mismatch at %zu: got %.9g want %.9g\n", i, g, w);
      fail();
    }
  }
}
