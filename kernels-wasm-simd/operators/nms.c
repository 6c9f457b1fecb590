/* holo.NonMaxSuppressionPadded: ONNX NonMaxSuppression (opsets 10, 11)
 * with its data-dependent row count split off. Inputs as the ONNX op's:
 * boxes f32 [B, N, 4], scores f32 [B, C, N], then the optional one-element
 * max_output_boxes_per_class (i64), iou_threshold (f32, in [0, 1]) and
 * score_threshold (f32); attribute center_point_box 0 ([y1, x1, y2, x2],
 * corners in either order) or 1 ([xc, yc, w, h]).
 * Outputs: Y i64 [B * C * K, 3], K = min(N, max_output_boxes_per_class),
 * the selected (batch, class, box) rows first and zeros after them, and
 * the number of selected rows as i64 [1]. The converter slices Y to that
 * count (compiler/onnx-ops-detect.js): infer has no scratch memory to run
 * the selection in, and the count is known only after it.
 *
 * The selection is onnxruntime's (non_max_suppression.cc), float for float:
 * per (batch, class), the boxes whose score is strictly above
 * score_threshold (all boxes when it is absent) in order of score, highest
 * first, equal scores by the lower box index; a box is kept unless its IoU
 * with an already kept box of the class is above iou_threshold, until K are
 * kept. An absent, zero or negative max_output_boxes_per_class selects
 * nothing (onnxruntime clamps a negative one to 0). A NaN score among the
 * candidates is refused: it has no place in onnxruntime's order either. */
#include "common/check.h"
#include "common/fp-contract.h"
#include "common/shape.h"
#include "operators/operators.h"

#define NMS "NonMaxSuppression"

/* One box as onnxruntime prepares it: ymin, xmin, ymax, xmax, area. */
typedef struct {
  float b[4], area;
} nms_box;

typedef struct {
  size_t batches, classes, n, k;
  int64_t cpb;
  float iou, score_thr;
  bool has_score_thr;
} nms_plan;

static inline float f_max(float a, float b) { return a < b ? b : a; } /* std::max */
static inline float f_min(float a, float b) { return b < a ? b : a; } /* std::min */

static void min_max(float l, float r, float *mn, float *mx) {
  if (l >= r)
    *mn = r, *mx = l;
  else
    *mn = l, *mx = r;
}

static nms_box nms_prepare(const float *p, int64_t cpb) {
  nms_box o;
  if (cpb == 0) {
    min_max(p[1], p[3], &o.b[1], &o.b[3]);
    min_max(p[0], p[2], &o.b[0], &o.b[2]);
    o.area = (o.b[2] - o.b[0]) * (o.b[3] - o.b[1]);
  } else {
    float wh = p[2] / 2, hh = p[3] / 2;
    o.area = p[2] * p[3];
    o.b[1] = p[0] - wh, o.b[3] = p[0] + wh;
    o.b[0] = p[1] - hh, o.b[2] = p[1] + hh;
  }
  return o;
}

/* Candidate a against kept box r, in onnxruntime's operand order. */
static bool nms_suppress(const nms_box *a, const nms_box *r, float thr) {
  float x0 = f_max(a->b[1], r->b[1]), x1 = f_min(a->b[3], r->b[3]);
  if (x1 <= x0) return false;
  float y0 = f_max(a->b[0], r->b[0]), y1 = f_min(a->b[2], r->b[2]);
  if (y1 <= y0) return false;
  float inter = (x1 - x0) * (y1 - y0);
  if (inter <= 0.0f) return false;
  float uni = a->area + r->area - inter;
  return inter / uni > thr;
}

static holo_status read_scalar(holo_kernel_call *c, uint32_t idx, uint32_t dt, const char *what) {
  holo_status st;
  if ((st = holo_k_check_input(c, NMS, idx, dt))) return st;
  const holo_tensor *t = &c->inputs[idx];
  if (t->rank > 1 || holo_k_prod(t->shape, 0, t->rank) != 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, NMS ": %s must hold one element", what);
  return HOLO_OK;
}

