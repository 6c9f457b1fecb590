/* The 16-bit float <-> f32 conversions (vcvt-f16-bf16-scalar.c,
 * vcvt-f16-bf16-simd128.c): Cast between f16 / bf16 and f32, which a
 * widened half-precision model (compiler/rewrites/widen-half.js) runs on
 * every input, output, weight and rounding point. One rule, all integer
 * bit arithmetic (the one float step, f16 subnormals, is exact or one
 * IEEE rounding of a non-NaN, which wasm fixes), so every variant gives the
 * same bytes:
 *   f16 -> f32   exact; inf / NaN keep sign, quiet bit and payload (the
 *                payload's 10 bits at the top of the f32 fraction).
 *   f32 -> f16   to nearest, ties to even; >= 65520 in magnitude is inf;
 *                a NaN keeps sign and its top 10 payload bits (0x200 if
 *                they are all zero, so it stays a NaN).
 *   bf16 -> f32  the 16 bits on top, exact (NaN bits kept).
 *   f32 -> bf16  to nearest, ties to even (overflow to inf); a NaN keeps
 *                its top 16 bits (quiet bit 0x40 set if the remaining
 *                payload bits would otherwise make it an inf).
 * A 16-bit value widened and narrowed again is the same 16 bits. The
 * per-element functions are the scalar reference; the SIMD variant runs
 * them on its tail. */
#ifndef HOLOGRAM_KERNELS_VCVT_H
#define HOLOGRAM_KERNELS_VCVT_H

#include <stddef.h>
#include <stdint.h>

#include "common/fp-contract.h"

static inline uint32_t holo_cvt_f16_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, a = h & 0x7fffu;
  if (a >= 0x7c00u) return sign | 0x7f800000u | ((a & 0x3ffu) << 13);
  if (a >= 0x0400u) return sign | ((a << 13) + 0x38000000u); /* exponent + (127 - 15) */
  union {
    float f;
    uint32_t u;
  } v = {(float)a * 0x1p-24f}; /* a subnormal: a * 2^-24, exact in f32 */
  return sign | v.u;
}

static inline uint16_t holo_cvt_f32_f16(uint32_t u) {
  uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
  if (a > 0x7f800000u) {
    uint32_t m = (a >> 13) & 0x3ffu;
    return (uint16_t)(sign | 0x7c00u | (m ? m : 0x200u));
  }
  if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* 65520 and up (inf too) */
  if (a >= 0x38800000u) return (uint16_t)(sign | (((a + 0xfffu + ((a >> 13) & 1u)) >> 13) - 0x1c000u));
  /* below 2^-14: a multiple of 2^-24, rounded by one f32 add of 2^23 */
  union {
    uint32_t u;
    float f;
  } v = {a};
  union {
    float f;
    uint32_t u;
  } r = {v.f * 0x1p24f + 0x1p23f};
  return (uint16_t)(sign | (r.u - 0x4b000000u));
}

static inline uint32_t holo_cvt_bf16_f32(uint16_t h) { return (uint32_t)h << 16; }

static inline uint16_t holo_cvt_f32_bf16(uint32_t u) {
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | ((u & 0x7f0000u) ? 0u : 0x40u));
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

/* n elements x -> y (f32 as its bits). */
void holo_ukernel_vcvt_f16_f32__scalar(size_t n, const uint16_t *x, uint32_t *y);
void holo_ukernel_vcvt_f32_f16__scalar(size_t n, const uint32_t *x, uint16_t *y);
void holo_ukernel_vcvt_bf16_f32__scalar(size_t n, const uint16_t *x, uint32_t *y);
void holo_ukernel_vcvt_f32_bf16__scalar(size_t n, const uint32_t *x, uint16_t *y);
#ifdef __wasm_simd128__
/* 8 lanes a step, the scalar bytes. */
void holo_ukernel_vcvt_f16_f32__simd128(size_t n, const uint16_t *x, uint32_t *y);
void holo_ukernel_vcvt_f32_f16__simd128(size_t n, const uint32_t *x, uint16_t *y);
void holo_ukernel_vcvt_bf16_f32__simd128(size_t n, const uint16_t *x, uint32_t *y);
void holo_ukernel_vcvt_f32_bf16__simd128(size_t n, const uint32_t *x, uint16_t *y);
#define HOLO_VCVT(name) holo_ukernel_vcvt_##name##__simd128
#else
#define HOLO_VCVT(name) holo_ukernel_vcvt_##name##__scalar
#endif

#endif
