#include "ext-util.h"

static inline uint64_t bits_of(double d) {
  union { double d; uint64_t u; } v = {d};
  return v.u;
}
static inline double of_bits(uint64_t u) {
  union { uint64_t u; double d; } v = {u};
  return v.d;
}

/* ---- binary16 ---- */

double holo_x_f16_to_f64(uint16_t h) {
  double s = (h & 0x8000) ? -1.0 : 1.0;
  uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0) return s * (double)m * (1.0 / 16777216.0); /* m * 2^-24, exact */
  if (e == 31) {
    if (m == 0) return s * __builtin_inf();
    /* keep sign and payload: binary16 payload bits go to the top of the
     * double's fraction */
    return of_bits(((uint64_t)(h & 0x8000) << 48) | 0x7ff8000000000000ull | ((uint64_t)m << 42));
  }
  return s * (double)(m | 0x400) * of_bits((uint64_t)(1023 + (int)e - 25) << 52);
}

uint16_t holo_x_f64_to_f16(double d) {
  uint64_t u = bits_of(d);
  uint16_t sign = (uint16_t)((u >> 48) & 0x8000);
  uint64_t a = u & 0x7fffffffffffffffull;
  if (a > 0x7ff0000000000000ull) return (uint16_t)(sign | 0x7e00 | ((a >> 42) & 0x1ff));
  if (a == 0x7ff0000000000000ull) return (uint16_t)(sign | 0x7c00);
  double ad = of_bits(a);
  if (ad >= 65520.0) return (uint16_t)(sign | 0x7c00); /* rounds past the largest finite 65504 */
  if (ad < 6.103515625e-05) {                          /* below 2^-14: a multiple of 2^-24 */
    double s = ad * 16777216.0;                        /* exact scaling */
    double r = (s + 4503599627370496.0) - 4503599627370496.0; /* ties to even */
    return (uint16_t)(sign | (uint16_t)r);             /* r = 1024 encodes 2^-14 */
  }
  int e = (int)(a >> 52) - 1023; /* -14 .. 15 */
  uint64_t mant = (a & 0xfffffffffffffull) | (1ull << 52);
  uint64_t q = mant >> 42, rem = mant & ((1ull << 42) - 1), half = 1ull << 41;
  if (rem > half || (rem == half && (q & 1))) q++;
  uint32_t b = ((uint32_t)(e + 15) << 10) + (uint32_t)(q - 1024); /* a carry bumps the exponent */
  if (b >= 0x7c00) b = 0x7c00;
  return (uint16_t)(sign | b);
}

/* ---- double math ---- */

static const double LN2_HI = 6.93147180369123816490e-01, LN2_LO = 1.90821492927058770002e-10;
static const double LOG2E = 1.44269504088896340736;

double holo_x_rint(double x) {
  double a = __builtin_fabs(x);
  if (!(a < 4503599627370496.0)) return x; /* integral already, or NaN/inf */
  double r = (a + 4503599627370496.0) - 4503599627370496.0;
  return __builtin_copysign(r, x);
}

double holo_x_floor(double x) {
  double r = holo_x_rint(x);
  return r > x ? r - 1.0 : r;
}

double holo_x_ceil(double x) {
  double r = holo_x_rint(x);
  if (r < x) r += 1.0;
  return r == 0.0 ? __builtin_copysign(0.0, x) : r;
}

double holo_x_exp(double x) {
  if (x != x) return x + x;
  if (x > 709.782712893384) return __builtin_inf();
  if (x < -745.2) return 0.0;
  double kf = x * LOG2E;
  int64_t k = (int64_t)(kf < 0 ? kf - 0.5 : kf + 0.5);
  double r = (x - (double)k * LN2_HI) - (double)k * LN2_LO;
  /* |r| <= ~ln2/2: Taylor to r^14 */
  double p = 1.0 / 87178291200.0;
  static const double c[] = {1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0,
                             1.0 / 3628800.0,    1.0 / 362880.0,    1.0 / 40320.0,
                             1.0 / 5040.0,       1.0 / 720.0,       1.0 / 120.0,
                             1.0 / 24.0,         1.0 / 6.0,         0.5,
                             1.0,                1.0};
  for (int i = 0; i < 14; i++) p = p * r + c[i];
  if (k > 1023) return p * 2.0 * of_bits((uint64_t)(k - 1 + 1023) << 52);
  if (k < -1021) /* subnormal result: scale in two steps */
    return (p * of_bits((uint64_t)(k + 54 + 1023) << 52)) * of_bits((uint64_t)(1023 - 54) << 52);
  return p * of_bits((uint64_t)(k + 1023) << 52);
}

