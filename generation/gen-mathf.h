/* exp and log for the samplers, without libm. Generation's own, not the
 * kernels': a layer above the executor does not reach into a backend's
 * private code, and a sampler's draws must not change when a kernel's math
 * is retuned. Same algorithm as the CPU backend's holo_expf/holo_logf
 * today (double, one rounding; identical on every IEEE-754 target), so the
 * draws are those of before the split (tests/c/test_gen_mathf.c). */
#ifndef HOLO_GEN_MATHF_H
#define HOLO_GEN_MATHF_H

float holo_gen_expf(float x);
float holo_gen_logf(float x);

#endif
