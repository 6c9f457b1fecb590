/* Planted: generation reaches into a kernel-private header. */
#include "../kernels-wasm-simd/mathf.h"
