#include "common/elements.h"

#include "math/mathlib.h"

/* Element i of a dtype of at most 32 integer bits (bool: 0 / its byte); 0
 * for any other dtype. */
static int64_t small_int(const void *p, uint32_t dt, size_t i) {
  switch (dt) {
  case HOLO_DT_U8: case HOLO_DT_BOOL: return ((const uint8_t *)p)[i];
  case HOLO_DT_I8: return ((const int8_t *)p)[i];
  case HOLO_DT_U16: return ((const uint16_t *)p)[i];
  case HOLO_DT_I16: return ((const int16_t *)p)[i];
  case HOLO_DT_I32: return ((const int32_t *)p)[i];
  case HOLO_DT_U32: return ((const uint32_t *)p)[i];
  default: return 0;
  }
}

bool holo_k_numeric(uint32_t dt) { return dt != 0 && holo_dtype_size(dt) != 0 && !holo_dtype_is_list(dt); }

double holo_k_load_f64(const void *p, uint32_t dt, size_t i) {
  switch (dt) {
  case HOLO_DT_F32: return ((const float *)p)[i];
  case HOLO_DT_F64: return ((const double *)p)[i];
  case HOLO_DT_F16: return holo_f16_to_f64(((const uint16_t *)p)[i]);
  case HOLO_DT_BF16: return holo_bf16_to_f64(((const uint16_t *)p)[i]);
  case HOLO_DT_I64: return (double)((const int64_t *)p)[i];
  case HOLO_DT_U64: return (double)((const uint64_t *)p)[i];
  default: return (double)small_int(p, dt, i); /* exact: at most 32 bits */
  }
}

int64_t holo_k_load_i64(const void *p, uint32_t dt, size_t i) {
  switch (dt) {
  case HOLO_DT_F32: case HOLO_DT_F64: case HOLO_DT_F16: case HOLO_DT_BF16: {
    double d = holo_k_load_f64(p, dt, i);
    if (d != d) return 0;
    if (d >= 9223372036854775807.0) return INT64_MAX;
    if (d <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t)d;
  }
  case HOLO_DT_I64: return ((const int64_t *)p)[i];
  case HOLO_DT_U64: return (int64_t)((const uint64_t *)p)[i];
  default: return small_int(p, dt, i);
  }
}
