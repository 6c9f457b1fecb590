/* The QLinearAdd / QLinearMul row kernels (microkernels/vqbinary.h): the
 * scalar reference against the formula computed here in float steps
 * (volatile, so each step rounds once), and in the SIMD builds the simd128
 * variant against the scalar byte for byte: u8 and i8, Add and Mul, with
 * and without the Relu, every row step pair the broadcast walk hands out
 * ((1,1), (1,0), (0,1), (0,0), and a step of 2 the SIMD kernel passes
 * on), lengths 0 .. 3 * 16 + 5, ties (scales 0.5, 0.25), saturation both
 * ways, extreme zero points, and guard bytes past every output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "microkernels/vqbinary.h"

#define N_MAX 53
#define GUARD 0xa5

static uint32_t rng = 7474;
static uint32_t rnd(void) { return rng = rng * 1664525u + 1013904223u; }

static float want_rne(float v) {
  /* round half to even by hand: v is clamped to a small range here */
  float f = (float)(int32_t)v;
  if (f > v) f -= 1.0f;
  float d = v - f;
  if (d > 0.5f || (d == 0.5f && ((int32_t)f & 1))) f += 1.0f;
  return f;
}

static uint8_t want_one(const holo_vqbinary *p, int32_t a, int32_t b) {
  volatile float va = (float)(a - p->za) * p->as, vb = (float)(b - p->zb) * p->bs;
  volatile float v = p->mul ? va * vb : va + vb;
  if (p->relu && v < 0.0f) v = 0.0f;
  v = v / p->cs;
  const float lo = (float)((p->u8 ? 0 : -128) - p->zc), hi = (float)((p->u8 ? 255 : 127) - p->zc);
  float c = v < lo ? lo : (v > hi ? hi : v);
  return (uint8_t)((int32_t)want_rne(c) + p->zc);
}

typedef void (*row_fn)(const holo_vqbinary *, size_t, const void *, size_t, const void *, size_t, void *);

static void check(row_fn fn, const char *name) {
  static const float scales[][3] = {{0.05f, 0.03f, 0.07f},
                                    {0.5f, 0.25f, 1.0f},
                                    {1.0f, 1.0f, 0.5f},
                                    {0.002f, 0.9f, 0.001f},
                                    {3.0f, 2.0f, 0.01f}};
  static const size_t steps[][2] = {{1, 1}, {1, 0}, {0, 1}, {0, 0}, {2, 1}};
  uint8_t a[2 * N_MAX + 2], b[2 * N_MAX + 2], y[N_MAX + 4];
  for (int u8 = 0; u8 <= 1; u8++)
    for (int mul = 0; mul <= 1; mul++)
      for (int relu = 0; relu <= 1; relu++)
        for (size_t si = 0; si < sizeof scales / sizeof scales[0]; si++)
          for (size_t st = 0; st < sizeof steps / sizeof steps[0]; st++)
            for (size_t n = 0; n <= N_MAX; n++) {
              int32_t zmax = u8 ? 255 : 127, zmin = u8 ? 0 : -128;
              holo_vqbinary p = {.as = scales[si][0],
                                 .bs = scales[si][1],
                                 .cs = scales[si][2],
                                 .za = (n & 1) ? zmin : zmin + (int32_t)(rnd() % 256),
                                 .zb = (n & 2) ? zmax : zmin + (int32_t)(rnd() % 256),
                                 .zc = zmin + (int32_t)(rnd() % 256),
                                 .u8 = u8,
                                 .mul = mul,
                                 .relu = relu};
              for (size_t i = 0; i < sizeof a; i++)
                a[i] = (uint8_t)rnd(), b[i] = (uint8_t)rnd();
              memset(y, GUARD, sizeof y);
              size_t sa = steps[st][0], sb = steps[st][1];
              fn(&p, n, a, sa, b, sb, y);
              for (size_t j = 0; j < n; j++) {
                int32_t ai = u8 ? a[j * sa] : (int8_t)a[j * sa], bi = u8 ? b[j * sb] : (int8_t)b[j * sb];
                uint8_t w = want_one(&p, ai, bi);
                if (y[j] != w)
                  fail_msg("%s: u8 %d mul %d relu %d scales %zu steps (%zu,%zu) n %zu j %zu: %u, want %u",
                           name, u8, mul, relu, si, sa, sb, n, j, y[j], w);
              }
              for (size_t j = n; j < sizeof y; j++)
                if (y[j] != GUARD) fail_msg("%s: wrote past n = %zu", name, n);
            }
}

static void test_scalar(void **st) {
  (void)st;
  check(holo_ukernel_vqbinary_u8i8__scalar, "vqbinary scalar");
}

static void test_simd128(void **st) {
  (void)st;
#ifdef __wasm_simd128__
  check(holo_ukernel_vqbinary_u8i8__simd128, "vqbinary simd128");
#else
  skip();
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_scalar), cmocka_unit_test(test_simd128)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
