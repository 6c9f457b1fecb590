/* Pow along one broadcast row (vbroadcast.h). */
#include "common/elements.h"
#include "math/mathlib.h"
#include "microkernels/vbroadcast.h"

/* b^e exactly, wrapping modulo 2^64; a negative e gives 1/b^|e| truncated. */
static int64_t ipow(int64_t b, int64_t e) {
  if (e < 0) return b == 1 ? 1 : b == -1 ? ((e & 1) ? -1 : 1) : 0;
  uint64_t r = 1, x = (uint64_t)b;
  while (e) {
    if (e & 1) r *= x;
    e >>= 1;
    if (e) x *= x;
  }
  return (int64_t)r;
}

static int64_t sat_trunc(double d, double lo, double hi) {
  if (d != d) return 0;
  if (d <= lo) return (int64_t)lo;
  if (d >= hi) return (int64_t)hi;
  return (int64_t)d;
}

void holo_ukernel_vpow_numeric__scalar(uint32_t bt, uint32_t et, size_t n, const void *a, size_t sa, const void *e,
                                       size_t se, void *y) {
  const bool eint = !holo_k_is_float(et);
  switch (bt) {
  case HOLO_DT_F32:
    for (size_t j = 0; j < n; j++)
      ((float *)y)[j] = (float)holo_pow(((const float *)a)[j * sa], holo_k_load_f64(e, et, j * se));
    break;
  case HOLO_DT_F64:
    for (size_t j = 0; j < n; j++)
      ((double *)y)[j] = holo_pow(((const double *)a)[j * sa], holo_k_load_f64(e, et, j * se));
    break;
  case HOLO_DT_F16:
    for (size_t j = 0; j < n; j++)
      ((uint16_t *)y)[j] = holo_f64_to_f16(
          holo_pow(holo_f16_to_f64(((const uint16_t *)a)[j * sa]), holo_k_load_f64(e, et, j * se)));
    break;
  case HOLO_DT_I32:
    for (size_t j = 0; j < n; j++) {
      int32_t b = ((const int32_t *)a)[j * sa];
      ((int32_t *)y)[j] = eint ? (int32_t)(uint32_t)(uint64_t)ipow(b, holo_k_load_i64(e, et, j * se))
                               : (int32_t)sat_trunc(holo_pow(b, holo_k_load_f64(e, et, j * se)), -2147483648.0,
                                                    2147483647.0);
    }
    break;
  default: /* I64 */
    for (size_t j = 0; j < n; j++) {
      int64_t b = ((const int64_t *)a)[j * sa];
      double d = eint ? 0 : holo_pow((double)b, holo_k_load_f64(e, et, j * se));
      ((int64_t *)y)[j] = eint ? ipow(b, holo_k_load_i64(e, et, j * se))
                          : d != d                         ? 0
                          : d >= 9223372036854775808.0     ? INT64_MAX
                          : d <= -9223372036854775808.0    ? INT64_MIN
                                                           : (int64_t)d;
    }
    break;
  }
}