static holo_status nms_plan_of(holo_kernel_call *c, nms_plan *p) {
  holo_status st;
  if ((st = holo_k_check_input(c, NMS, 0, HOLO_DT_F32)) || (st = holo_k_check_input(c, NMS, 1, HOLO_DT_F32)))
    return st;
  const holo_tensor *bx = &c->inputs[0], *sc = &c->inputs[1];
  if (bx->rank != 3 || sc->rank != 3)
    return holo_k_fail(c, HOLO_ERR_KERNEL, NMS ": boxes and scores must be 3-D (ranks %u, %u)", bx->rank,
                       sc->rank);
  if (bx->shape[0] != sc->shape[0] || bx->shape[1] != sc->shape[2] || bx->shape[2] != 4)
    return holo_k_fail(c, HOLO_ERR_KERNEL, NMS ": boxes [B, N, 4] and scores [B, C, N] disagree");
  p->cpb = holo_attr_int(c, "center_point_box", 0);
  if (p->cpb != 0 && p->cpb != 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, NMS ": center_point_box must be 0 or 1");
  p->batches = (size_t)bx->shape[0], p->n = (size_t)bx->shape[1], p->classes = (size_t)sc->shape[1];
  int64_t mx = 0;
  if (c->n_inputs > 2 && !holo_k_absent(c, 2)) {
    if ((st = read_scalar(c, 2, HOLO_DT_I64, "max_output_boxes_per_class"))) return st;
    mx = ((const int64_t *)c->inputs[2].data)[0];
  }
  p->k = mx <= 0 ? 0 : (uint64_t)mx < p->n ? (size_t)mx : p->n;
  p->iou = 0.0f;
  if (c->n_inputs > 3 && !holo_k_absent(c, 3)) {
    if ((st = read_scalar(c, 3, HOLO_DT_F32, "iou_threshold"))) return st;
    p->iou = ((const float *)c->inputs[3].data)[0];
    if (!(p->iou >= 0.0f && p->iou <= 1.0f))
      return holo_k_fail(c, HOLO_ERR_KERNEL, NMS ": iou_threshold must be in [0, 1]");
  }
  p->has_score_thr = c->n_inputs > 4 && !holo_k_absent(c, 4);
  p->score_thr = 0.0f;
  if (p->has_score_thr) {
    if ((st = read_scalar(c, 4, HOLO_DT_F32, "score_threshold"))) return st;
    p->score_thr = ((const float *)c->inputs[4].data)[0];
  }
  return HOLO_OK;
}

/* Workspace: the batch's prepared boxes (N), then two index rows (N each)
 * for the merge sort, then the kept indices of a class (K). */
static uint64_t nms_workspace(const nms_plan *p) {
  uint64_t per = sizeof(nms_box) + 2 * sizeof(uint32_t);
  return holo_k_mul_sat(per, p->n) + holo_k_mul_sat(sizeof(uint32_t), p->k) + 64;
}

holo_status holo_k_nms_infer(holo_kernel_call *c) {
  holo_status st;
  nms_plan p;
  if ((st = holo_k_infer_begin(c, NMS, 2, 5, 2)) || (st = nms_plan_of(c, &p))) return st;
  if (p.n > UINT32_MAX) return holo_k_fail(c, HOLO_ERR_LIMIT, NMS ": more than 2^32-1 boxes");
  uint64_t rows = holo_k_mul_sat(holo_k_mul_sat(p.batches, p.classes), p.k);
  if (rows > (uint64_t)INT64_MAX / 3) return holo_k_fail(c, HOLO_ERR_LIMIT, NMS ": too many output rows");
  int64_t ys[2] = {(int64_t)rows, 3}, one = 1;
  if ((st = holo_k_set_output(c, NMS, 0, HOLO_DT_I64, 2, ys))) return st;
  if (c->n_outputs > 1 && (st = holo_k_set_output(c, NMS, 1, HOLO_DT_I64, 1, &one))) return st;
  c->workspace_bytes = (size_t)nms_workspace(&p);
  if ((uint64_t)c->workspace_bytes != nms_workspace(&p) || nms_workspace(&p) == UINT64_MAX)
    return holo_k_fail(c, HOLO_ERR_LIMIT, NMS ": the workspace does not fit");
  /* per class: the sort (n log n <= 32 n) and k kept boxes against n candidates */
  uint64_t f[3] = {p.batches, p.classes, holo_k_mul_sat(p.n, 32 + (uint64_t)p.k)};
  c->work = holo_k_work(3, f);
  return HOLO_OK;
}

