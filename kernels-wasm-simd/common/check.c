#include "common/check.h"

#include "hologram/fmt.h"

holo_status holo_k_fail(holo_kernel_call *c, holo_status st, const char *fmt, ...) {
  if (c->msg && c->msg_cap) {
    va_list ap;
    va_start(ap, fmt);
    holo_vfmt(c->msg, c->msg_cap, fmt, ap);
    va_end(ap);
  }
  return st;
}

const char *holo_k_shape_str(char *buf, const int64_t *shape, uint32_t rank) {
  size_t n = 0;
  buf[n++] = '[';
  for (uint32_t i = 0; i < rank && i < HOLO_MAX_RANK; i++) {
    n += holo_fmt(buf + n, HOLO_K_SHAPE_STR - n, i ? ",%lld" : "%lld", (long long)shape[i]);
    if (n >= HOLO_K_SHAPE_STR - 2) break;
  }
  if (n > HOLO_K_SHAPE_STR - 2) n = HOLO_K_SHAPE_STR - 2;
  buf[n++] = ']';
  buf[n] = 0;
  return buf;
}

const char *holo_k_dtype_name(uint32_t dt) {
  switch (dt) {
  case 0: return "absent";
  case HOLO_DT_F32: return "f32";
  case HOLO_DT_U8: return "u8";
  case HOLO_DT_I8: return "i8";
  case HOLO_DT_U16: return "u16";
  case HOLO_DT_I16: return "i16";
  case HOLO_DT_I32: return "i32";
  case HOLO_DT_I64: return "i64";
  case HOLO_DT_BOOL: return "bool";
  case HOLO_DT_F16: return "f16";
  case HOLO_DT_BF16: return "bf16";
  case HOLO_DT_F64: return "f64";
  case HOLO_DT_U32: return "u32";
  case HOLO_DT_U64: return "u64";
  case HOLO_DT_SEQ: return "sequence";
  case HOLO_DT_OPT: return "optional";
  default: return "unknown dtype";
  }
}

holo_status holo_k_check_arity(holo_kernel_call *c, const char *op, uint32_t min_in,
                               uint32_t max_in, uint32_t max_out) {
  if (c->n_inputs < min_in || c->n_inputs > max_in) {
    if (min_in == max_in)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: expects %u input%s, got %u", op, min_in,
                         min_in == 1 ? "" : "s", c->n_inputs);
    if (max_in == UINT32_MAX)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: expects at least %u input%s, got %u", op, min_in,
                         min_in == 1 ? "" : "s", c->n_inputs);
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: expects %u to %u inputs, got %u", op, min_in,
                       max_in, c->n_inputs);
  }
  if (c->n_outputs < 1 || c->n_outputs > max_out)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: expects %u output%s, got %u", op, max_out,
                       max_out == 1 ? "" : "s at most", c->n_outputs);
  return HOLO_OK;
}

holo_status holo_k_check_input(holo_kernel_call *c, const char *op, uint32_t idx, uint32_t want) {
  if (idx >= c->n_inputs || c->inputs[idx].dtype == 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u is required but absent", op, idx);
  const holo_tensor *t = &c->inputs[idx];
  if (want && t->dtype != want)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: input %u has dtype %s, expected %s", op, idx,
                       holo_k_dtype_name(t->dtype), holo_k_dtype_name(want));
  /* a sequence or optional is one byte string to the sequence kernels only:
   * an "any dtype" kernel given one would treat the encoding as elements */
  if (!want && holo_dtype_is_list(t->dtype))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u is a%s %s, a tensor is expected", op, idx,
                       t->dtype == HOLO_DT_OPT ? "n" : "", holo_k_dtype_name(t->dtype));
  if (holo_dtype_size(t->dtype) == 0)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: input %u has unknown dtype %u", op, idx,
                       t->dtype);
  if (t->rank > HOLO_MAX_RANK)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u has rank %u, at most %u supported", op,
                       idx, t->rank, (unsigned)HOLO_MAX_RANK);
  for (uint32_t i = 0; i < t->rank; i++)
    if (t->shape[i] < 0)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u has negative dim %lld at axis %u", op,
                         idx, (long long)t->shape[i], i);
  size_t bytes;
  if (!holo_shape_bytes(t->dtype, t->shape, t->rank, &bytes)) {
    char s[HOLO_K_SHAPE_STR];
    return holo_k_fail(c, HOLO_ERR_LIMIT, "%s: input %u of shape %s is too large to address", op,
                       idx, holo_k_shape_str(s, t->shape, t->rank));
  }
  if (t->bytes < bytes || (bytes && !t->data))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u holds %zu bytes, its shape needs %zu", op,
                       idx, t->data ? t->bytes : (size_t)0, bytes);
  return HOLO_OK;
}

holo_status holo_k_set_output(holo_kernel_call *c, const char *op, uint32_t idx, uint32_t dtype,
                              uint32_t rank, const int64_t *shape) {
  holo_tensor *y = &c->outputs[idx];
  size_t bytes;
  if (rank > HOLO_MAX_RANK)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: output %u would have rank %u, at most %u", op, idx,
                       rank, (unsigned)HOLO_MAX_RANK);
  if (!holo_shape_bytes(dtype, shape, rank, &bytes)) {
    char s[HOLO_K_SHAPE_STR];
    return holo_k_fail(c, HOLO_ERR_LIMIT, "%s: output %u of shape %s is too large to address", op,
                       idx, holo_k_shape_str(s, shape, rank));
  }
  y->dtype = dtype;
  y->rank = rank;
  for (uint32_t i = 0; i < HOLO_MAX_RANK; i++) y->shape[i] = i < rank ? shape[i] : 0;
  y->bytes = bytes;
  return HOLO_OK;
}