double holo_x_log(double x) {
  if (x != x) return x + x;
  if (x < 0) return __builtin_nan("");
  if (x == 0) return -__builtin_inf();
  if (x == __builtin_inf()) return x;
  uint64_t u = bits_of(x);
  int e = 0;
  if ((u >> 52) == 0) { /* subnormal */
    u = bits_of(x * 18014398509481984.0); /* 2^54 */
    e = -54;
  }
  e += (int)(u >> 52) - 1023;
  double m = of_bits((u & 0xfffffffffffffull) | 0x3ff0000000000000ull); /* [1, 2) */
  if (m > 1.41421356237309504880) {
    m *= 0.5;
    e++;
  }
  double s = (m - 1.0) / (m + 1.0), s2 = s * s, term = s, sum = 0.0;
  /* 2 atanh(s), |s| <= 0.172: terms to s^41 */
  double t[21];
  for (int n = 0; n < 21; n++) {
    t[n] = term / (double)(2 * n + 1);
    term *= s2;
  }
  for (int n = 20; n >= 1; n--) sum += t[n]; /* small terms first */
  return ((double)e * LN2_HI + (2.0 * t[0] + (2.0 * sum + (double)e * LN2_LO)));
}

/* sin and cos on [-pi/4, pi/4] */
static double sin_k(double r) {
  double r2 = r * r, p = -1.0 / 121645100408832000.0; /* -1/19! */
  static const double c[] = {1.0 / 355687428096000.0, -1.0 / 1307674368000.0,
                             1.0 / 6227020800.0,      -1.0 / 39916800.0,
                             1.0 / 362880.0,          -1.0 / 5040.0,
                             1.0 / 120.0,             -1.0 / 6.0,
                             1.0};
  for (int i = 0; i < 9; i++) p = p * r2 + c[i];
  return r * p;
}
static double cos_k(double r) {
  double r2 = r * r, p = -1.0 / 6402373705728000.0; /* -1/18! */
  static const double c[] = {1.0 / 20922789888000.0, -1.0 / 87178291200.0, 1.0 / 479001600.0,
                             -1.0 / 3628800.0,       1.0 / 40320.0,        -1.0 / 720.0,
                             1.0 / 24.0,             -0.5,                 1.0};
  for (int i = 0; i < 9; i++) p = p * r2 + c[i];
  return p;
}

/* x = k pi/2 + r; returns k mod 4 */
static int reduce_pio2(double x, double *r) {
  static const double PIO2_1 = 1.57079632673412561417e+00, PIO2_2 = 6.07710050630396597660e-11,
                      PIO2_3 = 2.02226624871116645580e-21, TWO_PI = 6.28318530717958647693;
  if (__builtin_fabs(x) > 1073741824.0) x = holo_x_fmod(x, TWO_PI); /* beyond 2^30: coarse */
  double kf = holo_x_rint(x * 0.63661977236758134308);
  *r = ((x - kf * PIO2_1) - kf * PIO2_2) - kf * PIO2_3;
  return (int)((int64_t)kf & 3);
}

double holo_x_sin(double x) {
  if (x != x || __builtin_fabs(x) == __builtin_inf()) return x - x;
  if (__builtin_fabs(x) < 7.450580596923828e-09) return x; /* keeps -0 */
  double r;
  switch (reduce_pio2(x, &r)) {
  case 0: return sin_k(r);
  case 1: return cos_k(r);
  case 2: return -sin_k(r);
  default: return -cos_k(r);
  }
}

double holo_x_cos(double x) {
  if (x != x || __builtin_fabs(x) == __builtin_inf()) return x - x;
  double r;
  switch (reduce_pio2(x, &r)) {
  case 0: return cos_k(r);
  case 1: return -sin_k(r);
  case 2: return -cos_k(r);
  default: return sin_k(r);
  }
}

