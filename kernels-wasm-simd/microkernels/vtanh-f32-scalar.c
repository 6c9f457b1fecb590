/* Tanh (vunary.h): holo_vtanhf per element, the reference of
 * vtanh-f32-simd128.c (math/vtanhf.h). */
#include "math/vtanhf.h"
#include "microkernels/vunary.h"

HOLO_VACT_SCALAR(vtanh, holo_vtanhf)
