/* Cast between the numeric dtypes (operators/cast.c), all deterministic:
 *  - float -> float rounds to nearest, ties to even, once (f64 -> f16 goes
 *    straight from the double, no double rounding); overflow gives +-inf,
 *    NaN stays NaN.
 *  - float -> integer truncates toward zero and saturates to the target
 *    range (like wasm's trunc_sat); NaN becomes 0.
 *  - integer -> integer wraps modulo 2^n (two's complement).
 *  - integer -> float rounds to nearest even.
 *  - anything -> bool is (x != 0) (NaN -> true); bool -> anything is 0 / 1. */
#ifndef HOLOGRAM_KERNELS_CAST_H
#define HOLOGRAM_KERNELS_CAST_H

#include <stddef.h>
#include <stdint.h>

#include "common/fp-contract.h"

/* cast-numeric-scalar.c */
void holo_ukernel_cast_numeric__scalar(uint32_t sd, uint32_t dd, size_t n, const void *x, void *y);

#endif
