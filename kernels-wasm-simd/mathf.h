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

#endif
