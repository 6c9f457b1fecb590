/* Packing for the integer GEMM core (igemm.h): u8/i8 operands as int16
 * differences from their zero points in the c2 panel layouts. */
#include "microkernels/igemm.h"

static inline int32_t ip_at(const void *p, bool u8, size_t i) {
  return u8 ? (int32_t)((const uint8_t *)p)[i] : (int32_t)((const int8_t *)p)[i];
}

/* rows [r0, r1) of op into panels of w rows, r0 a multiple of w */
static void ip_pack(int16_t *dst, const holo_iop *op, size_t R, size_t K, size_t r0, size_t r1, size_t w) {
  size_t kp = holo_igemm_kp(K);
  for (size_t r = r0; r < r1; r++) {
    int16_t *d = dst + (r / w) * w * kp + 2 * (r % w);
    if (r >= R) {
      for (size_t q = 0; q < kp / 2; q++)
        d[q * 2 * w] = d[q * 2 * w + 1] = 0;
      continue;
    }
    int32_t z = op->z ? ip_at(op->z, op->z_u8, r * op->zs) : 0;
    for (size_t k = 0; k < K; k++)
      d[(k / 2) * 2 * w + (k & 1)] = (int16_t)(ip_at(op->p, op->is_u8, r * op->rs + k * op->cs) - z);
    if (K & 1) d[(K / 2) * 2 * w + 1] = 0;
  }
}

void holo_ukernel_ipack_a_i8__scalar(int16_t *dst, const holo_iop *a, size_t M, size_t K, size_t r0,
                                     size_t r1) {
  ip_pack(dst, a, M, K, r0, r1, HOLO_IGEMM_MR);
}

void holo_ukernel_ipack_b_i8__scalar(int16_t *dst, const holo_iop *b, size_t N, size_t K, size_t c0,
                                     size_t c1) {
  ip_pack(dst, b, N, K, c0, c1, HOLO_IGEMM_NR);
}
