/* QLinearAdd / QLinearMul row, scalar reference (vqbinary.h). */
#include "common/fp-contract.h"
#include "microkernels/vqbinary.h"

#define VQ_MAGIC 12582912.0f /* 1.5 * 2^23: adding it leaves rne(v) in the low mantissa bits */
#define VQ_MAGIC_BITS 0x4B400000

static inline int32_t vq_bits(float f) {
  union {
    float f;
    int32_t i;
  } u = {f};
  return u.i;
}

static inline int32_t vq_load(bool u8, const void *p, size_t i) {
  return u8 ? (int32_t)((const uint8_t *)p)[i] : (int32_t)((const int8_t *)p)[i];
}

void holo_ukernel_vqbinary_u8i8__scalar(const holo_vqbinary *p, size_t n, const void *a, size_t sa,
                                        const void *b, size_t sb, void *y) {
  const float lo = (float)((p->u8 ? 0 : -128) - p->zc), hi = (float)((p->u8 ? 255 : 127) - p->zc);
  for (size_t j = 0; j < n; j++) {
    float va = (float)(vq_load(p->u8, a, j * sa) - p->za) * p->as;
    float vb = (float)(vq_load(p->u8, b, j * sb) - p->zb) * p->bs;
    float v = p->mul ? va * vb : va + vb;
    if (p->relu) v = v < 0.0f ? 0.0f : v;
    v = v / p->cs;
    v = v < lo ? lo : v;
    v = hi < v ? hi : v;
    ((uint8_t *)y)[j] = (uint8_t)(vq_bits(v + VQ_MAGIC) - VQ_MAGIC_BITS + p->zc);
  }
}
