/* Element access for the operators and microkernels that handle any
 * numeric dtype: an element read as double or as int64. Freestanding. */
#ifndef HOLOGRAM_KERNELS_ELEMENTS_H
#define HOLOGRAM_KERNELS_ELEMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hologram/types.h"

/* True for the dtypes the loads below handle (every dtype but 0). */
bool holo_k_numeric(uint32_t dt);
static inline bool holo_k_is_float(uint32_t dt) {
  return dt == HOLO_DT_F32 || dt == HOLO_DT_F64 || dt == HOLO_DT_F16 || dt == HOLO_DT_BF16;
}
/* Element i of a buffer of dtype dt, as double (i64/u64 beyond 2^53 round). */
double holo_k_load_f64(const void *p, uint32_t dt, size_t i);
/* Element i as int64 (floats truncate with saturation, NaN -> 0; u64 wraps). */
int64_t holo_k_load_i64(const void *p, uint32_t dt, size_t i);

/* The switch cases of the integer dtypes, each running M(its C type) and
 * breaking: the signed ones, the unsigned ones. */
#define HOLO_K_SIGNED_CASES(M)                                                                               \
  case HOLO_DT_I8: M(int8_t) break;                                                                          \
  case HOLO_DT_I16: M(int16_t) break;                                                                        \
  case HOLO_DT_I32: M(int32_t) break;                                                                        \
  case HOLO_DT_I64: M(int64_t) break;
#define HOLO_K_UNSIGNED_CASES(M)                                                                             \
  case HOLO_DT_U8: M(uint8_t) break;                                                                         \
  case HOLO_DT_U16: M(uint16_t) break;                                                                       \
  case HOLO_DT_U32: M(uint32_t) break;                                                                       \
  case HOLO_DT_U64: M(uint64_t) break;

#endif
