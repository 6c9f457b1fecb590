/* Mod along one broadcast row (vbroadcast.h). */
#include "common/elements.h"
#include "math/mathlib.h"
#include "microkernels/vbroadcast.h"

#include "hologram/types.h"

/* -1 is special-cased: INT_MIN % -1 overflows (a trap in wasm); 0 is
 * refused by the operator, never a trap here. */
#define MOD_SIGNED(T)                                                                                        \
  for (size_t j = 0; j < n; j++) {                                                                           \
    T x = ((const T *)a)[j * sa], d = ((const T *)b)[j * sb], r;                                             \
    if (d == 0 || d == -1) r = 0;                                                                            \
    else {                                                                                                   \
      r = (T)(x % d);                                                                                        \
      if (!fmod && r != 0 && ((r < 0) != (d < 0))) r = (T)(r + d);                                           \
    }                                                                                                        \
    ((T *)y)[j] = r;                                                                                         \
  }
#define MOD_UNSIGNED(T)                                                                                      \
  for (size_t j = 0; j < n; j++) {                                                                           \
    T x = ((const T *)a)[j * sa], d = ((const T *)b)[j * sb];                                                \
    ((T *)y)[j] = d == 0 ? 0 : (T)(x % d);                                                                   \
  }

void holo_ukernel_vmod_numeric__scalar(uint32_t dt, bool fmod, size_t n, const void *a, size_t sa, const void *b,
                                       size_t sb, void *y) {
  switch (dt) {
  HOLO_K_SIGNED_CASES(MOD_SIGNED)
  HOLO_K_UNSIGNED_CASES(MOD_UNSIGNED)
  case HOLO_DT_F32:
    for (size_t j = 0; j < n; j++)
      ((float *)y)[j] = (float)holo_fmod(((const float *)a)[j * sa], ((const float *)b)[j * sb]);
    break;
  case HOLO_DT_F64:
    for (size_t j = 0; j < n; j++)
      ((double *)y)[j] = holo_fmod(((const double *)a)[j * sa], ((const double *)b)[j * sb]);
    break;
  default: /* F16: fmod is exact, so the f16 result is too */
    for (size_t j = 0; j < n; j++)
      ((uint16_t *)y)[j] = holo_f64_to_f16(
          holo_fmod(holo_f16_to_f64(((const uint16_t *)a)[j * sa]), holo_f16_to_f64(((const uint16_t *)b)[j * sb])));
    break;
  }
}
