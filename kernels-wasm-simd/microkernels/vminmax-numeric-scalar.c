/* Max / Min of several operands along one broadcast row (vbroadcast.h),
 * every dtype but f32 (vminmax-f32-scalar.c, the hot one: this file
 * compiles -Oz in the wasm cores). */
#include "common/elements.h"
#include "math/mathlib.h"
#include "microkernels/vbroadcast.h"

#include "hologram/types.h"

#define AT(T, k) (((const T *)p[k])[j * s[k]])

#define MM_INT(T)                                                                                            \
  for (size_t j = 0; j < n; j++) {                                                                           \
    T v = AT(T, 0);                                                                                          \
    for (uint32_t k = 1; k < nops; k++) {                                                                    \
      T u = AT(T, k);                                                                                        \
      if (max ? u > v : u < v) v = u;                                                                        \
    }                                                                                                        \
    ((T *)y)[j] = v;                                                                                         \
  }
/* a NaN met first stays; a later NaN replaces a number (vminmax-f32-scalar.c) */
#define MM_FLOAT(T)                                                                                          \
  for (size_t j = 0; j < n; j++) {                                                                           \
    T v = AT(T, 0);                                                                                          \
    for (uint32_t k = 1; k < nops; k++) {                                                                    \
      T u = AT(T, k);                                                                                        \
      if (v == v && (u != u || (max ? u > v : u < v))) v = u;                                                \
    }                                                                                                        \
    ((T *)y)[j] = v;                                                                                         \
  }

void holo_ukernel_vminmax_numeric__scalar(uint32_t dt, bool max, size_t n, uint32_t nops,
                                          const void *const *p, const size_t *s, void *y) {
  switch (dt) {
    HOLO_K_SIGNED_CASES(MM_INT)
    HOLO_K_UNSIGNED_CASES(MM_INT)
  case HOLO_DT_F32: holo_ukernel_vminmax_f32__scalar(max, n, nops, p, s, y); break;
  case HOLO_DT_F64: MM_FLOAT(double) break;
  default: /* F16: compare as double, keep the bits */
    for (size_t j = 0; j < n; j++) {
      uint16_t v = AT(uint16_t, 0);
      double dv = holo_f16_to_f64(v);
      for (uint32_t k = 1; k < nops; k++) {
        uint16_t u = AT(uint16_t, k);
        double du = holo_f16_to_f64(u);
        if (dv == dv && (du != du || (max ? du > dv : du < dv))) v = u, dv = du;
      }
      ((uint16_t *)y)[j] = v;
    }
    break;
  }
}
