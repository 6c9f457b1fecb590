/* The one small interface where runtime/ and a backend meet.
 *
 * runtime/ never names an op: it hands a backend an op name and receives a
 * kernel. A backend never sees the archive: it receives tensors and parsed
 * attributes. Everything here is freestanding. */
#ifndef HOLOGRAM_BACKEND_H
#define HOLOGRAM_BACKEND_H

#include "hologram/types.h"

typedef struct holo_tensor {
  void *data;    /* NULL for an absent optional input */
  uint32_t dtype; /* holo_dtype, 0 for an absent optional input */
  uint32_t rank;
  int64_t shape[HOLO_MAX_RANK];
  size_t bytes;
} holo_tensor;

typedef enum holo_attr_type {
  HOLO_ATTR_INT = 1,    /* one int64 */
  HOLO_ATTR_FLOAT = 2,  /* one float32 */
  HOLO_ATTR_INTS = 3,   /* count int64 */
  HOLO_ATTR_FLOATS = 4, /* count float32 */
  HOLO_ATTR_STRING = 5  /* count bytes */
} holo_attr_type;

/* Payloads are little-endian and possibly unaligned: read them with the
 * helpers below, never by casting the pointer. */
typedef struct holo_attr {
  const char *name;
  uint32_t name_len;
  uint32_t type;
  uint32_t count;
  const uint8_t *payload;
} holo_attr;

typedef struct holo_kernel_call {
  const holo_attr *attrs;
  uint32_t n_attrs;
  const holo_tensor *inputs;
  uint32_t n_inputs;
  holo_tensor *outputs;
  uint32_t n_outputs;
  /* infer: set to the scratch bytes run needs. run: that memory (64-aligned). */
  void *workspace;
  size_t workspace_bytes;
  /* infer: -1, or the index of the input whose buffer outputs[0] views
   * (a reshape-like op: no copy, run is not called). */
  int32_t alias_input;
  /* Threading hook (feature `parallel`); NULL means run serially. */
  void (*parallel_for)(void *pctx, uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg);
  void *pctx;
  /* A failing kernel writes a message here (NUL-terminated, truncated). */
  char *msg;
  size_t msg_cap;
  /* infer: an upper bound on the elementary operations run performs, for
   * ops whose work is not proportional to their operands' and outputs'
   * element counts (Conv, Gemm, MatMul, pooling); the runtime charges the
   * larger of it and that element count (0: the count alone) to the
   * session's work budget before run is called (holo_session_set_work_budget). */
  uint64_t work;
  /* infer and run: per input, the form this kernel's pack made of it
   * (64-aligned, the bytes pack asked for), or NULL: the input is not
   * constant, or the kernel keeps it as it is. NULL when no input of this
   * node was packed. */
  const void *const *packed;
} holo_kernel_call;

typedef holo_status (*holo_kernel_fn)(holo_kernel_call *call);

/* A kernel's own layout for one constant operand (a weight), chosen and
 * computed by the kernel, once per session: the archive says only which
 * operands are constant (docs/decisions.md 32).
 *
 * The runtime asks at the first execution that runs the node (when every
 * operand's shape is known) for each input that is constant -- an archive
 * constant or a value of the constant-only cone -- and keeps what pack
 * makes, pinned, for the rest of the session; run then finds it in
 * holo_kernel_call.packed, whatever the later calls' shapes. So a packed
 * form may depend on the constant's bytes, the attributes and the shapes of
 * the other operands (e.g. the rows of A), never on their bytes; and run
 * must accept it for any operand shapes infer accepts. Packing is pure data
 * movement: the node's output bytes, and so its label, do not depend on it.
 *
 * Called twice per input: first with dst NULL, to set bytes (0: keep this
 * input as it is; the runtime then does not call again), then with dst
 * pointing at that many bytes (64-aligned) to fill. Operands it cannot make
 * sense of get bytes 0: infer reports what is wrong with them. */
typedef struct holo_pack_call {
  /* attrs, inputs and msg as infer sees them (outputs, workspace and
   * packed unset): the attribute helpers below work on it, and a failing
   * pack writes its message to call->msg */
  holo_kernel_call *call;
  uint32_t input; /* the constant input to pack */
  void *dst;
  size_t bytes;
} holo_pack_call;

