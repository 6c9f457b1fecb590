/* One output of a Reduce op on an integer (or bool) dtype (reduce.h): its
 * set in ascending row-major order of the input. The result is the exact
 * mathematical value, saturated to the dtype's range when it falls outside.
 * That is onnxruntime's answer (it accumulates in double and casts with
 * saturation) wherever its double sums are exact, i.e. for every i32/u32
 * set of fewer than 2^21 elements, and it is the exact answer where
 * onnxruntime's rounding above 2^53 is not (i64 2^53 + 1 stays 2^53 + 1).
 * Wrapping instead (numpy's astype) would disagree with onnxruntime on the
 * first overflow (decisions.md). Exact values need 128 bits: sums are kept
 * as two's-complement (hi, lo) pairs; a product or a sum of squares past
 * 128 bits can only grow (a zero factor aside), so it saturates stickily. */
#include "common/elements.h"
#include "microkernels/reduce.h"

typedef struct {
  uint64_t hi, lo; /* two's complement, 128 bits */
} i128;

static i128 add(i128 a, i128 b) {
  i128 r = {a.hi + b.hi, a.lo + b.lo};
  r.hi += r.lo < a.lo;
  return r;
}
static i128 from_i64(int64_t v) { return (i128){v < 0 ? UINT64_MAX : 0, (uint64_t)v}; }
static i128 from_u64(uint64_t v) { return (i128){0, v}; }
static bool neg(i128 a) { return a.hi >> 63; }
static i128 negate(i128 a) {
  i128 r = {~a.hi, ~a.lo};
  return add(r, from_u64(1));
}
/* a * b for 64-bit magnitudes, all 128 bits (four 32x32 products). */
static i128 mul_u64(uint64_t a, uint64_t b) {
  const uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
  const uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  const uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  return (i128){hh + (lh >> 32) + (hl >> 32) + (mid >> 32), (mid << 32) | (ll & 0xffffffffu)};
}

/* The dtype's range as (signed) bounds: lo = -2^(bits-1) or 0, hi its max. */
static void range(uint32_t dt, i128 *lo, i128 *hi) {
  switch (dt) {
  case HOLO_DT_I8: *lo = from_i64(-128), *hi = from_i64(127); break;
  case HOLO_DT_I32: *lo = from_i64(-2147483647 - 1), *hi = from_i64(2147483647); break;
  case HOLO_DT_I64: *lo = from_i64(INT64_MIN), *hi = from_i64(INT64_MAX); break;
  case HOLO_DT_U8: *lo = from_u64(0), *hi = from_u64(255); break;
  case HOLO_DT_BOOL: *lo = from_u64(0), *hi = from_u64(1); break;
  case HOLO_DT_U32: *lo = from_u64(0), *hi = from_u64(4294967295u); break;
  default: *lo = from_u64(0), *hi = from_u64(UINT64_MAX); break; /* U64 */
  }
}
static bool lt(i128 a, i128 b) { /* signed */
  if (a.hi != b.hi) return (int64_t)a.hi < (int64_t)b.hi;
  return a.lo < b.lo;
}
static uint64_t clamp(uint32_t dt, i128 v) {
  i128 lo, hi;
  range(dt, &lo, &hi);
  return lt(v, lo) ? lo.lo : lt(hi, v) ? hi.lo : v.lo;
}

static i128 load(uint32_t dt, const void *x, size_t off) {
  const int64_t v = holo_k_load_i64(x, dt, off);
  return dt == HOLO_DT_U64 ? from_u64((uint64_t)v) : from_i64(v);
}

/* Prod: sign and magnitude; past 2^64 the magnitude only saturates. */
static uint64_t product(uint32_t dt, const void *x, size_t base, uint32_t nr, const int64_t *rd,
                        const int64_t *rs, size_t n_red) {
  bool negative = false, over = false;
  uint64_t mag = 1;
  int64_t ri[HOLO_MAX_RANK] = {0};
  size_t off = base;
  for (size_t j = 0; j < n_red; j++) {
    i128 v = load(dt, x, off);
    if (neg(v)) negative = !negative, v = negate(v);
    if (v.lo == 0) return 0;
    const i128 p = mul_u64(mag, v.lo);
    if (p.hi) over = true;
    mag = p.lo;
    holo_k_next_offset(ri, rd, rs, nr, &off);
  }
  i128 lo, hi;
  range(dt, &lo, &hi);
  if (over) return negative ? lo.lo : hi.lo;
  const i128 m = from_u64(mag);
  return clamp(dt, negative ? negate(m) : m);
}

uint64_t holo_ukernel_reduce_int__scalar(int op, uint32_t dt, const void *x, size_t base, uint32_t nr,
                                         const int64_t *rd, const int64_t *rs) {
  const size_t n_red = holo_k_prod(rd, 0, nr);
  if (op == HOLO_REDUCE_PROD) return product(dt, x, base, nr, rd, rs, n_red);
  i128 lo, hi, acc = from_u64(0);
  range(dt, &lo, &hi);
  if (op == HOLO_REDUCE_MAX) acc = lo;
  if (op == HOLO_REDUCE_MIN) acc = hi;
  bool over = false; /* a sum of squares past 2^127 */
  int64_t ri[HOLO_MAX_RANK] = {0};
  size_t off = base;
  for (size_t j = 0; j < n_red; j++) {
    const i128 v = load(dt, x, off);
    switch (op) {
    case HOLO_REDUCE_SUM: acc = add(acc, v); break;
    case HOLO_REDUCE_L1: acc = add(acc, neg(v) ? negate(v) : v); break;
    case HOLO_REDUCE_SUMSQ: {
      const i128 s = mul_u64(neg(v) ? negate(v).lo : v.lo, neg(v) ? negate(v).lo : v.lo);
      acc = add(acc, s);
      if (neg(acc) || neg(s)) over = true;
      break;
    }
    case HOLO_REDUCE_MAX:
      if (lt(acc, v)) acc = v;
      break;
    default: /* MIN */
      if (lt(v, acc)) acc = v;
      break;
    }
    holo_k_next_offset(ri, rd, rs, nr, &off);
  }
  return over ? hi.lo : clamp(dt, acc);
}

void holo_k_store_int_bits(void *y, uint32_t dt, size_t i, uint64_t v) {
  switch (dt) {
  case HOLO_DT_I8:
  case HOLO_DT_U8:
  case HOLO_DT_BOOL: ((uint8_t *)y)[i] = (uint8_t)v; break;
  case HOLO_DT_I32:
  case HOLO_DT_U32: ((uint32_t *)y)[i] = (uint32_t)v; break;
  default: ((uint64_t *)y)[i] = v; break; /* I64, U64 */
  }
}
