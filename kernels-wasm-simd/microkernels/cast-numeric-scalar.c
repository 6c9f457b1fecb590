/* Cast's conversions (cast.h): n elements of dtype sd at x into dtype dd
 * at y. */
#include "common/elements.h"
#include "math/mathlib.h"
#include "microkernels/cast.h"
#include "microkernels/vcvt.h"

#include "hologram/mem.h"

/* float value -> integer of [lo, hi] (as int64; u64 handled apart) */
static int64_t sat_i64(double d, double lo, double hi) {
  if (d != d) return 0;
  if (d <= lo) return (int64_t)lo;
  if (d >= hi) return (int64_t)hi;
  return (int64_t)d;
}

static void store_f(void *y, uint32_t dt, size_t i, double d) {
  switch (dt) {
  case HOLO_DT_F32: ((float *)y)[i] = (float)d; break;
  case HOLO_DT_F64: ((double *)y)[i] = d; break;
  case HOLO_DT_F16: ((uint16_t *)y)[i] = holo_f64_to_f16(d); break;
  case HOLO_DT_BF16: ((uint16_t *)y)[i] = holo_f64_to_bf16(d); break;
  case HOLO_DT_BOOL: ((uint8_t *)y)[i] = d != 0; break;
  case HOLO_DT_U8: ((uint8_t *)y)[i] = (uint8_t)sat_i64(d, 0, 255); break;
  case HOLO_DT_I8: ((int8_t *)y)[i] = (int8_t)sat_i64(d, -128, 127); break;
  case HOLO_DT_U16: ((uint16_t *)y)[i] = (uint16_t)sat_i64(d, 0, 65535); break;
  case HOLO_DT_I16: ((int16_t *)y)[i] = (int16_t)sat_i64(d, -32768, 32767); break;
  case HOLO_DT_U32: ((uint32_t *)y)[i] = (uint32_t)sat_i64(d, 0, 4294967295.0); break;
  case HOLO_DT_I32: ((int32_t *)y)[i] = (int32_t)sat_i64(d, -2147483648.0, 2147483647.0); break;
  case HOLO_DT_I64:
    /* 2^63 is the first double above the range */
    ((int64_t *)y)[i] = d != d                        ? 0
                        : d >= 9223372036854775808.0  ? INT64_MAX
                        : d <= -9223372036854775808.0 ? INT64_MIN
                                                      : (int64_t)d;
    break;
  case HOLO_DT_U64:
    ((uint64_t *)y)[i] = d != d || d <= 0 ? 0 : d >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)d;
    break;
  default: break;
  }
}

/* integer source: v holds the value's bits; is_signed tells how to read them */
static void store_i(void *y, uint32_t dt, size_t i, uint64_t v, bool is_signed) {
  switch (dt) {
  case HOLO_DT_F32: ((float *)y)[i] = is_signed ? (float)(int64_t)v : (float)v; break;
  case HOLO_DT_F64: ((double *)y)[i] = is_signed ? (double)(int64_t)v : (double)v; break;
  case HOLO_DT_F16:
    /* beyond 2^53 the double rounds first, but such values are inf in f16 */
    ((uint16_t *)y)[i] = holo_f64_to_f16(is_signed ? (double)(int64_t)v : (double)v);
    break;
  case HOLO_DT_BF16:
    /* beyond 2^53 the double rounds first: a tie it makes can round bf16 the
     * other way (such ints keep 8 significant bits in bf16 anyway) */
    ((uint16_t *)y)[i] = holo_f64_to_bf16(is_signed ? (double)(int64_t)v : (double)v);
    break;
  case HOLO_DT_BOOL: ((uint8_t *)y)[i] = v != 0; break;
  case HOLO_DT_U8:
  case HOLO_DT_I8: ((uint8_t *)y)[i] = (uint8_t)v; break;
  case HOLO_DT_U16:
  case HOLO_DT_I16: ((uint16_t *)y)[i] = (uint16_t)v; break;
  case HOLO_DT_U32:
  case HOLO_DT_I32: ((uint32_t *)y)[i] = (uint32_t)v; break;
  case HOLO_DT_U64:
  case HOLO_DT_I64: ((uint64_t *)y)[i] = v; break;
  default: break;
  }
}

/* Between f16 / bf16 and f32: the vcvt microkernels' rule (vcvt.h), a NaN
 * moved by its bits, so a 16-bit value widened and narrowed again is the
 * same bits. */
static bool cast_half(uint32_t sd, uint32_t dd, size_t n, const void *x, void *y) {
  if (sd == HOLO_DT_F16 && dd == HOLO_DT_F32)
    holo_ukernel_vcvt_f16_f32__scalar(n, x, y);
  else if (sd == HOLO_DT_BF16 && dd == HOLO_DT_F32)
    holo_ukernel_vcvt_bf16_f32__scalar(n, x, y);
  else if (sd == HOLO_DT_F32 && dd == HOLO_DT_F16)
    holo_ukernel_vcvt_f32_f16__scalar(n, x, y);
  else if (sd == HOLO_DT_F32 && dd == HOLO_DT_BF16)
    holo_ukernel_vcvt_f32_bf16__scalar(n, x, y);
  else
    return false;
  return true;
}

void holo_ukernel_cast_numeric__scalar(uint32_t sd, uint32_t dd, size_t n, const void *x, void *y) {
  if (sd == dd && sd != HOLO_DT_BOOL) {
    holo_memcpy(y, x, n * holo_dtype_size(sd));
    return;
  }
  /* int32 -> f32 (ConvInteger's and MatMulInteger's sums into their float
   * scale): one conversion an element, which the compiler vectorizes, not
   * the generic switch per element; the value is the int64 path's (both
   * round the exact integer once to nearest even) */
  if (sd == HOLO_DT_I32 && dd == HOLO_DT_F32) {
    const int32_t *a = x;
    float *b = y;
    for (size_t i = 0; i < n; i++)
      b[i] = (float)a[i];
    return;
  }
  if (cast_half(sd, dd, n, x, y)) return;
  if (holo_k_is_float(sd)) {
    for (size_t i = 0; i < n; i++)
      store_f(y, dd, i, holo_k_load_f64(x, sd, i));
  } else if (sd == HOLO_DT_U64) {
    for (size_t i = 0; i < n; i++)
      store_i(y, dd, i, ((const uint64_t *)x)[i], false);
  } else if (sd == HOLO_DT_BOOL) {
    for (size_t i = 0; i < n; i++)
      store_i(y, dd, i, ((const uint8_t *)x)[i] != 0, true);
  } else {
    for (size_t i = 0; i < n; i++)
      store_i(y, dd, i, (uint64_t)holo_k_load_i64(x, sd, i), true);
  }
}
