/* The activation microkernels (docs/kernels.md, "Activations"): every
 * SIMD variant against its scalar reference, bit for bit, over edge values
 * (0, -0, subnormals, +-inf, NaNs, +-88.7, large |x|), every length 0..11
 * plus long runs, and unaligned starts, with nothing written outside the
 * output; and every scalar reference against a double-precision reference,
 * the max error in ulp asserted (the bounds docs/kernels.md states). The
 * native build has no SIMD variants and checks the references only. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "math/vexpf.h"
#include "microkernels/vunary.h"

typedef void (*vfn)(size_t n, const float *x, float *y);

typedef struct {
  const char *name;
  vfn scalar, simd; /* simd NULL where the build has none */
  double (*ref)(double x);
  double lo, hi;    /* the sweep of the error measurement */
  double max_ulp;   /* the bound asserted (docs/kernels.md) */
} act_case;

/* The exponential core alone, on its domain [CUTOFF, 0] (inputs outside it
 * folded in: -|x|, clamped), so the tester covers it like a kernel. */
static float exp_arg(float x) {
  float z = -__builtin_fabsf(x);
  return z < HOLO_VEXP_CUTOFF || z != z ? HOLO_VEXP_CUTOFF : z;
}
static void vexp_scalar(size_t n, const float *x, float *y) {
  for (size_t i = 0; i < n; i++) y[i] = holo_vexpf_neg(exp_arg(x[i]));
}
#ifdef __wasm_simd128__
static void vexp_simd(size_t n, const float *x, float *y) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    float a[4];
    for (int l = 0; l < 4; l++) a[l] = exp_arg(x[i + (size_t)l]);
    wasm_v128_store(y + i, holo_vexpf4_neg(wasm_v128_load(a)));
  }
  for (; i < n; i++) y[i] = holo_vexpf_neg(exp_arg(x[i]));
}
#endif
static double ref_exp(double x) { return exp(x); }
static double ref_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
static double ref_silu(double x) { return x / (1.0 + exp(-x)); }
static double ref_tanh(double x) { return tanh(x); }
static double ref_erf(double x) { return erf(x); }
static double ref_gelu(double x) { return 0.5 * x * erfc(-x / sqrt(2.0)); }
/* 0.5 x (1 + tanh(u)) = x / (1 + e^(-2u)) (no cancellation in the reference) */
static double ref_gelutanh(double x) { return x / (1.0 + exp(-2.0 * 0.7978845608028654 * (x + 0.044715 * x * x * x))); }

#ifdef __wasm_simd128__
#define SIMD(f) f
#else
#define SIMD(f) NULL
#endif

static const act_case CASES[] = {
    {"exp core", vexp_scalar, SIMD(vexp_simd), ref_exp, -87.33, 0.0, 1.5},
    {"Sigmoid", holo_ukernel_vsigmoid_f32__scalar, SIMD(holo_ukernel_vsigmoid_f32__simd128), ref_sigmoid, -87.0, 30.0,
     2.5},
    {"SiLU", holo_ukernel_vsilu_f32__scalar, SIMD(holo_ukernel_vsilu_f32__simd128), ref_silu, -87.0, 100.0, 3.5},
    {"Tanh", holo_ukernel_vtanh_f32__scalar, SIMD(holo_ukernel_vtanh_f32__simd128), ref_tanh, -10.0, 10.0, 3.0},
    {"Erf", holo_ukernel_verf_f32__scalar, SIMD(holo_ukernel_verf_f32__simd128), ref_erf, -5.0, 5.0, 3.0},
    {"Gelu x >= 0", holo_ukernel_vgelu_f32__scalar, SIMD(holo_ukernel_vgelu_f32__simd128), ref_gelu, 0.0, 10.0, 2.5},
    {"Gelu x < 0", holo_ukernel_vgelu_f32__scalar, SIMD(holo_ukernel_vgelu_f32__simd128), ref_gelu, -12.9, 0.0, 7.0},
    {"Gelu tanh x >= 0", holo_ukernel_vgelutanh_f32__scalar, SIMD(holo_ukernel_vgelutanh_f32__simd128), ref_gelutanh,
     0.0, 10.0, 3.0},
    {"Gelu tanh x in [-3, 0)", holo_ukernel_vgelutanh_f32__scalar, SIMD(holo_ukernel_vgelutanh_f32__simd128),
     ref_gelutanh, -3.0, -0.0, 16.0},
};
#define N_CASES (sizeof CASES / sizeof CASES[0])

