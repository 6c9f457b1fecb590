/* Requantization, scalar reference (requant.h). */
#include "common/fp-contract.h"
#include "microkernels/requant.h"

#define RQ_MAGIC 12582912.0f /* 1.5 * 2^23: adding it leaves rne(f) in the low mantissa bits */
#define RQ_MAGIC_BITS 0x4B400000

static inline int32_t rq_bits(float f) {
  union {
    float f;
    int32_t i;
  } u = {f};
  return u.i;
}

void holo_ukernel_requant_i32__scalar(size_t n, const int32_t *acc, const holo_requant *q, void *y) {
  const float lo = (float)((q->u8 ? 0 : -128) - q->zp), hi = (float)((q->u8 ? 255 : 127) - q->zp);
  for (size_t j = 0; j < n; j++) {
    float f = (float)(int32_t)((uint32_t)acc[j] + (uint32_t)q->bias) * q->s[j * q->ss];
    f = f < lo ? lo : f;
    f = hi < f ? hi : f;
    int32_t r = rq_bits(f + RQ_MAGIC) - RQ_MAGIC_BITS + q->zp;
    if (q->u8)
      ((uint8_t *)y)[j] = (uint8_t)r;
    else
      ((int8_t *)y)[j] = (int8_t)r;
  }
}