/* Stable merge sort of idx[0..n) by score, highest first: equal scores keep
 * the lower index first, which is onnxruntime's tie rule. */
static void sort_by_score(const float *s, uint32_t *idx, uint32_t *tmp, size_t n) {
  for (size_t w = 1; w < n; w *= 2)
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, i = lo, j = mid, o = lo;
      while (i < mid && j < hi)
        tmp[o++] = s[idx[j]] > s[idx[i]] ? idx[j++] : idx[i++];
      while (i < mid)
        tmp[o++] = idx[i++];
      while (j < hi)
        tmp[o++] = idx[j++];
      for (size_t t = lo; t < hi; t++)
        idx[t] = tmp[t];
    }
}

/* One (batch, class): appends its kept rows at y; returns how many, or
 * SIZE_MAX for a NaN candidate score. */
static size_t nms_class(const nms_plan *p, const nms_box *bx, const float *s, uint32_t *idx, uint32_t *tmp,
                        uint32_t *kept, int64_t *y, int64_t b, int64_t cls) {
  size_t m = 0, nk = 0;
  for (size_t i = 0; i < p->n; i++) {
    if (p->has_score_thr ? !(s[i] > p->score_thr) : false) continue;
    if (s[i] != s[i]) return SIZE_MAX;
    idx[m++] = (uint32_t)i;
  }
  sort_by_score(s, idx, tmp, m);
  for (size_t i = 0; i < m && nk < p->k; i++) {
    const nms_box *a = &bx[idx[i]];
    bool keep = true;
    for (size_t j = 0; j < nk && keep; j++)
      keep = !nms_suppress(a, &bx[kept[j]], p->iou);
    if (!keep) continue;
    kept[nk] = idx[i];
    y[3 * nk] = b, y[3 * nk + 1] = cls, y[3 * nk + 2] = (int64_t)idx[i];
    nk++;
  }
  return nk;
}

holo_status holo_k_nms_run(holo_kernel_call *c) {
  nms_plan p;
  if (nms_plan_of(c, &p)) return HOLO_ERR_KERNEL; /* infer accepted these operands */
  const float *boxes = c->inputs[0].data, *scores = c->inputs[1].data;
  int64_t *y = c->outputs[0].data;
  const size_t rows = (size_t)c->outputs[0].shape[0];
  nms_box *bx = c->workspace;
  uint32_t *idx = (uint32_t *)(bx + p.n), *tmp = idx + p.n, *kept = tmp + p.n;
  size_t total = 0;
  for (size_t b = 0; b < p.batches && p.k > 0; b++) {
    for (size_t i = 0; i < p.n; i++)
      bx[i] = nms_prepare(boxes + (b * p.n + i) * 4, p.cpb);
    for (size_t cl = 0; cl < p.classes; cl++) {
      const float *s = scores + (b * p.classes + cl) * p.n;
      size_t got = nms_class(&p, bx, s, idx, tmp, kept, y + 3 * total, (int64_t)b, (int64_t)cl);
      if (got == SIZE_MAX)
        return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, NMS ": a NaN score (batch %zu, class %zu) has no order",
                           b, cl);
      total += got;
    }
  }
  for (size_t i = 3 * total; i < 3 * rows; i++)
    y[i] = 0;
  if (c->n_outputs > 1) ((int64_t *)c->outputs[1].data)[0] = (int64_t)total;
  return HOLO_OK;
}
