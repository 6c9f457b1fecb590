/* Clip over n contiguous elements of one numeric dtype (not bool;
 * operators/clip.c). */
#ifndef HOLOGRAM_KERNELS_VCLIP_H
#define HOLOGRAM_KERNELS_VCLIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* lo, hi: one element of dt each, or NULL (that bound absent). A NaN
 * stays NaN (its compares are false); f16 compares as double and keeps
 * the bits. */
void holo_ukernel_vclip_numeric__scalar(uint32_t dt, size_t n, const void *x, const void *lo, const void *hi,
                                        void *y);
/* The f32 case (vclip-f32-scalar.c, hot; the numeric kernel calls it). */
void holo_ukernel_vclip_f32__scalar(size_t n, const float *x, const float *lo, const float *hi, float *y);

#endif
