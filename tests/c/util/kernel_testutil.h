/* Helpers for the kernel tests: build a holo_kernel_call by hand, run a
 * kernel through the CPU backend's lookup, random data, comparisons. */
#ifndef KERNEL_TESTUTIL_H
#define KERNEL_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hologram/backend.h"

#define KT_MAX_IN 8
#define KT_MAX_ATTR 10

typedef struct kt_call {
  holo_kernel_call call;
  const holo_kernel *kernel;
  holo_tensor in[KT_MAX_IN];
  holo_tensor out[3];
  holo_attr attrs[KT_MAX_ATTR];
  uint8_t payload[KT_MAX_ATTR][128];
  char msg[HOLO_MSG_CAP];
  void *ws;
} kt_call;

/* Looks the op up through holo_cpu_backend_init; asserts it exists. */
void kt_init(kt_call *k, const char *op);
/* Sets input idx (n_inputs grows to idx+1); data is borrowed. */
void kt_input(kt_call *k, uint32_t idx, uint32_t dtype, uint32_t rank, const int64_t *shape,
              const void *data);
void kt_absent(kt_call *k, uint32_t idx);
void kt_attr_int(kt_call *k, const char *name, int64_t v);
void kt_attr_float(kt_call *k, const char *name, float v);
void kt_attr_ints(kt_call *k, const char *name, uint32_t n, const int64_t *v);
void kt_attr_floats(kt_call *k, const char *name, uint32_t n, const float *v);
void kt_attr_string(kt_call *k, const char *name, const char *s);
holo_status kt_infer(kt_call *k);
/* infer, then allocate outputs + workspace and run; returns the first failure. */
holo_status kt_exec(kt_call *k);
void kt_free(kt_call *k);
/* Asserts status st and that the message mentions op. */
void kt_expect_fail(kt_call *k, holo_status st, const char *op);

size_t kt_numel(uint32_t rank, const int64_t *shape);
/* Deterministic uniform floats in [lo, hi). */
void kt_fill(float *p, size_t n, uint64_t *seed, float lo, float hi);
uint64_t kt_rand(uint64_t *seed);
/* Asserts |got - want| <= atol + rtol * |want| elementwise (NaN matches NaN). */
void kt_close(const float *got, const double *want, size_t n, double rtol, double atol);

#endif
