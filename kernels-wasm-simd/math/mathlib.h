/* The kernels' math library: no libm, freestanding, the same bytes on
 * every IEEE-754 target (no libm version enters a label).
 *
 * f32 functions compute in double and round once, so results are within
 * 1 ulp of the true value. f64 functions are deterministic polynomials and
 * exact bit algorithms. Two exponentials stay apart on purpose: holo_expf
 * (13-term polynomial on the f32 range) and holo_exp (14 terms, the whole
 * double range, subnormal results) are different functions whose bytes are
 * in labels; folding one into the other would change outputs. */
#ifndef HOLOGRAM_KERNELS_MATHLIB_H
#define HOLOGRAM_KERNELS_MATHLIB_H

#include <stdint.h>

/* ---- f32, computed in double, rounded once (expf.c, logf.c, erff.c) ---- */

float holo_expf(float x);
float holo_tanhf(float x);
float holo_erff(float x);
float holo_logf(float x);
/* 1 / (1 + exp(-x)), without overflow for large |x|. */
float holo_sigmoidf(float x);

/* The activation kernels' f32-only forms (exp, Sigmoid, SiLU, Tanh, Erf,
 * Gelu; scalar and 4 lanes with the same bytes) are header functions:
 * vexpf.h, vsigmoidf.h, vtanhf.h, verff.h. */

/* ---- sqrt (sqrt.c) ---- */

/* Correctly rounded double sqrt (IEEE-754 round to nearest even), so its
 * bytes equal any hardware sqrt's. holo_sqrt is the hardware instruction
 * where the target has one (wasm f64.sqrt, x86 sqrtsd, ...), else
 * holo_sqrt_soft: a single-precision FPU (Cortex-M4F) or none would turn
 * __builtin_sqrt into a call to libm's sqrt, which the core must not need. */
double holo_sqrt_soft(double x);
static inline double holo_sqrt(double x) {
#if defined(__wasm__) || defined(__x86_64__) || defined(__i386__) || defined(__aarch64__) ||                 \
    (defined(__ARM_FP) && (__ARM_FP & 8)) || (defined(__riscv_flen) && __riscv_flen >= 64)
  return __builtin_sqrt(x);
#else
  return holo_sqrt_soft(x);
#endif
}

/* ---- f64 (exp.c, log.c, trig.c, atan.c, hyperbolic.c, rounding.c, pow.c, erfc.c) ---- */

double holo_exp(double x);
/* e^x - 1 without cancellation near 0 */
double holo_expm1(double x);
double holo_log(double x);
/* log(1 + x) for x >= 0 */
double holo_log1p(double x);
/* Argument reduction by a 3-part pi/2 (exact for |x| < 2^19 * pi/2; larger
 * arguments keep the reduction error of that split). */
double holo_sin(double x);
double holo_cos(double x);
/* Inverse trigonometric (atan.c): NaN outside the domain. */
double holo_atan(double x);
double holo_asin(double x);
double holo_acos(double x);
/* Hyperbolic and inverse hyperbolic (hyperbolic.c): NaN outside the domain,
 * +-inf where the value is infinite (atanh(+-1), overflow). */
double holo_sinh(double x);
double holo_cosh(double x);
double holo_asinh(double x);
double holo_acosh(double x);
double holo_atanh(double x);
/* C fmod: exact, the sign of x. */
double holo_fmod(double x, double y);
/* C pow semantics (pow(x, 0) = 1, pow(1, y) = 1, negative base with an
 * integral exponent keeps its sign, otherwise NaN). Integral exponents of
 * magnitude <= 2^16 use repeated squaring. */
double holo_pow(double x, double y);
/* Nearest integer, ties to even (exact for every double). */
double holo_rint(double x);
double holo_floor(double x);
double holo_ceil(double x);
/* erfc: a series for erf below 3, a continued fraction above. */
double holo_erfc(double z);

/* ---- IEEE-754 binary16 (float16.c) ---- */

/* Exact. */
double holo_f16_to_f64(uint16_t h);
/* Round to nearest, ties to even; overflow gives +-inf, NaN stays a quiet
 * NaN with the sign kept. Rounded once from the double (no double rounding). */
uint16_t holo_f64_to_f16(double d);
/* bfloat16 (the top half of an f32) <-> double: exact in; out rounded once
 * to nearest, ties to even, overflow +-inf, NaN a quiet NaN with its sign
 * and top payload bits (an f32's NaN keeps its bits 16..22). */
double holo_bf16_to_f64(uint16_t b);
uint16_t holo_f64_to_bf16(double d);

#endif
