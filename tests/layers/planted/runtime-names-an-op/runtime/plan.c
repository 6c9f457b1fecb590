/* Planted: the runtime decides by op name. */
#include "hologram/holo.h"

static int is_product(const char *op) { return op[0] == "MatMul"[0]; }