/* Bitwise long division (the algorithm of musl's fmod): exact. */
double holo_x_fmod(double x, double y) {
  uint64_t uxi = bits_of(x), uyi = bits_of(y), i;
  int ex = (int)(uxi >> 52 & 0x7ff), ey = (int)(uyi >> 52 & 0x7ff);
  uint64_t sx = uxi >> 63;
  if ((uyi << 1) == 0 || y != y || ex == 0x7ff) return (x * y) / (x * y);
  if ((uxi << 1) <= (uyi << 1)) {
    if ((uxi << 1) == (uyi << 1)) return 0 * x;
    return x;
  }
  if (!ex) {
    for (i = uxi << 12; i >> 63 == 0; ex--, i <<= 1) {
    }
    uxi <<= -ex + 1;
  } else {
    uxi &= -1ULL >> 12;
    uxi |= 1ULL << 52;
  }
  if (!ey) {
    for (i = uyi << 12; i >> 63 == 0; ey--, i <<= 1) {
    }
    uyi <<= -ey + 1;
  } else {
    uyi &= -1ULL >> 12;
    uyi |= 1ULL << 52;
  }
  for (; ex > ey; ex--) {
    i = uxi - uyi;
    if (i >> 63 == 0) {
      if (i == 0) return 0 * x;
      uxi = i;
    }
    uxi <<= 1;
  }
  i = uxi - uyi;
  if (i >> 63 == 0) {
    if (i == 0) return 0 * x;
    uxi = i;
  }
  for (; uxi >> 52 == 0; uxi <<= 1, ex--) {
  }
  if (ex > 0) {
    uxi -= 1ULL << 52;
    uxi |= (uint64_t)ex << 52;
  } else {
    uxi >>= -ex + 1;
  }
  uxi |= sx << 63;
  return of_bits(uxi);
}

double holo_x_pow(double x, double y) {
  if (y == 0) return 1.0;
  if (x == 1.0) return 1.0;
  if (x != x || y != y) return x + y;
  double ay = __builtin_fabs(y), ax = __builtin_fabs(x);
  if (ay == __builtin_inf()) {
    if (ax == 1.0) return 1.0;
    return ((ax > 1.0) == (y > 0)) ? __builtin_inf() : 0.0;
  }
  bool yint = holo_x_rint(y) == y;
  if (yint && ay <= 65536.0) {
    uint32_t n = (uint32_t)ay;
    double r = 1.0, b = x;
    while (n) {
      if (n & 1) r *= b;
      n >>= 1;
      if (n) b *= b;
    }
    return y < 0 ? 1.0 / r : r;
  }
  bool neg = false;
  if (x < 0) {
    if (!yint) return __builtin_nan("");
    neg = ay < 9007199254740992.0 && holo_x_fmod(ay, 2.0) == 1.0;
  }
  double r;
  if (ax == 0) r = y > 0 ? 0.0 : __builtin_inf();
  else if (ax == __builtin_inf()) r = y > 0 ? __builtin_inf() : 0.0;
  else r = holo_x_exp(y * holo_x_log(ax));
  return neg ? -r : r;
}

/* ---- element access ---- */

bool holo_x_numeric(uint32_t dt) { return dt != 0 && holo_dtype_size(dt) != 0; }

double holo_x_load_f64(const void *p, uint32_t dt, size_t i) {
  switch (dt) {
  case HOLO_DT_F32: return ((const float *)p)[i];
  case HOLO_DT_F64: return ((const double *)p)[i];
  case HOLO_DT_F16: return holo_x_f16_to_f64(((const uint16_t *)p)[i]);
  case HOLO_DT_U8: case HOLO_DT_BOOL: return ((const uint8_t *)p)[i];
  case HOLO_DT_I8: return ((const int8_t *)p)[i];
  case HOLO_DT_U16: return ((const uint16_t *)p)[i];
  case HOLO_DT_I16: return ((const int16_t *)p)[i];
  case HOLO_DT_I32: return ((const int32_t *)p)[i];
  case HOLO_DT_U32: return ((const uint32_t *)p)[i];
  case HOLO_DT_I64: return (double)((const int64_t *)p)[i];
  case HOLO_DT_U64: return (double)((const uint64_t *)p)[i];
  default: return 0;
  }
}

