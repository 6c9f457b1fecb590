/* Sigmoid and SiLU on 4 lanes (vunary.h HOLO_VACT_SIMD128; math/
 * vsigmoidf.h): the bytes of vsigmoid-f32-scalar.c. */
#ifdef __wasm_simd128__
#include "math/vsigmoidf.h"
#include "microkernels/vunary.h"

HOLO_VACT_SIMD128(vsigmoid, holo_vsigmoidf4, holo_vsigmoidf)
HOLO_VACT_SIMD128(vsilu, holo_vsiluf4, holo_vsiluf)
#else
typedef int holo_vsigmoid_f32_simd128_unused; /* no wasm SIMD in this build */
#endif
