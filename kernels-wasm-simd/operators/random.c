/* holo.Philox: the random words every random op is made of (the converter
 * writes RandomNormal, RandomUniform, their Like forms, Bernoulli,
 * Multinomial and training-mode Dropout as ops on them,
 * compiler/onnx-ops-random.js; docs/decisions.md 99). Inputs: the output
 * shape (i64 1-D, each dim >= 0) and, optionally, the entropy (u32 [4], the
 * archive's `holo.entropy` input, fresh on every execution unless the
 * caller gives it). Attributes: `key` and `stream`, 64-bit ints (default 0).
 * Output: u32 of that shape, word j being word j mod 4 of the
 * Philox4x32-10 block (Salmon, Moraes, Dror, Shaw 2011; Random123's
 * constants and round) of counter (q, q >> 32, s0 ^ e2, s1 ^ e3) under key
 * (k0 ^ e0, k1 ^ e1), where q = floor(j / 4), (k0, k1) and (s0, s1) are the
 * low and high 32-bit words of key and stream, and e0..e3 the entropy
 * words (0 when it is absent). So word j is a pure function of
 * the key, the stream, the entropy and j: the same on every build, ISA and
 * thread count, and a prefix of a longer output. Cold (-Oz). */
#include "common/attrs.h"
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

#define PH "holo.Philox"

/* Philox4x32-10 of counter x under key k, in place. */
static void philox(uint32_t x[4], uint32_t k0, uint32_t k1) {
  for (int r = 0; r < 10; r++) {
    uint64_t p = (uint64_t)0xD2511F53u * x[0], q = (uint64_t)0xCD9E8D57u * x[2];
    uint32_t y0 = (uint32_t)(q >> 32) ^ x[1] ^ k0, y2 = (uint32_t)(p >> 32) ^ x[3] ^ k1;
    x[1] = (uint32_t)q, x[3] = (uint32_t)p, x[0] = y0, x[2] = y2;
    k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
  }
}

/* The key and counter words 2, 3 (k[0..3]) from the attributes and entropy. */
static holo_status ph_setup(holo_kernel_call *c, uint32_t k[4]) {
  uint64_t key = (uint64_t)holo_attr_int(c, "key", 0), stream = (uint64_t)holo_attr_int(c, "stream", 0);
  k[0] = (uint32_t)key, k[1] = (uint32_t)(key >> 32), k[2] = (uint32_t)stream,
  k[3] = (uint32_t)(stream >> 32);
  if (holo_k_absent(c, 1)) return HOLO_OK;
  const holo_tensor *t = &c->inputs[1];
  if (t->dtype != HOLO_DT_U32 || t->bytes != 16)
    return holo_k_fail(c, HOLO_ERR_KERNEL, PH ": the entropy must be u32 [4]");
  for (int i = 0; i < 4; i++)
    k[i] ^= ((const uint32_t *)t->data)[i];
  return HOLO_OK;
}

holo_status holo_k_philox_infer(holo_kernel_call *c) {
  holo_status st;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t k[4], n;
  if ((st = holo_k_infer_begin(c, PH, 1, 2, 1)) || (st = ph_setup(c, k)) ||
      (st = holo_k_read_ints(c, PH, 0, "shape", ys, HOLO_MAX_RANK, &n)))
    return st;
  for (uint32_t i = 0; i < n; i++)
    if (ys[i] < 0) return holo_k_fail(c, HOLO_ERR_KERNEL, PH ": shape has a negative dim");
  return holo_k_set_output(c, PH, 0, HOLO_DT_U32, n, ys);
}

holo_status holo_k_philox_run(holo_kernel_call *c) {
  uint32_t k[4];
  if (ph_setup(c, k)) return HOLO_ERR_KERNEL; /* infer accepted these operands */
  uint32_t *y = c->outputs[0].data;
  size_t n = c->outputs[0].bytes / 4;
  for (size_t j = 0; j < n; j += 4) {
    uint64_t q = j / 4;
    uint32_t x[4] = {(uint32_t)q, (uint32_t)(q >> 32), k[2], k[3]};
    philox(x, k[0], k[1]);
    for (size_t i = 0; i < 4 && j + i < n; i++)
      y[j + i] = x[i];
  }
  return HOLO_OK;
}
