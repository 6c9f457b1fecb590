/* The direct discrete Fourier transform (operators/dft.c: DFT, STFT) on
 * interleaved complex doubles (re, im). O(n K) per signal: exact enough for
 * any length (double sums, one rounding to the output dtype), and simple
 * enough to have one scalar reference only. */
#ifndef HOLOGRAM_KERNELS_DFT_H
#define HOLOGRAM_KERNELS_DFT_H

#include <stddef.h>

#include "common/fp-contract.h"

/* tw[2m] = cos(2 pi m / N), tw[2m + 1] = sin(2 pi m / N) for m < N, with
 * the quarter turns exact (0, +-1), so a real input's DC and Nyquist bins
 * get an imaginary part of exactly 0. */
void holo_ukernel_dft_twiddles_f64__scalar(size_t N, double *tw);

/* y[k] = sum_{j<n} x[j] w^(jk), k < K, w = e^(-2 pi i / N) (e^(+2 pi i / N)
 * when inverse; no 1/N scaling here), summed in j order; x holds n complex
 * values, y K, tw N from holo_ukernel_dft_twiddles_f64__scalar. */
void holo_ukernel_dft_f64__scalar(size_t n, size_t K, size_t N, const double *tw, const double *x, double *y,
                                  int inverse);

#endif
