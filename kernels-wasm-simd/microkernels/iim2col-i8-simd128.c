/* ConvInteger's im2col into the integer core's packed B panels in wasm
 * SIMD128 (im2col.h, igemm.h): the scalar reference visits every (tap,
 * position) with its own bounds test, which cost as much as the GEMM it
 * feeds. Here a block of up to 64 positions is built a tap row at a time:
 * per output row the valid output columns of the tap are found once
 * (holo_k_pool_taps), the padding written as 0 and the rest read 8 inputs
 * a step (stride 1: one 8-byte load widened; stride 2: one 16-byte load,
 * its even bytes), minus the zero point. Two rows, k and k + 1, are then
 * interleaved into the c2 pairs, whose pairwise sums give the column sums.
 * Integer differences are exact: the bytes are the scalar reference's. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "microkernels/igemm.h"
#include "microkernels/im2col.h"

/* positions per block: 8 panels */
#define IC_BLK 64

typedef struct ic_ctx {
  const holo_k_win2d *w;
  const uint8_t *xg, *xend;
  bool u8;
  int32_t zx;
  v128_t vz;
  size_t oh0, ow0, n; /* the block's first output row and column, its positions */
} ic_ctx;

/* 8 taps of stride s1 (1 or 2) from p as int16 x - zx */
static inline v128_t ic_load(const ic_ctx *c, const uint8_t *p, int64_t s1) {
  v128_t v;
  if (s1 == 1)
    v = c->u8 ? wasm_u16x8_load8x8(p) : wasm_i16x8_load8x8(p);
  else {
    v = wasm_v128_load(p);
    v = c->u8 ? wasm_v128_and(v, wasm_i16x8_splat(0xff)) : wasm_i16x8_shr(wasm_i16x8_shl(v, 8), 8);
  }
  return wasm_i16x8_sub(v, c->vz);
}

/* d[0, n) = the n taps from s at stride s1 (the last step overlaps the one
 * before it rather than reading past the row; the plane's end is never
 * read past: a 16-byte load must end inside X's group) */
static void ic_copy(const ic_ctx *c, int16_t *d, const uint8_t *s, size_t n, int64_t s1) {
  size_t i = 0;
  if ((s1 == 1 || s1 == 2) && n >= 8) {
    for (; i + 8 <= n && (s1 == 1 || s + i * 2 + 16 <= c->xend); i += 8)
      wasm_v128_store(d + i, ic_load(c, s + i * (size_t)s1, s1));
    if (i < n && (s1 == 1 || s + (n - 8) * 2 + 16 <= c->xend)) {
      wasm_v128_store(d + n - 8, ic_load(c, s + (n - 8) * (size_t)s1, s1));
      return;
    }
  }
  for (; i < n; i++) {
    const uint8_t *p = s + i * (size_t)s1;
    d[i] = (int16_t)((c->u8 ? (int32_t)*p : (int32_t)(int8_t)*p) - c->zx);
  }
}

/* r[j] = tap (ch, kh, kw) of the block's position j, j < n */
static void ic_row(const ic_ctx *c, int16_t *r, size_t ch, int64_t kh, int64_t kw) {
  const holo_k_win2d *w = c->w;
  int64_t H = w->in[0], W = w->in[1], OW = w->out[1], s1 = w->stride[1];
  int64_t off = kw * w->dil[1] - w->pad_begin[1], lo, hi;
  if (s1 == 1) { /* the common case, without holo_k_pool_taps' divisions */
    lo = off >= 0 ? 0 : -off;
    hi = W - off < OW ? W - off : OW;
    if (hi < lo) hi = lo;
  } else
    holo_k_pool_taps(off, s1, OW, 0, W, &lo, &hi);
  const uint8_t *xc = c->xg + ch * (size_t)(H * W);
  size_t j = 0, oh = c->oh0, ow = c->ow0;
  while (j < c->n) {
    size_t seg = (size_t)OW - ow < c->n - j ? (size_t)OW - ow : c->n - j;
    int64_t ih = (int64_t)oh * w->stride[0] - w->pad_begin[0] + kh * w->dil[0];
    size_t a = seg, b = seg;
    if (ih >= 0 && ih < H) {
      a = (int64_t)ow >= lo ? 0 : (size_t)lo - ow;
      b = (int64_t)(ow + seg) <= hi ? seg : (int64_t)ow >= hi ? 0 : (size_t)hi - ow;
      if (a > b) a = b;
    }
    for (size_t e = 0; e < a; e++)
      r[j + e] = 0;
    if (a < b) ic_copy(c, r + j + a, xc + (size_t)(ih * W + (int64_t)(ow + a) * s1 + off), b - a, s1);
    for (size_t e = b; e < seg; e++)
      r[j + e] = 0;
    j += seg;
    ow = 0;
    oh++;
  }
}

