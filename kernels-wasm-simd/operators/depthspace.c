/* DepthToSpace (opset 1, 11, 13: mode DCR or CRD) and SpaceToDepth
 * (opset 1, 13): 4-D [N, C, H, W] of any dtype, blocksize b >= 1. A pure
 * permutation of elements (the Reshape -> Transpose -> Reshape of the spec
 * done in one pass):
 *   DepthToSpace DCR: y[n, c, h*b+i, w*b+j] = x[n, (i*b+j)*C/b^2 + c, h, w]
 *   DepthToSpace CRD: y[n, c, h*b+i, w*b+j] = x[n, c*b^2 + i*b+j, h, w]
 *   SpaceToDepth:     y[n, (i*b+j)*C + c, h, w] = x[n, c, h*b+i, w*b+j] */
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

static holo_status ds_check(holo_kernel_call *c, const char *op, int64_t *b, bool *crd) {
  holo_status st;
  if ((st = holo_k_check_arity(c, op, 1, 1, 1)) || (st = holo_k_check_input(c, op, 0, 0))) return st;
  const holo_tensor *x = &c->inputs[0];
  if (x->rank != 4) return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input must be 4-D, got rank %u", op, x->rank);
  *b = holo_attr_int(c, "blocksize", 0);
  if (*b < 1 || *b > 65536) return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: blocksize must be in [1, 65536]", op);
  *crd = false;
  if (op[0] == 'D') {
    if (holo_attr_find(c, "mode") && !holo_attr_string_is(c, "mode", "DCR")) {
      if (!holo_attr_string_is(c, "mode", "CRD"))
        return holo_k_fail(c, HOLO_ERR_KERNEL, "DepthToSpace: mode must be \"DCR\" or \"CRD\"");
      *crd = true;
    }
    if (x->shape[1] % (*b * *b))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "DepthToSpace: channels %lld are not a multiple of blocksize^2",
                         (long long)x->shape[1]);
  } else if (x->shape[2] % *b || x->shape[3] % *b) {
    return holo_k_fail(c, HOLO_ERR_KERNEL, "SpaceToDepth: H and W must be multiples of blocksize");
  }
  return HOLO_OK;
}

static holo_status ds_infer(holo_kernel_call *c, const char *op) {
  holo_status st;
  int64_t b;
  bool crd;
  holo_k_infer_reset(c);
  if ((st = ds_check(c, op, &b, &crd))) return st;
  const int64_t *s = c->inputs[0].shape;
  int64_t ys[4] = {s[0], s[1] / (b * b), s[2] * b, s[3] * b};
  if (op[0] == 'S') ys[1] = s[1] * b * b, ys[2] = s[2] / b, ys[3] = s[3] / b;
  for (int i = 1; i < 4; i++)
    if (ys[i] < 0 || ys[i] > ((int64_t)1 << 40))
      return holo_k_fail(c, HOLO_ERR_LIMIT, "%s: output too large", op);
  return holo_k_set_output(c, op, 0, c->inputs[0].dtype, 4, ys);
}

/* One element copy per output position; the source index is the formula
 * above. d2s: the geometry is the output's (C = out channels). */
static holo_status ds_run(holo_kernel_call *c, bool d2s) {
  int64_t b;
  bool crd;
  if (ds_check(c, d2s ? "DepthToSpace" : "SpaceToDepth", &b, &crd)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  const size_t es = holo_dtype_size(xt->dtype), B = (size_t)b;
  const int64_t *s = d2s ? c->outputs[0].shape : xt->shape; /* the "space" side */
  const size_t N = (size_t)s[0], C = (size_t)s[1], H = (size_t)s[2] / B, W = (size_t)s[3] / B;
  const uint8_t *x = xt->data;
  uint8_t *y = c->outputs[0].data;
  for (size_t n = 0; n < N; n++)
    for (size_t ch = 0; ch < C; ch++)
      for (size_t h = 0; h < H; h++)
        for (size_t i = 0; i < B; i++)
          for (size_t w = 0; w < W; w++)
            for (size_t j = 0; j < B; j++) {
              size_t dch = crd && d2s ? ch * B * B + i * B + j : (i * B + j) * C + ch;
              size_t space = ((n * C + ch) * H * B + h * B + i) * W * B + w * B + j;
              size_t depth = ((n * C * B * B + dch) * H + h) * W + w;
              size_t src = d2s ? depth : space, dst = d2s ? space : depth;
              for (size_t e = 0; e < es; e++)
                y[dst * es + e] = x[src * es + e];
            }
  return HOLO_OK;
}

holo_status holo_k_depthtospace_infer(holo_kernel_call *c) { return ds_infer(c, "DepthToSpace"); }
holo_status holo_k_spacetodepth_infer(holo_kernel_call *c) { return ds_infer(c, "SpaceToDepth"); }
holo_status holo_k_depthtospace_run(holo_kernel_call *c) { return ds_run(c, true); }
holo_status holo_k_spacetodepth_run(holo_kernel_call *c) { return ds_run(c, false); }
