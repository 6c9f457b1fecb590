/* Erf, Gelu and Gelu's tanh form on 4 lanes (vunary.h HOLO_VACT_SIMD128;
 * math/verff.h): the bytes of verf-f32-scalar.c. */
#ifdef __wasm_simd128__
#include "math/verff.h"
#include "microkernels/vunary.h"

HOLO_VACT_SIMD128(verf, holo_verff4, holo_verff)
HOLO_VACT_SIMD128(vgelu, holo_vgeluf4, holo_vgeluf)
HOLO_VACT_SIMD128(vgelutanh, holo_vgelutanhf4, holo_vgelutanhf)
#else
typedef int holo_verf_f32_simd128_unused; /* no wasm SIMD in this build */
#endif