/* rows k (r0) and k + 1 (r1) into pair q of the block's np panels at d,
 * the pairs' sums added to cs (two i32x4 per panel) */
static void ic_pairs(int16_t *d, size_t kp, size_t q, const int16_t *r0, const int16_t *r1, size_t np,
                     v128_t *cs) {
  for (size_t p = 0; p < np; p++) {
    v128_t a = wasm_v128_load(r0 + 8 * p), b = wasm_v128_load(r1 + 8 * p);
    v128_t lo = wasm_i16x8_shuffle(a, b, 0, 8, 1, 9, 2, 10, 3, 11);
    v128_t hi = wasm_i16x8_shuffle(a, b, 4, 12, 5, 13, 6, 14, 7, 15);
    int16_t *o = d + p * kp * HOLO_IGEMM_NR + q * 2 * HOLO_IGEMM_NR;
    wasm_v128_store(o, lo);
    wasm_v128_store(o + 8, hi);
    cs[2 * p] = wasm_i32x4_add(cs[2 * p], wasm_i32x4_extadd_pairwise_i16x8(lo));
    cs[2 * p + 1] = wasm_i32x4_add(cs[2 * p + 1], wasm_i32x4_extadd_pairwise_i16x8(hi));
  }
}

/* one block of c->n positions into its panels at d, its column sums to s */
static void ic_block(const ic_ctx *c, int16_t *d, size_t Cg, int32_t *s) {
  const int64_t kH = c->w->k[0], kW = c->w->k[1];
  size_t K = Cg * (size_t)(kH * kW), kp = holo_igemm_kp(K), np = (c->n + 7) / 8;
  int16_t r[2][IC_BLK];
  v128_t cs[2 * IC_BLK / 8];
  for (size_t p = 0; p < 2 * np; p++)
    cs[p] = wasm_i32x4_splat(0);
  /* the last panel's columns past n stay 0 */
  for (size_t j = c->n; j < np * 8; j++)
    r[0][j] = r[1][j] = 0;
  size_t ch = 0;
  int64_t kh = 0, kw = 0;
  for (size_t k = 0; k < kp; k++) {
    int16_t *rk = r[k & 1];
    if (k < K) {
      ic_row(c, rk, ch, kh, kw);
      if (++kw == kW) {
        kw = 0;
        if (++kh == kH) {
          kh = 0;
          ch++;
        }
      }
    } else
      for (size_t j = 0; j < c->n; j++)
        rk[j] = 0;
    if (k & 1) ic_pairs(d, kp, k / 2, r[0], r[1], np, cs);
  }
  int32_t t[IC_BLK];
  for (size_t p = 0; p < 2 * np; p++)
    wasm_v128_store(t + 4 * p, cs[p]);
  for (size_t j = 0; j < c->n; j++)
    s[j] = t[j];
}

void holo_ukernel_iim2col_i8__simd128(int16_t *dst, int32_t *colsum, const void *xg, bool u8, int32_t zx,
                                      const holo_k_win2d *w, size_t Cg, size_t p0, size_t pc) {
  size_t K = Cg * (size_t)(w->k[0] * w->k[1]), kp = holo_igemm_kp(K), OW = (size_t)w->out[1];
  ic_ctx c = {w,  xg, (const uint8_t *)xg + Cg * (size_t)(w->in[0] * w->in[1]),
              u8, zx, wasm_i16x8_splat((int16_t)zx),
              0,  0,  0};
  for (size_t b = 0; b < pc; b += IC_BLK) {
    c.n = pc - b < IC_BLK ? pc - b : IC_BLK;
    c.oh0 = (p0 + b) / OW;
    c.ow0 = (p0 + b) % OW;
    ic_block(&c, dst + (b / 8) * kp * HOLO_IGEMM_NR, Cg, colsum + b);
  }
}
#endif
