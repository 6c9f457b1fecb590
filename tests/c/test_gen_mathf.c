/* generation's exp/log (generation/gen-mathf.c) give the bytes of the CPU
 * backend's holo_expf/holo_logf that the samplers used before generation
 * stopped including a kernel header: sampled tokens stay what they were. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../generation/gen-mathf.h"

/* The CPU backend's (kernels-wasm-simd), linked from the same library;
 * declared here so this test does not depend on where kernels keep them. */
float holo_expf(float x);
float holo_logf(float x);

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Every 4099th float pattern (both signs, subnormals, inf, NaN) and every
 * float near the edges each function clamps or branches at. */
static void sweep(float (*ours)(float), float (*theirs)(float), const float *edges, int n_edges) {
  uint64_t checked = 0, differ = 0;
  for (uint64_t u = 0; u <= 0xFFFFFFFFu; u += 4099) {
    float x = from_bits((uint32_t)u);
    float a = ours(x), b = theirs(x);
    checked++;
    if (a != a && b != b) continue; /* NaN payloads are the target's choice */
    if (bits(a) != bits(b)) {
      if (differ++ < 5) fprintf(stderr, "x=%a (0x%08x): %a vs %a\n", x, (uint32_t)u, a, b);
    }
  }
  for (int e = 0; e < n_edges; e++)
    for (int d = -300; d <= 300; d++) {
      float x = from_bits(bits(edges[e]) + (uint32_t)d);
      float a = ours(x), b = theirs(x);
      checked++;
      if (a != a && b != b) continue;
      if (bits(a) != bits(b) && differ++ < 5) fprintf(stderr, "x=%a: %a vs %a\n", x, a, b);
    }
  assert_true(checked > 1000000);
  assert_int_equal(differ, 0);
}

static void test_expf_same_bytes(void **state) {
  (void)state;
  const float edges[] = {88.8f, -104.0f, 0.0f, 1.0f, -1.0f, 0.34657359f, -0.34657359f, 87.0f};
  sweep(holo_gen_expf, holo_expf, edges, (int)(sizeof edges / sizeof edges[0]));
}

static void test_logf_same_bytes(void **state) {
  (void)state;
  const float edges[] = {1.0f, 1.41421356f, 0.70710678f, 1e-38f, 2.0f, 3.4e38f, 1e-45f};
  sweep(holo_gen_logf, holo_logf, edges, (int)(sizeof edges / sizeof edges[0]));
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_expf_same_bytes), cmocka_unit_test(test_logf_same_bytes)};
  return cmocka_run_group_tests(tests, 0, 0);
}
