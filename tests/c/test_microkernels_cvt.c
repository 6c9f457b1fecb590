/* The 16-bit float <-> f32 conversion microkernels (microkernels/vcvt.h):
 * every f16 and bf16 value, and f32 patterns covering every 16-bit top
 * half with the rounding-critical low bits (ties, one either side, the
 * extremes) plus random ones, against a reference computed here the slow
 * way (the value through double, math/float16.c's correctly rounded
 * conversions, and the documented NaN rule); in the SIMD builds the
 * simd128 variant must give the scalar bytes at every length 0 .. 40 and
 * misalignment 0 .. 3, writing nothing outside its output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "math/mathlib.h"
#include "microkernels/vcvt.h"

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
static int is_nan32(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }

static uint32_t ref_f16_f32(uint16_t h) {
  if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu))
    return ((uint32_t)(h & 0x8000u) << 16) | 0x7f800000u | ((uint32_t)(h & 0x3ffu) << 13);
  return f_bits((float)holo_f16_to_f64(h));
}
static uint16_t ref_f32_f16(uint32_t u) {
  if (is_nan32(u)) {
    uint16_t m = (uint16_t)((u & 0x7fffffu) >> 13);
    return (uint16_t)(((u >> 16) & 0x8000u) | 0x7c00u | (m ? m : 0x200u));
  }
  return holo_f64_to_f16((double)bits_f(u));
}
static uint16_t ref_f32_bf16(uint32_t u) {
  if (is_nan32(u)) return (uint16_t)((u >> 16) | ((u & 0x7f0000u) ? 0 : 0x40u));
  return holo_f64_to_bf16((double)bits_f(u));
}

static uint32_t rs = 0x2545f491u;
static uint32_t rnd(void) {
  rs ^= rs << 13;
  rs ^= rs >> 17;
  rs ^= rs << 5;
  return rs;
}

/* f32 patterns: every top half with these low halves, then random. */
static const uint16_t LOW[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x2000, 0x2fff, 0x3000, 0x3001,
                               0x7fff, 0x8000, 0x8001, 0x9000, 0xefff, 0xf000, 0xffff, 0x5555, 0xaaaa};
#define N_LOW (sizeof LOW / sizeof LOW[0])
#define N_RANDOM (1u << 20)
static uint32_t pattern(size_t i) {
  if (i < 65536u * N_LOW) return ((uint32_t)(i / N_LOW) << 16) | LOW[i % N_LOW];
  return rnd();
}
#define N_PATTERNS (65536u * N_LOW + N_RANDOM)

static void test_f16_f32_every_value(void **state) {
  (void)state;
  static uint16_t x[65536];
  static uint32_t y[65536];
  for (uint32_t i = 0; i < 65536; i++) x[i] = (uint16_t)i;
  holo_ukernel_vcvt_f16_f32__scalar(65536, x, y);
  for (uint32_t i = 0; i < 65536; i++)
    if (y[i] != ref_f16_f32((uint16_t)i)) fail_msg("f16 0x%04x -> 0x%08x, want 0x%08x", i, y[i], ref_f16_f32((uint16_t)i));
  for (uint32_t i = 0; i < 65536; i++) {
    uint32_t w = holo_cvt_bf16_f32((uint16_t)i);
    if (w != (i << 16)) fail_msg("bf16 0x%04x -> 0x%08x", i, w);
    /* widened and narrowed again: the same 16 bits */
    if (holo_cvt_f32_f16(y[i]) != i) fail_msg("f16 0x%04x round trip gave 0x%04x", i, holo_cvt_f32_f16(y[i]));
    if (holo_cvt_f32_bf16(w) != i) fail_msg("bf16 0x%04x round trip gave 0x%04x", i, holo_cvt_f32_bf16(w));
  }
}

static void test_f32_to_half(void **state) {
  (void)state;
  enum { B = 4096 };
  static uint32_t x[B];
  static uint16_t h[B], b[B];
  rs = 0x2545f491u;
  for (size_t i0 = 0; i0 < N_PATTERNS; i0 += B) {
    size_t n = N_PATTERNS - i0 < B ? N_PATTERNS - i0 : B;
    for (size_t i = 0; i < n; i++) x[i] = pattern(i0 + i);
    holo_ukernel_vcvt_f32_f16__scalar(n, x, h);
    holo_ukernel_vcvt_f32_bf16__scalar(n, x, b);
    for (size_t i = 0; i < n; i++) {
      if (h[i] != ref_f32_f16(x[i])) fail_msg("f32 0x%08x -> f16 0x%04x, want 0x%04x", x[i], h[i], ref_f32_f16(x[i]));
      if (b[i] != ref_f32_bf16(x[i])) fail_msg("f32 0x%08x -> bf16 0x%04x, want 0x%04x", x[i], b[i], ref_f32_bf16(x[i]));
    }
  }
}

