/* Neg, Abs and Sign over f64 and integers (unary-exact.c), for unary.c's
 * dispatch. */
#ifndef HOLOGRAM_OPERATORS_UNARY_EXACT_H
#define HOLOGRAM_OPERATORS_UNARY_EXACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { HOLO_K_EXACT_NEG, HOLO_K_EXACT_ABS, HOLO_K_EXACT_SIGN };

/* True when `op` is defined on dtype `dt` here (Neg: signed only). */
bool holo_k_unary_exact_dtype(int op, uint32_t dt);
/* y = op(x) over n elements of dtype `dt` (one the predicate accepted). */
void holo_k_unary_exact_run(int op, uint32_t dt, size_t n, const void *x, void *y);

#endif