int64_t holo_x_load_i64(const void *p, uint32_t dt, size_t i) {
  switch (dt) {
  case HOLO_DT_F32: case HOLO_DT_F64: case HOLO_DT_F16: {
    double d = holo_x_load_f64(p, dt, i);
    if (d != d) return 0;
    if (d >= 9223372036854775807.0) return INT64_MAX;
    if (d <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t)d;
  }
  case HOLO_DT_U8: case HOLO_DT_BOOL: return ((const uint8_t *)p)[i];
  case HOLO_DT_I8: return ((const int8_t *)p)[i];
  case HOLO_DT_U16: return ((const uint16_t *)p)[i];
  case HOLO_DT_I16: return ((const int16_t *)p)[i];
  case HOLO_DT_I32: return ((const int32_t *)p)[i];
  case HOLO_DT_U32: return ((const uint32_t *)p)[i];
  case HOLO_DT_I64: return ((const int64_t *)p)[i];
  case HOLO_DT_U64: return (int64_t)((const uint64_t *)p)[i];
  default: return 0;
  }
}

/* ---- broadcasting ---- */

bool holo_x_broadcast_n(const holo_tensor *const *t, uint32_t n, int64_t *out, uint32_t *rout) {
  uint32_t r = 0;
  for (uint32_t k = 0; k < n; k++)
    if (t[k]->rank > r) r = t[k]->rank;
  for (uint32_t i = 0; i < r; i++) out[i] = 1;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t rk = t[k]->rank;
    for (uint32_t j = 0; j < rk; j++) {
      int64_t d = t[k]->shape[j], *o = &out[r - rk + j];
      if (d == *o || d == 1) continue;
      if (*o == 1) *o = d;
      else return false;
    }
  }
  /* a dim of 1 meeting a 0 gives 0: handled, since 1 -> d above */
  *rout = r;
  return true;
}

void holo_x_walk_init(holo_x_walk *w, const holo_tensor *y, const holo_tensor *const *t,
                      uint32_t n) {
  w->nops = n;
  if (y->rank == 0) {
    w->rank = 1;
    w->shape[0] = 1;
    for (uint32_t k = 0; k < n; k++) w->st[k][0] = 0;
  } else {
    w->rank = y->rank;
    for (uint32_t i = 0; i < y->rank; i++) w->shape[i] = y->shape[i];
    for (uint32_t k = 0; k < n; k++)
      holo_k_broadcast_strides(t[k]->shape, t[k]->rank, y->shape, y->rank, w->st[k]);
  }
  for (uint32_t i = 0; i < HOLO_MAX_RANK; i++) w->idx[i] = 0;
  for (uint32_t k = 0; k < HOLO_X_MAX_OPS; k++) w->off[k] = 0;
  w->n = holo_k_prod(w->shape, 0, w->rank);
}

/* ---- small integer operands ---- */

holo_status holo_x_read_ints(holo_kernel_call *c, const char *op, uint32_t idx, const char *what,
                             int64_t *out, uint32_t max, uint32_t *n) {
  holo_status st;
  if ((st = holo_k_check_input(c, op, idx, 0))) return st;
  const holo_tensor *t = &c->inputs[idx];
  if (t->dtype != HOLO_DT_I64 && t->dtype != HOLO_DT_I32)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: %s (input %u) must be i64 or i32, got %s", op, what,
                       idx, holo_k_dtype_name(t->dtype));
  if (t->rank > 1) {
    char s[HOLO_K_SHAPE_STR];
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: %s (input %u) must be 1-D, got shape %s", op, what,
                       idx, holo_k_shape_str(s, t->shape, t->rank));
  }
  size_t cnt = t->rank ? (size_t)t->shape[0] : 1;
  if (cnt > max)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: %s (input %u) has %zu values, at most %u allowed",
                       op, what, idx, cnt, max);
  for (size_t i = 0; i < cnt; i++) out[i] = holo_x_load_i64(t->data, t->dtype, i);
  *n = (uint32_t)cnt;
  return HOLO_OK;
}

holo_status holo_x_axes_mask(holo_kernel_call *c, const char *op, const int64_t *axes, uint32_t n,
                             uint32_t rank, uint32_t *mask) {
  *mask = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t a;
    if (!holo_k_axis(axes[i], rank, false, &a))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: axis %lld is out of range for rank %u", op,
                         (long long)axes[i], rank);
    if (*mask & (1u << a))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: axis %lld is repeated", op, (long long)axes[i]);
    *mask |= 1u << a;
  }
  return HOLO_OK;
}

