/* The zero-padded int16 plane of one channel for the depthwise integer
 * kernels (idwconv2d.h): x - zx inside X, 0 in the padding (onnxruntime
 * pads X with its zero point, so a padding tap contributes 0). Rows and
 * columns of X that no output reads are not copied. */
#include "microkernels/idwconv2d.h"

void holo_ukernel_idwpad_i8__scalar(int16_t *xp, const void *x, bool u8, int32_t zx, const holo_k_win2d *w) {
  size_t Hp, Wp;
  holo_idwconv2d_plane_geom(w, &Hp, &Wp);
  const int64_t H = w->in[0], W = w->in[1], pt = w->pad_begin[0], pl = w->pad_begin[1];
  /* the columns q of the plane in [q0, q1) lie inside X */
  int64_t q0 = pl < (int64_t)Wp ? pl : (int64_t)Wp, q1 = pl + W < (int64_t)Wp ? pl + W : (int64_t)Wp;
  if (q0 < 0) q0 = 0;
  if (q1 < q0) q1 = q0;
  for (size_t r = 0; r < Hp; r++) {
    int16_t *d = xp + r * Wp;
    const int64_t ih = (int64_t)r - pt;
    if (ih < 0 || ih >= H) {
      for (size_t q = 0; q < Wp; q++)
        d[q] = 0;
      continue;
    }
    for (int64_t q = 0; q < q0; q++)
      d[q] = 0;
    if (u8) {
      const uint8_t *s = (const uint8_t *)x + ih * W - pl;
      for (int64_t q = q0; q < q1; q++)
        d[q] = (int16_t)((int32_t)s[q] - zx);
    } else {
      const int8_t *s = (const int8_t *)x + ih * W - pl;
      for (int64_t q = q0; q < q1; q++)
        d[q] = (int16_t)((int32_t)s[q] - zx);
    }
    for (int64_t q = q1; q < (int64_t)Wp; q++)
      d[q] = 0;
  }
}
