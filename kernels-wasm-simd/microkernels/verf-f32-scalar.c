/* Erf, Gelu and Gelu's tanh form (vunary.h): holo_verff, holo_vgeluf,
 * holo_vgelutanhf per element, the references of verf-f32-simd128.c
 * (math/verff.h). */
#include "math/verff.h"
#include "microkernels/vunary.h"

HOLO_VACT_SCALAR(verf, holo_verff)
HOLO_VACT_SCALAR(vgelu, holo_vgeluf)
HOLO_VACT_SCALAR(vgelutanh, holo_vgelutanhf)
