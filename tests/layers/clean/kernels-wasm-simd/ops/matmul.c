/* Fixture: a kernel names its op, includes its layer's headers and SIMD. */
#include <wasm_simd128.h>

#include "hologram/cpu_backend.h"
#include "shape-util.h"

static const char *op(void) { return "MatMul"; }