static uint32_t rs = 0x2545f491u;
static uint32_t rnd(void) {
  rs ^= rs << 13;
  rs ^= rs >> 17;
  rs ^= rs << 5;
  return rs;
}
static float bits_f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint32_t f_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static const float EDGE[] = {0.0f, -0.0f, 1e-45f, -1e-45f, 1e-40f, -1e-40f, FLT_MIN, -FLT_MIN, 1e-20f, -1e-20f,
                             0.5f, -0.5f, 1.0f, -1.0f, 3.0f, -3.0f, 9.0f, -9.0f, 15.0f, -15.0f, 20.0f, -20.0f,
                             87.33654f, -87.33654f, 87.3366f, -87.3366f, 88.7f, -88.7f, 88.8f, -88.8f, 104.0f,
                             -104.0f, 1e10f, -1e10f, FLT_MAX, -FLT_MAX, INFINITY, -INFINITY};

/* n inputs: edge values, NaNs with payloads and signs, and random floats
 * of every magnitude (random bits) or in [-30, 30]. */
static void fill(float *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint32_t r = rnd();
    switch (r & 3) {
    case 0: p[i] = EDGE[(r >> 2) % (sizeof EDGE / sizeof EDGE[0])]; break;
    case 1: p[i] = (r >> 2) & 1 ? bits_f(0x7fc00000u | (rnd() & 0x3fffffu)) : bits_f(0xff800001u | (rnd() & 0x3fffffu)); break;
    case 2: p[i] = bits_f(rnd()); break;
    default: p[i] = ((float)(rnd() >> 8) * (1.0f / 16777216.0f) * 2.0f - 1.0f) * 30.0f; break;
    }
  }
}

#define GUARD 4
#define CMP_MAX 1024
static const uint32_t SENTINEL = 0x7fbadbadu;

/* y = simd(x) and the scalar reference, both into guarded buffers at
 * offset `off` floats from a 16-byte boundary; same bytes (a NaN the
 * reference returns must come back as that NaN: both return x + x). */
static void compare(const act_case *c, size_t n, size_t off) {
  static _Alignas(16) float x[CMP_MAX + 8], a[CMP_MAX + 8], b[CMP_MAX + 8];
  assert_true(n + off + GUARD <= CMP_MAX + 8);
  fill(x + off, n);
  for (size_t i = 0; i < n + off + GUARD; i++) a[i] = b[i] = bits_f(SENTINEL);
  c->scalar(n, x + off, a + off);
  c->simd(n, x + off, b + off);
  for (size_t i = 0; i < n + off + GUARD; i++) {
    if (f_bits(a[i]) == f_bits(b[i])) continue;
    fail_msg("%s n=%zu off=%zu: element %zd: x=%.9g simd 0x%08x scalar 0x%08x", c->name, n, off,
             (ptrdiff_t)i - (ptrdiff_t)off, i >= off && i < off + n ? (double)x[i] : 0.0, f_bits(b[i]), f_bits(a[i]));
  }
  for (size_t i = 0; i < off; i++) assert_int_equal(f_bits(b[i]), SENTINEL);
  for (size_t i = 0; i < GUARD; i++) assert_int_equal(f_bits(b[off + n + i]), SENTINEL);
}

static void test_simd_equals_scalar(void **st) {
  (void)st;
  int ran = 0;
  for (size_t k = 0; k < N_CASES; k++) {
    if (!CASES[k].simd) continue;
    ran++;
    for (size_t n = 0; n <= 11; n++)
      for (size_t off = 0; off < 4; off++) compare(&CASES[k], n, off);
    for (int rep = 0; rep < 20; rep++) compare(&CASES[k], 1000 + (size_t)rep, (size_t)rep & 3);
    /* every edge value in every lane position */
    size_t ne = sizeof EDGE / sizeof EDGE[0];
    float y0[64], y1[64];
    for (size_t i = 0; i < ne; i++) {
      float xs[8];
      for (int l = 0; l < 8; l++) xs[l] = EDGE[(i + (size_t)l) % ne];
      CASES[k].scalar(8, xs, y0);
      CASES[k].simd(8, xs, y1);
      for (int l = 0; l < 8; l++)
        if (f_bits(y0[l]) != f_bits(y1[l]))
          fail_msg("%s(%.9g): simd 0x%08x scalar 0x%08x", CASES[k].name, (double)xs[l], f_bits(y1[l]), f_bits(y0[l]));
    }
  }
#ifdef __wasm_simd128__
  assert_int_equal(ran, (int)N_CASES);
#else
  assert_int_equal(ran, 0);
  skip();
#endif
}