#ifdef __wasm_simd128__
/* One variant pair over every length and misalignment, guards around. */
#define GUARD 8
static void check_pair(int which, const uint8_t *src, size_t n, size_t off) {
  uint8_t got[(48 + 2 * GUARD) * 4], want[(48 + 2 * GUARD) * 4];
  size_t es = which < 2 ? 4 : 2; /* output element size */
  memset(got, 0xa5, sizeof got);
  memset(want, 0xa5, sizeof want);
  void *g = got + (GUARD + off) * es, *w = want + (GUARD + off) * es;
  switch (which) {
  case 0: holo_ukernel_vcvt_f16_f32__simd128(n, (const uint16_t *)src, g); holo_ukernel_vcvt_f16_f32__scalar(n, (const uint16_t *)src, w); break;
  case 1: holo_ukernel_vcvt_bf16_f32__simd128(n, (const uint16_t *)src, g); holo_ukernel_vcvt_bf16_f32__scalar(n, (const uint16_t *)src, w); break;
  case 2: holo_ukernel_vcvt_f32_f16__simd128(n, (const uint32_t *)src, g); holo_ukernel_vcvt_f32_f16__scalar(n, (const uint32_t *)src, w); break;
  default: holo_ukernel_vcvt_f32_bf16__simd128(n, (const uint32_t *)src, g); holo_ukernel_vcvt_f32_bf16__scalar(n, (const uint32_t *)src, w); break;
  }
  if (memcmp(got, want, sizeof got) != 0) fail_msg("vcvt %d: simd128 differs from scalar (n %zu, offset %zu)", which, n, off);
}

static void test_simd_same_bytes(void **state) {
  (void)state;
  enum { B = 4096 };
  static uint32_t x[B + 8];
  static uint16_t h[B + 8];
  static uint32_t ys[B], yv[B];
  static uint16_t hs[B], hv[B];
  /* every 16-bit value through the 8-lane body */
  for (uint32_t i0 = 0; i0 < 65536; i0 += B) {
    for (uint32_t i = 0; i < B; i++) h[i] = (uint16_t)(i0 + i);
    holo_ukernel_vcvt_f16_f32__simd128(B, h, yv);
    holo_ukernel_vcvt_f16_f32__scalar(B, h, ys);
    if (memcmp(ys, yv, sizeof ys)) fail_msg("f16 -> f32: simd128 differs from scalar near 0x%04x", i0);
    holo_ukernel_vcvt_bf16_f32__simd128(B, h, yv);
    holo_ukernel_vcvt_bf16_f32__scalar(B, h, ys);
    if (memcmp(ys, yv, sizeof ys)) fail_msg("bf16 -> f32: simd128 differs from scalar near 0x%04x", i0);
  }
  rs = 0x2545f491u;
  for (size_t i0 = 0; i0 < N_PATTERNS; i0 += B) {
    size_t n = N_PATTERNS - i0 < B ? N_PATTERNS - i0 : B;
    for (size_t i = 0; i < n; i++) x[i] = pattern(i0 + i);
    holo_ukernel_vcvt_f32_f16__simd128(n, x, hv);
    holo_ukernel_vcvt_f32_f16__scalar(n, x, hs);
    if (memcmp(hs, hv, n * 2)) fail_msg("f32 -> f16: simd128 differs from scalar in block %zu", i0 / B);
    holo_ukernel_vcvt_f32_bf16__simd128(n, x, hv);
    holo_ukernel_vcvt_f32_bf16__scalar(n, x, hs);
    if (memcmp(hs, hv, n * 2)) fail_msg("f32 -> bf16: simd128 differs from scalar in block %zu", i0 / B);
  }
  /* lengths and misalignment, with NaNs, infs and subnormals in the mix */
  for (size_t i = 0; i < 48; i++) x[i] = (i & 3) ? pattern(i * 997 % (65536u * N_LOW)) : rnd();
  for (size_t i = 0; i < 48 + 8; i++) h[i] = (uint16_t)rnd();
  for (size_t off = 0; off < 4; off++)
    for (size_t n = 0; n <= 40; n++)
      for (int which = 0; which < 4; which++)
        check_pair(which, which < 2 ? (const uint8_t *)(h + off) : (const uint8_t *)(x + off), n, off);
}
#endif

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_f16_f32_every_value),
    cmocka_unit_test(test_f32_to_half),
#ifdef __wasm_simd128__
    cmocka_unit_test(test_simd_same_bytes),
#endif
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
