/* Operand validation for the operators' infer: arity, presence, dtype,
 * shape sanity and output shapes, each refusal a message naming the op
 * (holo_kernel_call.msg). Freestanding. */
#ifndef HOLOGRAM_KERNELS_CHECK_H
#define HOLOGRAM_KERNELS_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/fp-contract.h"
#include "hologram/backend.h"

/* Room for "[" + 8 signed 64-bit dims + "]". */
#define HOLO_K_SHAPE_STR 200

/* Writes the message into call->msg and returns st. */
holo_status holo_k_fail(holo_kernel_call *c, holo_status st, const char *fmt, ...);

/* "[2,3,4]" into buf (HOLO_K_SHAPE_STR bytes); returns buf. */
const char *holo_k_shape_str(char *buf, const int64_t *shape, uint32_t rank);

/* Short dtype name for messages ("f32", "i64"). */
const char *holo_k_dtype_name(uint32_t dt);

/* n_inputs within [min_in, max_in] and n_outputs within [1, max_out]. */
holo_status holo_k_check_arity(holo_kernel_call *c, const char *op, uint32_t min_in,
                               uint32_t max_in, uint32_t max_out);

/* A pack call as the geometry that infer and run share sees it: the runtime
 * gives pack no outputs (backend.h holo_pack_call), so an arity check
 * would refuse it and the weight would be repacked on every call; the view
 * counts the one output infer will see (none is readable: outputs stays
 * NULL). For kernels with one output whose geometry reads no output. */
static inline holo_kernel_call holo_k_pack_view(const holo_kernel_call *c) {
  holo_kernel_call q = *c;
  q.n_outputs = 1;
  return q;
}

/* infer's start: outputs[0] aliases nothing, no workspace. */
static inline void holo_k_infer_reset(holo_kernel_call *c) {
  c->alias_input = -1;
  c->workspace_bytes = 0;
}
/* holo_k_infer_reset, then holo_k_check_arity. */
static inline holo_status holo_k_infer_begin(holo_kernel_call *c, const char *op, uint32_t min_in, uint32_t max_in,
                                             uint32_t max_out) {
  holo_k_infer_reset(c);
  return holo_k_check_arity(c, op, min_in, max_in, max_out);
}

/* Input idx is present, of dtype want (0: any known tensor dtype, not a
 * sequence or optional), rank <= 8,
 * non-negative dims, addressable size, and its buffer holds that many bytes. */
holo_status holo_k_check_input(holo_kernel_call *c, const char *op, uint32_t idx, uint32_t want);

/* True when input idx is an absent optional input. */
static inline bool holo_k_absent(const holo_kernel_call *c, uint32_t idx) {
  return idx >= c->n_inputs || c->inputs[idx].dtype == 0;
}

/* Sets outputs[idx] dtype/rank/shape/bytes; refuses an unaddressable size. */
holo_status holo_k_set_output(holo_kernel_call *c, const char *op, uint32_t idx, uint32_t dtype,
                              uint32_t rank, const int64_t *shape);

#endif
