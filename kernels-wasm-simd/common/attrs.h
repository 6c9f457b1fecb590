/* Attribute and small integer operand readers shared by the operators
 * (axes, flags, starts, pads, repeats), each refusal a message naming the op. */
#ifndef HOLOGRAM_KERNELS_ATTRS_H
#define HOLOGRAM_KERNELS_ATTRS_H

#include <stdbool.h>
#include <stdint.h>

#include "hologram/backend.h"

/* The "axis" attribute (default -1) of a one-input op, normalized; a
 * message naming op when out of range. */
holo_status holo_k_axis_attr(holo_kernel_call *c, const char *op, uint32_t *axis);

/* An INT attribute that must be 0 or 1 (dflt when absent). */
holo_status holo_k_flag(holo_kernel_call *c, const char *op, const char *name, int64_t dflt, bool *out);

/* Reads a 1-D (or scalar) i32/i64 input idx into out (at most max
 * values); *n gets the count. Validates presence, dtype, rank and size;
 * messages name op and what. */
holo_status holo_k_read_ints(holo_kernel_call *c, const char *op, uint32_t idx, const char *what,
                             int64_t *out, uint32_t max, uint32_t *n);

/* Normalizes a list of axes against rank; refuses out-of-range and
 * duplicate axes. mask gets bit i set for each axis i. */
holo_status holo_k_axes_mask(holo_kernel_call *c, const char *op, const int64_t *axes, uint32_t n,
                             uint32_t rank, uint32_t *mask);

#endif