holo_status holo_x_flag(holo_kernel_call *c, const char *op, const char *name, int64_t dflt,
                        bool *out) {
  const holo_attr *a = holo_attr_find(c, name);
  if (a && a->type != HOLO_ATTR_INT)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: attribute %s must be an int", op, name);
  int64_t v = holo_attr_int(c, name, dflt);
  if (v != 0 && v != 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: %s must be 0 or 1, got %lld", op, name,
                       (long long)v);
  *out = v != 0;
  return HOLO_OK;
}

holo_status holo_x_check_indices(holo_kernel_call *c, const char *op, const holo_tensor *ind, uint32_t axis,
                                 int64_t d) {
  size_t n = holo_k_prod(ind->shape, 0, ind->rank);
  for (size_t i = 0; i < n; i++) {
    int64_t v = holo_x_load_i64(ind->data, ind->dtype, i);
    if (v < -d || v >= d)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: index %lld at position %zu is out of range for axis %u of size %lld",
                         op, (long long)v, i, axis, (long long)d);
  }
  return HOLO_OK;
}

#ifdef __wasm_simd128__
/* 2 lanes of mathf.c's exp_d (see holo_x_expf4): kf = x*log2e; k = trunc(kf
 * -+ 0.5) (what the (int64_t) cast of the rounded value gives); r = (x -
 * k*LN2_HI) - k*LN2_LO; Horner; times 2^k built from k's bits. */
static v128_t exp_d2(v128_t x) {
  const v128_t kf = wasm_f64x2_mul(x, wasm_f64x2_splat(1.44269504088896340736));
  const v128_t half = wasm_v128_bitselect(wasm_f64x2_splat(-0.5), wasm_f64x2_splat(0.5),
                                          wasm_f64x2_lt(kf, wasm_f64x2_splat(0.0)));
  const v128_t k = wasm_f64x2_trunc(wasm_f64x2_add(kf, half));
  const v128_t r = wasm_f64x2_sub(wasm_f64x2_sub(x, wasm_f64x2_mul(k, wasm_f64x2_splat(6.93147180369123816490e-01))),
                                  wasm_f64x2_mul(k, wasm_f64x2_splat(1.90821492927058770002e-10)));
  static const double c[] = {1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0, 1.0 / 362880.0,
                             1.0 / 40320.0,     1.0 / 5040.0,     1.0 / 720.0,     1.0 / 120.0,
                             1.0 / 24.0,        1.0 / 6.0,        0.5,             1.0,
                             1.0};
  v128_t p = wasm_f64x2_splat(1.0 / 6227020800.0);
  for (int i = 0; i < 13; i++) p = wasm_f64x2_add(wasm_f64x2_mul(p, r), wasm_f64x2_splat(c[i]));
  /* k is an integer in [-151, 129] here: k + 1.5*2^52 holds it in the low
   * mantissa bits; (those bits + 1023) << 52 is 2^k (the rest shifts out) */
  const v128_t kb = wasm_f64x2_add(k, wasm_f64x2_splat(6755399441055744.0));
  const v128_t scale = wasm_i64x2_shl(wasm_i64x2_add(kb, wasm_i64x2_splat(1023)), 52);
  return wasm_f64x2_mul(p, scale);
}

v128_t holo_x_expf4(v128_t x) {
  /* the polynomial on a clamped copy (out-of-range lanes are replaced below) */
  const v128_t xc = wasm_f32x4_pmax(wasm_f32x4_pmin(x, wasm_f32x4_splat(88.8f)), wasm_f32x4_splat(-104.0f));
  const v128_t lo = exp_d2(wasm_f64x2_promote_low_f32x4(xc));
  const v128_t hi = exp_d2(wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(xc, xc, 2, 3, 2, 3)));
  v128_t y = wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo), wasm_f32x4_demote_f64x2_zero(hi), 0, 1, 4, 5);
  y = wasm_v128_bitselect(wasm_f32x4_splat(__builtin_inff()), y, wasm_f32x4_gt(x, wasm_f32x4_splat(88.8f)));
  y = wasm_v128_bitselect(wasm_f32x4_splat(0.0f), y, wasm_f32x4_lt(x, wasm_f32x4_splat(-104.0f)));
  return wasm_v128_bitselect(wasm_f32x4_add(x, x), y, wasm_f32x4_ne(x, x));
}
#endif
