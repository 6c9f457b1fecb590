/* IsNaN and IsInf: a float class of each element, as bool. */
#ifndef HOLOGRAM_MICROKERNELS_VCLASSIFY_H
#define HOLOGRAM_MICROKERNELS_VCLASSIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* y[i] = 1 when x[i] (dtype dt: f32, f64 or f16) is NaN (nan = true) or an
 * infinity of a sign asked for (neg, pos), else 0
 * (vclassify-f16-f32-f64-scalar.c). By bits: no FP exception, no
 * flush-to-zero can change the answer. */
void holo_ukernel_vclassify_float__scalar(uint32_t dt, bool nan, bool neg, bool pos, size_t n, const void *x,
                                          uint8_t *y);

#endif
