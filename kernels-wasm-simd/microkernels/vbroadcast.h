/* The row microkernels of the broadcasting elementwise operators
 * (operators/binary.c, minmax.c, compare.c, logical.c, where.c, prelu.c):
 * each computes one row of a broadcast walk (common/bcast.h), n outputs
 * y[0..n) from operands whose element j is at a[j*sa] (sa 0: one value
 * broadcast along the row). Typed operands are typed pointers; the ones
 * that take a dtype (dt, ...) are byte pointers to the row's first element.
 * Numeric results are those of one C operation per element in the dtype
 * named (f16 through double: exact conversions, one rounding). */
#ifndef HOLOGRAM_KERNELS_VBROADCAST_H
#define HOLOGRAM_KERNELS_VBROADCAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/fp-contract.h"

/* Add, Sub, Mul, Div: holo_ukernel_v{add,sub,mul,div}_<dt>__scalar for
 * f32, f64 and every integer dtype (vbinary-<dt>-scalar.c) and
 * holo_ukernel_v{add,sub,mul,div}_f32__simd128 (vbinary-f32-simd128.c: 4
 * lanes where both steps are 0 or 1, the same bytes as the scalar kernel),
 * generated from the template vbinary.c.in in kernels-wasm-simd/gen. */
#define HOLO_VBINARY_DECLS(DT, T)                                                                            \
  void holo_ukernel_vadd_##DT##__scalar(size_t n, const T *a, size_t sa, const T *b, size_t sb, T *y);       \
  void holo_ukernel_vsub_##DT##__scalar(size_t n, const T *a, size_t sa, const T *b, size_t sb, T *y);       \
  void holo_ukernel_vmul_##DT##__scalar(size_t n, const T *a, size_t sa, const T *b, size_t sb, T *y);       \
  void holo_ukernel_vdiv_##DT##__scalar(size_t n, const T *a, size_t sa, const T *b, size_t sb, T *y);
HOLO_VBINARY_DECLS(f32, float)
HOLO_VBINARY_DECLS(i32, int32_t)
HOLO_VBINARY_DECLS(i64, int64_t)
HOLO_VBINARY_DECLS(f64, double)
HOLO_VBINARY_DECLS(i8, int8_t)
HOLO_VBINARY_DECLS(i16, int16_t)
HOLO_VBINARY_DECLS(u8, uint8_t)
HOLO_VBINARY_DECLS(u16, uint16_t)
HOLO_VBINARY_DECLS(u32, uint32_t)
HOLO_VBINARY_DECLS(u64, uint64_t)
#undef HOLO_VBINARY_DECLS
#ifdef __wasm_simd128__
void holo_ukernel_vadd_f32__simd128(size_t n, const float *a, size_t sa, const float *b, size_t sb, float *y);
void holo_ukernel_vsub_f32__simd128(size_t n, const float *a, size_t sa, const float *b, size_t sb, float *y);
void holo_ukernel_vmul_f32__simd128(size_t n, const float *a, size_t sa, const float *b, size_t sb, float *y);
void holo_ukernel_vdiv_f32__simd128(size_t n, const float *a, size_t sa, const float *b, size_t sb, float *y);
#endif

/* Pow (vpow-numeric-scalar.c): base of dtype bt (f32, f64, f16, i32, i64),
 * exponent of any numeric dtype et, output bt. Float bases: holo_pow in
 * double. Integer base and exponent: exact, wrapping; a negative exponent
 * gives 1/b^|e| truncated (0 unless |b| = 1). Integer base, float exponent:
 * holo_pow in double, truncated and saturated. */
void holo_ukernel_vpow_numeric__scalar(uint32_t bt, uint32_t et, size_t n, const void *a, size_t sa,
                                       const void *e, size_t se, void *y);

/* Mod (vmod-numeric-scalar.c), one numeric dtype dt: fmod = false (integers
 * only) the sign of the divisor (Python %), true C fmod / %, the sign of
 * the dividend. A zero divisor gives 0 (the operator refuses it first). */
void holo_ukernel_vmod_numeric__scalar(uint32_t dt, bool fmod, size_t n, const void *a, size_t sa,
                                       const void *b, size_t sb, void *y);

/* Max / Min of nops operands p[k] (steps s[k]) of one numeric dtype
 * (vminmax-numeric-scalar.c): floats propagate NaN (the first met), f16
 * compares as double and keeps the bits. */
void holo_ukernel_vminmax_numeric__scalar(uint32_t dt, bool max, size_t n, uint32_t nops,
                                          const void *const *p, const size_t *s, void *y);
/* The f32 case (vminmax-f32-scalar.c, hot; the numeric kernel calls it). */
void holo_ukernel_vminmax_f32__scalar(bool max, size_t n, uint32_t nops, const void *const *p,
                                      const size_t *s, void *y);

/* Comparisons into bool (vcmp-numeric-scalar.c): exact for integers (no
 * conversion through double); NaN compares false. */
enum { HOLO_CMP_EQ, HOLO_CMP_LT, HOLO_CMP_GT, HOLO_CMP_LE, HOLO_CMP_GE };
void holo_ukernel_vcmp_numeric__scalar(int cmp, uint32_t dt, size_t n, const void *a, size_t sa,
                                       const void *b, size_t sb, uint8_t *y);

/* And, Or, Xor on bool (b NULL: Not) (vlogic-bool-scalar.c). */
enum { HOLO_LOGIC_AND, HOLO_LOGIC_OR, HOLO_LOGIC_XOR, HOLO_LOGIC_NOT };
void holo_ukernel_vlogic_bool__scalar(int op, size_t n, const uint8_t *a, size_t sa, const uint8_t *b,
                                      size_t sb, uint8_t *y);

/* BitwiseAnd, BitwiseOr, BitwiseXor on two operands, BitwiseNot (b NULL)
 * on one, of one integer dtype of es bytes (vbitwise-int-scalar.c). */
void holo_ukernel_vbitwise_int__scalar(int op, size_t es, size_t n, const void *a, size_t sa, const void *b,
                                       size_t sb, void *y);

/* BitShift (vbitshift-unsigned-scalar.c), one unsigned dtype dt: x << s or
 * x >> s; a shift of the width or more gives 0 (C leaves it undefined; the
 * ONNX reference, numpy on uint64, agrees for the widths the suite tests). */
void holo_ukernel_vbitshift_unsigned__scalar(uint32_t dt, bool left, size_t n, const void *x, size_t sx,
                                             const void *s, size_t ss, void *y);

/* Where (vwhere-any-scalar.c): elements of es bytes, y[j] = c[j*sc] ?
 * x[j*sx] : v[j*sv]. */
void holo_ukernel_vwhere_any__scalar(size_t es, size_t n, const uint8_t *c, size_t sc, const uint8_t *x,
                                     size_t sx, const uint8_t *v, size_t sv, uint8_t *y);

/* PRelu (vprelu-f32-scalar.c): y[j] = x < 0 ? x * slope : x. */
void holo_ukernel_vprelu_f32__scalar(size_t n, const float *x, size_t sx, const float *slope, size_t ss,
                                     float *y);

#endif
