#include "common/shape.h"

size_t holo_k_prod(const int64_t *shape, uint32_t from, uint32_t to) {
  size_t n = 1;
  for (uint32_t i = from; i < to; i++) n *= (size_t)shape[i];
  return n;
}

bool holo_k_axis(int64_t axis, uint32_t rank, bool inclusive, uint32_t *out) {
  int64_t r = (int64_t)rank + (inclusive ? 1 : 0);
  if (axis < -(int64_t)rank || axis >= r) return false;
  if (axis < 0) axis += rank;
  *out = (uint32_t)axis;
  return true;
}

bool holo_k_broadcast_shape(const int64_t *a, uint32_t ra, const int64_t *b, uint32_t rb,
                            int64_t *out, uint32_t *rout) {
  uint32_t r = ra > rb ? ra : rb;
  for (uint32_t i = 0; i < r; i++) {
    /* dims aligned from the right; a missing dim acts as 1 */
    int64_t da = i < r - ra ? 1 : a[i - (r - ra)];
    int64_t db = i < r - rb ? 1 : b[i - (r - rb)];
    if (da == db || db == 1) out[i] = da;
    else if (da == 1) out[i] = db;
    else return false;
  }
  *rout = r;
  return true;
}

bool holo_k_broadcast_tensors(const holo_tensor *const *t, uint32_t n, int64_t *out, uint32_t *rout) {
  *rout = 0;
  for (uint32_t k = 0; k < n; k++) {
    int64_t acc[HOLO_MAX_RANK];
    for (uint32_t i = 0; i < *rout; i++) acc[i] = out[i];
    if (!holo_k_broadcast_shape(acc, *rout, t[k]->shape, t[k]->rank, out, rout)) return false;
  }
  return true;
}

void holo_k_broadcast_strides(const int64_t *in, uint32_t rin, const int64_t *out, uint32_t rout,
                              int64_t *strides) {
  int64_t s = 1;
  for (int32_t i = (int32_t)rout - 1; i >= 0; i--) {
    int32_t j = i - (int32_t)(rout - rin);
    if (j < 0) {
      strides[i] = 0;
      continue;
    }
    strides[i] = (in[j] == 1 && out[i] != 1) ? 0 : s;
    s *= in[j];
  }
}

void holo_k_strides(const int64_t *shape, uint32_t rank, int64_t *strides) {
  int64_t s = 1;
  for (int32_t i = (int32_t)rank - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i];
  }
}