/* Error of f against the double reference in units of the f32 ulp of the
 * reference (FLT_MIN's ulp below it). */
static double ulp_err(float got, double want) {
  double a = fabs(want);
  int e;
  frexp(a < FLT_MIN ? FLT_MIN : a, &e);
  return fabs((double)got - want) / ldexp(1.0, e - 24);
}

static void test_error_vs_double(void **st) {
  (void)st;
  enum { N = 1 << 20 };
  static float x[N], y[N];
  for (size_t k = 0; k < N_CASES; k++) {
    const act_case *c = &CASES[k];
    double worst = 0, at = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (size_t i = 0; i < N; i++)
        x[i] = pass == 0 ? (float)(c->lo + (c->hi - c->lo) * (double)i / (N - 1))
                         : (float)((rnd() & 1 ? 1 : -1) * ldexp(1.0, -(int)(rnd() % 40)) * (1 + (rnd() >> 9) * 0x1p-23));
      c->scalar(N, x, y);
      for (size_t i = 0; i < N; i++) {
        if (x[i] < c->lo || x[i] > c->hi) continue;
        double e = ulp_err(y[i], c->ref((double)x[i]));
        if (e > worst) worst = e, at = x[i];
      }
    }
    print_message("%s: max error %.3f ulp (at x = %.9g) over [%g, %g]\n", c->name, worst, at, c->lo, c->hi);
    if (worst > c->max_ulp) fail_msg("%s: %.3f ulp > %.1f at x = %.9g", c->name, worst, c->max_ulp, at);
  }
}

/* The values every variant must give exactly: limits and NaN. */
static void test_special_values(void **st) {
  (void)st;
  float x[6] = {INFINITY, -INFINITY, 0.0f, -0.0f, NAN, -200.0f}, y[6];
  holo_ukernel_vsigmoid_f32__scalar(6, x, y);
  assert_true(y[0] == 1.0f && y[1] == 0.0f && y[2] == 0.5f && y[3] == 0.5f && isnan(y[4]) && y[5] == 0.0f);
  holo_ukernel_vsilu_f32__scalar(6, x, y);
  assert_true(y[0] == INFINITY && isnan(y[1]) && y[2] == 0.0f && isnan(y[4]) && y[5] == 0.0f && signbit(y[5]));
  holo_ukernel_vtanh_f32__scalar(6, x, y);
  assert_true(y[0] == 1.0f && y[1] == -1.0f && y[2] == 0.0f && !signbit(y[2]) && signbit(y[3]) && isnan(y[4]) &&
              y[5] == -1.0f);
  holo_ukernel_verf_f32__scalar(6, x, y);
  assert_true(y[0] == 1.0f && y[1] == -1.0f && y[2] == 0.0f && signbit(y[3]) && isnan(y[4]) && y[5] == -1.0f);
  holo_ukernel_vgelu_f32__scalar(6, x, y);
  assert_true(y[0] == INFINITY && isnan(y[1]) && y[2] == 0.0f && signbit(y[3]) && isnan(y[4]) && y[5] == 0.0f);
  holo_ukernel_vgelutanh_f32__scalar(6, x, y);
  assert_true(y[0] == INFINITY && isnan(y[1]) && y[2] == 0.0f && isnan(y[4]) && y[5] == 0.0f);
  /* SiLU is x times Sigmoid's bytes: the fused node equals Mul(x, Sigmoid(x)) */
  enum { M = 4099 };
  static float xs[M], s[M], f[M];
  fill(xs, M);
  holo_vsigmoid_f32(M, xs, s);
  holo_vsilu_f32(M, xs, f);
  for (size_t i = 0; i < M; i++) {
    float p = xs[i] * s[i];
    if (f_bits(p) != f_bits(f[i]) && !(p != p && f[i] != f[i]))
      fail_msg("SiLU(%.9g) = 0x%08x, x * Sigmoid(x) = 0x%08x", (double)xs[i], f_bits(f[i]), f_bits(p));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_simd_equals_scalar),
      cmocka_unit_test(test_error_vs_double),
      cmocka_unit_test(test_special_values),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
