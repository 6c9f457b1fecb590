/* Shared scalar types of hologram-exec: status codes, dtypes, limits.
 * Freestanding: only <stddef.h>, <stdint.h>, <stdbool.h>. */
#ifndef HOLOGRAM_TYPES_H
#define HOLOGRAM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HOLO_MAX_RANK 8
/* "sha256:" + 64 hex digits (the UOR-ADDR form), without a terminator. */
#define HOLO_LABEL_LEN 71
#define HOLO_DIGEST_LEN 32
#define HOLO_MSG_CAP 256
/* The rank of a value whose rank the archive leaves open (holo_port_info). */
#define HOLO_RANK_UNKNOWN 255u

typedef enum holo_status {
  HOLO_OK = 0,
  HOLO_ERR_ARG = 1,         /* null pointer, bad index, misuse of the API */
  HOLO_ERR_FORMAT = 2,      /* malformed archive */
  HOLO_ERR_UNSUPPORTED = 3, /* op, dtype or attribute the backend lacks */
  HOLO_ERR_INPUT = 4,       /* input count, dtype, shape or byte length wrong */
  HOLO_ERR_MEMORY = 5,      /* the allocator failed */
  HOLO_ERR_BUDGET = 6,      /* the transient pool bound or the work bound is too small */
  HOLO_ERR_STORE = 7,       /* warm store failure */
  HOLO_ERR_KERNEL = 8,      /* a kernel refused its operands */
  HOLO_ERR_STATE = 9,       /* refinement state contract violated */
  HOLO_ERR_LIMIT = 10,      /* a size or count exceeds what this build can address */
  HOLO_ERR_IO = 11          /* a holo_source could not read the bytes asked for */
} holo_status;

/* Element types use the ONNX TensorProto numbering so converters map 1:1. */
typedef enum holo_dtype {
  HOLO_DT_F32 = 1,
  HOLO_DT_U8 = 2,
  HOLO_DT_I8 = 3,
  HOLO_DT_U16 = 4,
  HOLO_DT_I16 = 5,
  HOLO_DT_I32 = 6,
  HOLO_DT_I64 = 7,
  HOLO_DT_BOOL = 9,
  HOLO_DT_F16 = 10,
  HOLO_DT_F64 = 11,
  HOLO_DT_U32 = 12,
  HOLO_DT_U64 = 13,
  HOLO_DT_BF16 = 16, /* bfloat16: the top 16 bits of an f32 */
  /* Not tensors: a sequence and an optional, each one byte string in the
   * encoding of docs/holo-format.md §4b (rank 1, shape [byte length]). */
  HOLO_DT_SEQ = 128,
  HOLO_DT_OPT = 129
} holo_dtype;

/* Element size in bytes, 0 for an unknown dtype. */
static inline size_t holo_dtype_size(uint32_t dt) {
  switch (dt) {
  case HOLO_DT_U8: case HOLO_DT_I8: case HOLO_DT_BOOL: case HOLO_DT_SEQ: case HOLO_DT_OPT: return 1;
  case HOLO_DT_U16: case HOLO_DT_I16: case HOLO_DT_F16: case HOLO_DT_BF16: return 2;
  case HOLO_DT_F32: case HOLO_DT_I32: case HOLO_DT_U32: return 4;
  case HOLO_DT_I64: case HOLO_DT_F64: case HOLO_DT_U64: return 8;
  default: return 0;
  }
}

/* True for the two encoded (non-tensor) dtypes. */
static inline bool holo_dtype_is_list(uint32_t dt) {
  return dt == HOLO_DT_SEQ || dt == HOLO_DT_OPT;
}

/* Number of elements of a shape; false on a negative dim or on overflow of
 * the platform's size_t (32-bit in wasm), so callers never wrap. */
static inline bool holo_shape_numel(const int64_t *shape, uint32_t rank, size_t *out) {
  uint64_t n = 1;
  for (uint32_t i = 0; i < rank; i++) {
    if (shape[i] < 0) return false;
    uint64_t d = (uint64_t)shape[i];
    if (d != 0 && n > (uint64_t)SIZE_MAX / d) return false;
    n *= d;
  }
  if (n > (uint64_t)SIZE_MAX) return false;
  *out = (size_t)n;
  return true;
}

/* Bytes of a tensor; false on unknown dtype or overflow. */
static inline bool holo_shape_bytes(uint32_t dt, const int64_t *shape, uint32_t rank, size_t *out) {
  size_t n, es = holo_dtype_size(dt);
  if (es == 0 || !holo_shape_numel(shape, rank, &n)) return false;
  if (n > SIZE_MAX / es) return false;
  *out = n * es;
  return true;
}

#endif
