/* Clip (vclip.h): y = min(max(x, lo), hi), each bound only when given;
 * every dtype but f32 (vclip-f32-scalar.c, the hot one: this file compiles
 * -Oz in the wasm cores). */
#include "common/elements.h"
#include "math/mathlib.h"
#include "microkernels/vclip.h"

#include "hologram/types.h"

void holo_ukernel_vclip_numeric__scalar(uint32_t dt, size_t n, const void *xv, const void *lo, const void *hi,
                                        void *y) {
  const bool has_lo = lo != 0, has_hi = hi != 0;
  switch (dt) {
#define CLIP(T)                                                                                              \
  {                                                                                                          \
    const T *x = xv;                                                                                         \
    T l = has_lo ? *(const T *)lo : 0, h = has_hi ? *(const T *)hi : 0;                                      \
    for (size_t i = 0; i < n; i++) {                                                                         \
      T v = x[i];                                                                                            \
      if (has_lo && v < l) v = l;                                                                            \
      if (has_hi && v > h) v = h;                                                                            \
      ((T *)y)[i] = v;                                                                                       \
    }                                                                                                        \
  }
  case HOLO_DT_F32: holo_ukernel_vclip_f32__scalar(n, xv, lo, hi, y); break;
  case HOLO_DT_F64:
    CLIP(double) break;
    HOLO_K_SIGNED_CASES(CLIP)
    HOLO_K_UNSIGNED_CASES(CLIP)
  default: { /* F16: compare as double, keep the bits */
    const uint16_t *x = xv;
    uint16_t l = has_lo ? *(const uint16_t *)lo : 0, h = has_hi ? *(const uint16_t *)hi : 0;
    double dl = holo_f16_to_f64(l), dh = holo_f16_to_f64(h);
    for (size_t i = 0; i < n; i++) {
      uint16_t v = x[i];
      double dv = holo_f16_to_f64(v);
      if (has_lo && dv < dl) v = l, dv = dl;
      if (has_hi && dv > dh) v = h;
      ((uint16_t *)y)[i] = v;
    }
    break;
  }
  }
}
