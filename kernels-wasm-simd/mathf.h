/* Float math without libm, for freestanding wasm. Each function computes
 * in double and rounds once, so results are within 1 ulp of the true value
 * and identical on every IEEE-754 target (no libm version enters a label). */
#ifndef HOLOGRAM_KERNELS_MATHF_H
#define HOLOGRAM_KERNELS_MATHF_H

float holo_expf(float x);
float holo_tanhf(float x);
float holo_erff(float x);
float holo_logf(float x);
/* 1 / (1 + exp(-x)), without overflow for large |x|. */
float holo_sigmoidf(float x);

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

#endif