typedef holo_status (*holo_pack_fn)(holo_pack_call *call);

/* infer fills outputs[i].dtype/rank/shape (inputs carry data: a shape
 * operand can be read), sets workspace_bytes and alias_input. It must
 * validate every operand and attribute: run trusts what infer accepted. */
typedef struct holo_kernel {
  const char *op;       /* ONNX op type, or "holo.<Name>" for our own */
  const char *identity; /* enters every computed label; bump when output bytes can change */
  holo_kernel_fn infer;
  holo_kernel_fn run;
  /* What a backend's table says about the row; the runtime reads neither. */
  const char *dtypes; /* the dtypes run accepts, as the identity names them ("f32,i32,i64", "any") */
  uint32_t flags;     /* HOLO_KERNEL_* */
  /* Optional (NULL: the kernel packs nothing): its own layout of a constant
   * operand, see holo_pack_call. The runtime calls it; it names no op. */
  holo_pack_fn pack;
} holo_kernel;

/* holo_kernel.flags: the kernel runs a GEMM core, so its bytes depend on
 * whether the build's multiply-add fuses (its identity names that class). */
#define HOLO_KERNEL_GEMM 1u

typedef struct holo_backend {
  /* Names the variant whose bytes can differ (scalar / simd128 / relaxed+fma).
   * Part of every computed label. */
  const char *identity;
  void *ctx;
  const holo_kernel *(*lookup)(void *ctx, const char *op, uint32_t op_len);
  void (*parallel_for)(void *pctx, uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg);
  void *pctx;
} holo_backend;

/* ---- attribute helpers (header-only so kernels need nothing else) ---- */

static inline bool holo__name_eq(const char *a, uint32_t alen, const char *b) {
  uint32_t i = 0;
  for (; i < alen; i++)
    if (b[i] == 0 || a[i] != b[i]) return false;
  return b[i] == 0;
}

static inline const holo_attr *holo_attr_find(const holo_kernel_call *c, const char *name) {
  for (uint32_t i = 0; i < c->n_attrs; i++)
    if (holo__name_eq(c->attrs[i].name, c->attrs[i].name_len, name)) return &c->attrs[i];
  return 0;
}

static inline int64_t holo__rd_i64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return (int64_t)v;
}

static inline float holo__rd_f32(const uint8_t *p) {
  union { uint32_t u; float f; } v;
  v.u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  return v.f;
}

static inline int64_t holo_attr_int(const holo_kernel_call *c, const char *name, int64_t dflt) {
  const holo_attr *a = holo_attr_find(c, name);
  return (a && a->type == HOLO_ATTR_INT) ? holo__rd_i64(a->payload) : dflt;
}

static inline float holo_attr_float(const holo_kernel_call *c, const char *name, float dflt) {
  const holo_attr *a = holo_attr_find(c, name);
  return (a && a->type == HOLO_ATTR_FLOAT) ? holo__rd_f32(a->payload) : dflt;
}

/* Copies up to max ints; returns the attribute's count, or -1 if absent
 * or of another type. */
static inline int32_t holo_attr_ints(const holo_kernel_call *c, const char *name, int64_t *out,
                                     uint32_t max) {
  const holo_attr *a = holo_attr_find(c, name);
  if (!a || a->type != HOLO_ATTR_INTS) return -1;
  for (uint32_t i = 0; i < a->count && i < max; i++) out[i] = holo__rd_i64(a->payload + 8u * i);
  return (int32_t)a->count;
}

static inline int32_t holo_attr_floats(const holo_kernel_call *c, const char *name, float *out,
                                       uint32_t max) {
  const holo_attr *a = holo_attr_find(c, name);
  if (!a || a->type != HOLO_ATTR_FLOATS) return -1;
  for (uint32_t i = 0; i < a->count && i < max; i++) out[i] = holo__rd_f32(a->payload + 4u * i);
  return (int32_t)a->count;
}

/* True when the STRING attribute equals s. */
static inline bool holo_attr_string_is(const holo_kernel_call *c, const char *name, const char *s) {
  const holo_attr *a = holo_attr_find(c, name);
  return a && a->type == HOLO_ATTR_STRING && holo__name_eq((const char *)a->payload, a->count, s);
}

#endif
