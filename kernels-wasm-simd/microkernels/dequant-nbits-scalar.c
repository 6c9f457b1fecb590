/* 4-bit block dequantization, scalar reference (dequant-nbits.h). */
#include "common/fp-contract.h"
#include "microkernels/dequant-nbits.h"

void holo_ukernel_dequant_q4__scalar(const uint8_t *b, const float *s, const uint8_t *z, size_t K, size_t N,
                                     size_t bs, size_t n0, size_t n1, float *w) {
  size_t kb = (K + bs - 1) / bs, blob = bs / 2, zrow = (kb + 1) / 2;
  for (size_t n = n0; n < n1; n++)
    for (size_t blk = 0; blk < kb; blk++) {
      const uint8_t *p = b + (n * kb + blk) * blob;
      int32_t zp = z ? (z[n * zrow + blk / 2] >> (4 * (blk & 1))) & 15 : 8;
      float sc = s[n * kb + blk];
      size_t k0 = blk * bs, k1 = k0 + bs < K ? k0 + bs : K;
      for (size_t k = k0; k < k1; k++) {
        size_t i = k - k0;
        int32_t q = (p[i / 2] >> (4 * (i & 1))) & 15;
        w[k * N + n] = (float)(q - zp) * sc;
      }
    }
}
