/* Attribute readers shared by the operators. */
#ifndef HOLOGRAM_KERNELS_ATTRS_H
#define HOLOGRAM_KERNELS_ATTRS_H

#include "hologram/backend.h"

/* The "axis" attribute (default -1) of a one-input op, normalized; a
 * message naming op when out of range. */
holo_status holo_k_axis_attr(holo_kernel_call *c, const char *op, uint32_t *axis);
/* infer of a one-input f32 op along an axis whose output has the input's
 * shape (Softmax, LogSoftmax, Hardmax). */
holo_status holo_k_axis_op_infer(holo_kernel_call *c, const char *op);

#endif
