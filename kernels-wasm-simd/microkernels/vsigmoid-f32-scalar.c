/* Sigmoid and SiLU (vunary.h): holo_vsigmoidf / holo_vsiluf per element,
 * the references of vsigmoid-f32-simd128.c (math/vsigmoidf.h). */
#include "math/vsigmoidf.h"
#include "microkernels/vunary.h"

HOLO_VACT_SCALAR(vsigmoid, holo_vsigmoidf)
HOLO_VACT_SCALAR(vsilu, holo_vsiluf)
