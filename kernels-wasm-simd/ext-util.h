/* Helpers shared by the kernels (registry-table.h): half-precision
 * conversion, element load/store of any numeric dtype, N-operand
 * broadcasting, reading small integer operands (axes, starts, pads) and
 * double-precision math without libm. Freestanding. */
#ifndef HOLOGRAM_KERNELS_EXT_UTIL_H
#define HOLOGRAM_KERNELS_EXT_UTIL_H

#include "common/attrs.h"
#include "common/bcast.h"
#include "common/check.h"
#include "common/shape.h"
#include "common/window2d.h"

/* ---- IEEE-754 binary16 ---- */

/* Exact. */
double holo_x_f16_to_f64(uint16_t h);
/* Round to nearest, ties to even; overflow gives +-inf, NaN stays a quiet
 * NaN with the sign kept. Rounded once from the double (no double rounding). */
uint16_t holo_x_f64_to_f16(double d);

/* ---- double math (computed in double, deterministic on every target) ---- */

double holo_x_exp(double x);
double holo_x_log(double x);
/* Argument reduction by a 3-part pi/2 (exact for |x| < 2^19 * pi/2; larger
 * arguments keep the reduction error of that split). */
double holo_x_sin(double x);
double holo_x_cos(double x);
/* C fmod: exact, the sign of x. */
double holo_x_fmod(double x, double y);
/* C pow semantics (pow(x, 0) = 1, pow(1, y) = 1, negative base with an
 * integral exponent keeps its sign, otherwise NaN). Integral exponents of
 * magnitude <= 2^16 use repeated squaring. */
double holo_x_pow(double x, double y);
static inline double holo_x_fabs(double x) { return __builtin_fabs(x); }
static inline bool holo_x_isnan(double x) { return x != x; }
/* Nearest integer, ties to even (exact for every double). */
double holo_x_rint(double x);
double holo_x_floor(double x);
double holo_x_ceil(double x);

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
/* holo_expf (mathf.c) on 4 lanes with the same operations in the same order
 * per lane — the double-precision reduction, the 13-step Horner polynomial
 * (separate multiply and add), the scale by 2^k, one rounding to f32, and
 * the same NaN / > 88.8 / < -104 cases — so every lane is bit-identical to
 * holo_expf of that lane (tested over special values and random inputs). */
v128_t holo_x_expf4(v128_t x);
#endif

/* ---- element access ---- */

/* True for the dtypes load/store below handle (every dtype but 0). */
bool holo_x_numeric(uint32_t dt);
static inline bool holo_x_is_float(uint32_t dt) {
  return dt == HOLO_DT_F32 || dt == HOLO_DT_F64 || dt == HOLO_DT_F16;
}
/* Element i of a buffer of dtype dt, as double (i64/u64 beyond 2^53 round). */
double holo_x_load_f64(const void *p, uint32_t dt, size_t i);
/* Element i as int64 (floats truncate with saturation, NaN -> 0; u64 wraps). */
int64_t holo_x_load_i64(const void *p, uint32_t dt, size_t i);

/* ---- broadcasting over several operands ---- */

#define HOLO_X_MAX_OPS 8
typedef struct holo_x_walk {
  uint32_t rank, nops;
  int64_t shape[HOLO_MAX_RANK];
  int64_t st[HOLO_X_MAX_OPS][HOLO_MAX_RANK];
  int64_t idx[HOLO_MAX_RANK];
  size_t off[HOLO_X_MAX_OPS];
  size_t n; /* output elements */
} holo_x_walk;

/* Broadcast shape of n tensors into out/rout; false when they do not. */
bool holo_x_broadcast_n(const holo_tensor *const *t, uint32_t n, int64_t *out, uint32_t *rout);
/* Plans a walk of the output y (already shaped) over operands t[0..n). */
void holo_x_walk_init(holo_x_walk *w, const holo_tensor *y, const holo_tensor *const *t,
                      uint32_t n);
/* Advances to the next output element (row-major), updating off[]. */
static inline void holo_x_walk_next(holo_x_walk *w) {
  for (int32_t d = (int32_t)w->rank - 1; d >= 0; d--) {
    w->idx[d]++;
    for (uint32_t k = 0; k < w->nops; k++) w->off[k] += (size_t)w->st[k][d];
    if (w->idx[d] < w->shape[d]) return;
    for (uint32_t k = 0; k < w->nops; k++) w->off[k] -= (size_t)(w->st[k][d] * w->shape[d]);
    w->idx[d] = 0;
  }
}

/* ---- small integer operands ---- */

/* Reads a 1-D (or scalar when allow_scalar) i32/i64 input idx into out
 * (at most max values); *n gets the count. Validates presence, dtype,
 * rank and size; messages name op and what. */
holo_status holo_x_read_ints(holo_kernel_call *c, const char *op, uint32_t idx, const char *what,
                             int64_t *out, uint32_t max, uint32_t *n);

/* Normalizes a list of axes against rank; refuses out-of-range and
 * duplicate axes. mask gets bit i set for each axis i. */
holo_status holo_x_axes_mask(holo_kernel_call *c, const char *op, const int64_t *axes, uint32_t n,
                             uint32_t rank, uint32_t *mask);

/* An INT attribute that must be 0 or 1 (dflt when absent). */
holo_status holo_x_flag(holo_kernel_call *c, const char *op, const char *name, int64_t dflt,
                        bool *out);

/* Every index of ind (i32/i64) lies in [-d, d) for axis `axis` of size d;
 * else a message naming op, the index and its position. Gather-like kernels
 * call it in infer so run never reads out of bounds. */
holo_status holo_x_check_indices(holo_kernel_call *c, const char *op, const holo_tensor *ind, uint32_t axis,
                                 int64_t d);

#endif
