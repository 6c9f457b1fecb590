/* The sequence and optional encoding of docs/holo-format.md §4b, read and
 * written by the sequence kernels (operators/sequence*.c): a value of dtype
 * HOLO_DT_SEQ or HOLO_DT_OPT is one byte string (rank 1) holding a header,
 * one record per item and the items' bytes, in one canonical layout, so a
 * label names one sequence. Freestanding. */
#ifndef HOLOGRAM_KERNELS_SEQ_H
#define HOLOGRAM_KERNELS_SEQ_H

#include "hologram/backend.h"

#define HOLO_SEQ_HEADER 16u
#define HOLO_SEQ_RECORD 72u
#define HOLO_SEQ_MAX_ITEMS (1u << 24)

/* A parsed, validated encoding. elem_seq: the items are sequences (an
 * optional sequence), each itself a valid HOLO_DT_SEQ encoding. */
typedef struct holo_k_seq {
  const uint8_t *base;
  size_t bytes;
  uint32_t dtype; /* HOLO_DT_SEQ or HOLO_DT_OPT */
  bool elem_seq;
  uint32_t elem_dtype; /* the items' tensor dtype, 0 = not yet known (no item) */
  uint32_t n;
  /* holo_k_seq_item's cursor: item `ck`'s record was read and its data
   * starts at `cat`, so walking the items in order is linear */
  uint32_t ck;
  size_t cat;
} holo_k_seq;

/* Validates input idx (dtype `want`: HOLO_DT_SEQ, HOLO_DT_OPT) as a
 * canonical encoding; a refusal names the op and what is wrong. */
holo_status holo_k_seq_parse(holo_kernel_call *c, const char *op, uint32_t idx, uint32_t want, holo_k_seq *q);

/* Item k (< q->n) as a tensor view into the encoding (an item of an
 * optional sequence is a HOLO_DT_SEQ value). */
void holo_k_seq_item(holo_k_seq *q, uint32_t k, holo_tensor *t);

/* The items of an encoding to write: item k of the result, by callback. */
typedef void (*holo_k_seq_get)(const void *ctx, uint32_t k, holo_tensor *t);

/* The byte length of an encoding of n items (0 when it would not be
 * addressable). */
size_t holo_k_seq_size(uint32_t n, holo_k_seq_get get, const void *ctx);
/* Writes the encoding into dst (holo_k_seq_size bytes; padding zeroed; an
 * item whose data is NULL is zeroed, for the caller to fill in place). */
void holo_k_seq_write(uint8_t *dst, uint32_t dtype, bool elem_seq, uint32_t elem_dtype, uint32_t n,
                      holo_k_seq_get get, const void *ctx);

/* The view of an encoding just written (holo_k_seq_write), not validated. */
static inline holo_k_seq holo_k_seq_written(uint8_t *dst, size_t bytes, uint32_t dtype, bool elem_seq,
                                            uint32_t elem_dtype, uint32_t n) {
  holo_k_seq q = {dst, bytes, dtype, elem_seq, elem_dtype, n, 0, 0};
  return q;
}

/* infer's output 0: an encoding of n items of dtype `dtype`. */
holo_status holo_k_seq_set_output(holo_kernel_call *c, const char *op, uint32_t dtype, uint32_t n,
                                  holo_k_seq_get get, const void *ctx);

/* A position operand (i32 or i64 scalar) as an int64 into *pos. */
holo_status holo_k_seq_position(holo_kernel_call *c, const char *op, uint32_t idx, int64_t *pos);

#endif
