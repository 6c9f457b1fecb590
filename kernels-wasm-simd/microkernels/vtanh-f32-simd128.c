/* Tanh on 4 lanes (vunary.h HOLO_VACT_SIMD128; math/vtanhf.h): the bytes
 * of vtanh-f32-scalar.c. */
#ifdef __wasm_simd128__
#include "math/vtanhf.h"
#include "microkernels/vunary.h"

HOLO_VACT_SIMD128(vtanh, holo_vtanhf4, holo_vtanhf)
#else
typedef int holo_vtanh_f32_simd128_unused; /* no wasm SIMD in this build */
#endif
