// Sliding-block ops lowered to ops the backend runs (issue 42 item 4):
// Col2Im (opset 18) and DeformConv (opset 19, 22). float32 only.
//
// Col2Im: input [N, C·K, L] (K = prod(block_shape), L the block count) is
// summed back into an image [N, C, image_shape...]. Every (block tap k,
// block l) lands on one image pixel, or outside it (in the pads): a
// constant table of K·L flat pixel numbers, the outside ones sent to one
// spare pixel P. The sum is ScatterND with reduction "add" over
// [P + 1, N, C] zeros, with the updates transposed to [K·L, N, C], then the
// spare row sliced off and the result transposed back. ScatterND adds the
// updates in index order, k outer and l inner, starting from +0: the order
// in which onnxruntime's Col2imNd accumulates a pixel, so the sums are the
// same bytes, not only close. image_shape and block_shape must be
// constants (they fix the output shape and the table).
//
// DeformConv (2-D): onnxruntime's deformable im2col, then one grouped
// MatMul and the bias. Each (offset group, tap, output position) samples
// its group's channels at (oh·sh − ph + i·dh + Δh, ow·sw − pw + j·dw + Δw)
// bilinearly with zero padding (the spec's rule): a point with h <= −1,
// h >= H, w <= −1 or w >= W (or a NaN coordinate) is 0; otherwise the four
// corners (h0, w0) .. (h0 + 1, w0 + 1), h0 = floor(h), a corner outside the
// image 0, summed as w1·v1 + w2·v2 + w3·v3 + w4·v4 with w1 = (1 − lh)(1 −
// lw) ..., in onnxruntime's order, then times the mask. X is padded with
// zeros (2 before, 1 after, on both axes) so that every corner of a point
// inside is a pixel of the padded image, and a point outside is sent to
// the padded (−2, −2), whose four corners are all padding. For finite X
// the columns are onnxruntime's bytes; the GEMM's order of summation is
// the backend's. onnxruntime 1.30 reads pixel (0, 0) at weight 0 for a
// point or corner outside, so an Inf or NaN there leaks into it as NaN:
// here a point outside reads no pixel (docs/conformance.md). The corners
// are GatherND (batch_dims 1) rows of the channels-last padded image, one
// row of C/offset_group values per point.
import { A, attr, DT, dtypeName, numel, writeElems, Unsupported } from './ir.js';

const OPS = Object.create(null);

function constInts(ctx, name, what) {
  const v = name ? ctx.value(name) : null;
  if (!v || v.kind !== 'const' || v.dtype !== DT.i64) throw new Unsupported(`${what} must be a constant int64 tensor (an initializer)`);
  const dv = new DataView(v.bytes.buffer, v.bytes.byteOffset, v.bytes.byteLength);
  return Array.from({ length: numel(v.shape) }, (_, i) => Number(dv.getBigInt64(i * 8, true)));
}

const known = (d) => typeof d === 'number';

// The flat image pixel of every (tap, block) pair, taps outer: P (the spare
// pixel) for one in the pads.
function col2imTable(img, blk, dil, pads, str, cnt) {
  const r = img.length, K = numel(blk), L = numel(cnt), P = numel(img);
  const out = new Array(K * L);
  const kd = new Array(r), ld = new Array(r);
  for (let k = 0; k < K; k++) {
    for (let d = r - 1, t = k; d >= 0; d--) { kd[d] = t % blk[d]; t = Math.floor(t / blk[d]); }
    for (let l = 0; l < L; l++) {
      for (let d = r - 1, t = l; d >= 0; d--) { ld[d] = t % cnt[d]; t = Math.floor(t / cnt[d]); }
      let flat = 0, inside = true;
      for (let d = 0; d < r; d++) {
        const p = ld[d] * str[d] - pads[d] + kd[d] * dil[d];
        if (p < 0 || p >= img[d]) inside = false;
        flat = flat * img[d] + p;
      }
      out[k * L + l] = inside ? flat : P;
    }
  }
  return out;
}

OPS.Col2Im = {
  attrs: ['dilations', 'pads', 'strides'],
  norm(ctx, n) {
    if (ctx.opset < 18) throw new Unsupported(`Col2Im: an opset-18 op (this model is opset ${ctx.opset})`);
    const [x, imgName, blkName] = n.inputs, o = n.outputs[0];
    const xv = ctx.value(x);
    if (xv.dtype !== DT.f32) throw new Unsupported(`Col2Im: input of ${dtypeName(xv.dtype)} is not supported (float32)`);
    const img = constInts(ctx, imgName, 'Col2Im: image_shape');
    const blk = constInts(ctx, blkName, 'Col2Im: block_shape');
    const r = img.length;
    if (r < 1 || blk.length !== r) throw new Unsupported(`Col2Im: image_shape (${r} values) and block_shape (${blk.length}) must have one value per spatial axis`);
    if (![...img, ...blk].every((d) => Number.isSafeInteger(d) && d >= 1)) throw new Unsupported(`Col2Im: image_shape ${JSON.stringify(img)} / block_shape ${JSON.stringify(blk)} must be positive`);
    const dil = attr(n, 'dilations', Array(r).fill(1)), str = attr(n, 'strides', Array(r).fill(1)), pads = attr(n, 'pads', Array(2 * r).fill(0));
    if (dil.length !== r || str.length !== r || pads.length !== 2 * r) throw new Unsupported(`Col2Im: dilations / strides need ${r} values and pads ${2 * r}`);
    if (!dil.every((d) => d >= 1) || !str.every((s) => s >= 1) || !pads.every((p) => p >= 0)) throw new Unsupported('Col2Im: dilations and strides must be >= 1, pads >= 0');
    const cnt = img.map((d, i) => Math.floor((d + pads[i] + pads[r + i] - (dil[i] * (blk[i] - 1) + 1)) / str[i]) + 1);
    if (cnt.some((c) => c < 1)) throw new Unsupported(`Col2Im: the blocks ${JSON.stringify(blk)} do not fit the padded image ${JSON.stringify(img)}`);
    const xs = ctx.shape(x);
    if (!xs || xs.length !== 3) throw new Unsupported('Col2Im: input needs a known rank of 3 ([N, C·prod(block_shape), L])');
    const K = numel(blk), L = numel(cnt), P = numel(img);
    if (!known(xs[1]) || xs[1] % K !== 0) throw new Unsupported(`Col2Im: input dim 1 (${xs[1]}) must be a known multiple of prod(block_shape) = ${K}`);
    if (known(xs[2]) && xs[2] !== L) throw new Unsupported(`Col2Im: input dim 2 is ${xs[2]}, the blocks of image_shape ${JSON.stringify(img)} number ${L}`);
    if (K * L > 1 << 26) throw new Unsupported(`Col2Im: ${K} taps x ${L} blocks is over the converter's table bound (2^26)`);
    const C = xs[1] / K;
    const e = (op, ins, attrs = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], attrs)[0];
    const I = (hint, arr) => ctx.constI64(`${o}_${hint}`, arr);
    // updates [K·L, N, C]: channel c's tap k of block l is input row c·K + k, column l
    const upd = e('Transpose', [e('Reshape', [x, I('ckl', [0, C, K * L])], { allowzero: A.int(0) })], { perm: A.ints([2, 0, 1]) });
    const Nd = known(xs[0]) ? I('N', [xs[0]]) : e('Slice', [e('Shape', [x]), I('z', [0]), I('one', [1]), I('ax0', [0])]);
    const zshape = e('Concat', [I('P1', [P + 1]), Nd, I('C', [C])], { axis: A.int(0) });
    const zeros = e('Expand', [ctx.constScalar(`${o}_zero`, DT.f32, 0), zshape]);
    const idx = ctx.constRaw(`${o}_pixels`, DT.i64, [K * L, 1], writeElems(DT.i64, col2imTable(img, blk, dil, pads, str, cnt).map(BigInt)));
    const sum = e('ScatterND', [zeros, idx, upd], { reduction: A.string('add') });
    const crop = e('Slice', [sum, I('z0', [0]), I('P', [P]), I('ax', [0])]);
    const nc = e('Transpose', [crop], { perm: A.ints([1, 2, 0]) });
    ctx.emit('Reshape', [nc, I('out', [0, C, ...img])], [o], { allowzero: A.int(0) });
  },
};


function deformShapes(ctx, n) {
  const [x, w, off, , mask] = n.inputs;
  for (const v of [x, w, off, n.inputs[3], mask]) if (v && ctx.value(v).dtype !== DT.f32) throw new Unsupported(`DeformConv: ${dtypeName(ctx.value(v).dtype)} inputs are not supported (float32)`);
  const xs = ctx.shape(x), ws = ctx.shape(w);
  if (!xs || xs.length !== 4) throw new Unsupported(`DeformConv: X needs a known rank of 4 ([N, C, H, W]; ${xs ? `rank ${xs.length}` : 'an unknown rank'} is not supported)`);
  if (!ws || ws.length !== 4 || !ws.every(known)) throw new Unsupported('DeformConv: W needs a known shape [M, C/group, kH, kW]');
  const [, C, H, Wd] = xs;
  if (![C, H, Wd].every(known)) throw new Unsupported('DeformConv: the channel count and the image size of X must be known');
  const [M, Cw, kH, kW] = ws;
  const group = attr(n, 'group', 1), G = attr(n, 'offset_group', 1);
  const ks = attr(n, 'kernel_shape', [kH, kW]);
  if (ks.length !== 2 || ks[0] !== kH || ks[1] !== kW) throw new Unsupported(`DeformConv: kernel_shape ${JSON.stringify(ks)} is not W's [${kH}, ${kW}]`);
  if (!(group >= 1 && C % group === 0 && M % group === 0 && Cw === C / group)) throw new Unsupported(`DeformConv: group ${group} does not divide C = ${C} and M = ${M} with W's ${Cw} channels per group`);
  if (!(G >= 1 && C % G === 0)) throw new Unsupported(`DeformConv: offset_group ${G} does not divide C = ${C}`);
  const dil = attr(n, 'dilations', [1, 1]), str = attr(n, 'strides', [1, 1]), pads = attr(n, 'pads', [0, 0, 0, 0]);
  if (dil.length !== 2 || str.length !== 2 || pads.length !== 4) throw new Unsupported('DeformConv: dilations / strides need 2 values and pads 4');
  if (!dil.every((d) => d >= 1) || !str.every((s) => s >= 1) || !pads.every((p) => p >= 0)) throw new Unsupported('DeformConv: dilations and strides must be >= 1, pads >= 0');
  const oH = Math.floor((H + pads[0] + pads[2] - (dil[0] * (kH - 1) + 1)) / str[0]) + 1;
  const oW = Math.floor((Wd + pads[1] + pads[3] - (dil[1] * (kW - 1) + 1)) / str[1]) + 1;
  if (oH < 1 || oW < 1) throw new Unsupported(`DeformConv: the kernel [${kH}, ${kW}] does not fit the padded image [${H}, ${Wd}]`);
  const K = kH * kW;
  const want = (name, v, ch) => {
    const s = ctx.shape(v);
    const ok = s && s.length === 4 && [null, ch, oH, oW].every((d, i) => d === null || !known(s[i]) || s[i] === d);
    if (!ok) throw new Unsupported(`DeformConv: ${name} must be [N, ${ch}, ${oH}, ${oW}] (got ${JSON.stringify(s)})`);
  };
  want('offset', off, 2 * G * K);
  if (mask) want('mask', mask, G * K);
  const b = n.inputs[3];
  if (b && JSON.stringify(ctx.shape(b)) !== JSON.stringify([M])) throw new Unsupported(`DeformConv: B must be [${M}]`);
  return { C, H, Wd, M, kH, kW, K, group, G, dil, str, pads, oH, oW, L: oH * oW };
}

// The integer part of every sampling point: oh·sh − ph + i·dh (rows) and
// ow·sw − pw + j·dw (columns), [K, 1, L], taps outer.
function deformBase(p) {
  const bh = new Float32Array(p.K * p.L), bw = new Float32Array(p.K * p.L);
  for (let i = 0; i < p.kH; i++) for (let j = 0; j < p.kW; j++) {
    const k = i * p.kW + j;
    for (let oh = 0; oh < p.oH; oh++) for (let ow = 0; ow < p.oW; ow++) {
      bh[k * p.L + oh * p.oW + ow] = oh * p.str[0] - p.pads[0] + i * p.dil[0];
      bw[k * p.L + oh * p.oW + ow] = ow * p.str[1] - p.pads[1] + j * p.dil[1];
    }
  }
  return { bh, bw };
}

OPS.DeformConv = {
  attrs: ['dilations', 'group', 'kernel_shape', 'offset_group', 'pads', 'strides'],
  norm(ctx, n) {
    if (ctx.opset < 19) throw new Unsupported(`DeformConv: an opset-19 op (this model is opset ${ctx.opset})`);
    const p = deformShapes(ctx, n);
    const [x, w, off, bias, mask] = n.inputs, o = n.outputs[0];
    const { C, H, Wd, M, K, L, G, group } = p, Cg = C / G, Hp = H + 3, Wp = Wd + 3;
    const e = (op, ins, attrs = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], attrs)[0];
    const I = (hint, arr) => ctx.constI64(`${o}_${hint}`, arr);
    const F = (hint, v) => ctx.constScalar(`${o}_${hint}`, DT.f32, v);
    const R = (v, shape) => e('Reshape', [v, I('shape', shape)], { allowzero: A.int(0) });
    const { bh, bw } = deformBase(p);
    const offs = R(off, [-1, K, 2, L]); // [N·G, K, (Δh, Δw), L]
    const part = (k) => e('Slice', [offs, I(`s${k}`, [k]), I(`e${k}`, [k + 1]), I('ax2', [2])]);
    const h = e('Add', [ctx.constRaw(`${o}_bh`, DT.f32, [K, 1, L], new Uint8Array(bh.buffer)), part(0)]);
    const wv = e('Add', [ctx.constRaw(`${o}_bw`, DT.f32, [K, 1, L], new Uint8Array(bw.buffer)), part(1)]);
    const and = (a, b) => e('And', [a, b]);
    const m = mask ? R(mask, [-1, K, 1, L]) : null;
    const inside = and(and(e('Greater', [h, F('m1', -1)]), e('Less', [h, F('H', H)])), and(e('Greater', [wv, F('m1w', -1)]), e('Less', [wv, F('W', Wd)])));
    const hs = e('Where', [inside, h, F('out', -2)]), ws = e('Where', [inside, wv, F('outw', -2)]);
    const h0 = e('Floor', [hs]), w0 = e('Floor', [ws]);
    const lh = e('Sub', [hs, h0]), lw = e('Sub', [ws, w0]);
    const one = F('one', 1), hh = e('Sub', [one, lh]), hw = e('Sub', [one, lw]);
    const wt = [[hh, hw], [hh, lw], [lh, hw], [lh, lw]].map(([a, b]) => R(e('Mul', [a, b]), [-1, K * L, 1]));
    const ix = (v) => e('Cast', [e('Add', [v, F('two', 2)])], { to: A.int(DT.i64) });
    const base = R(e('Add', [e('Mul', [ix(h0), ctx.constScalar(`${o}_Wp`, DT.i64, Wp)]), ix(w0)]), [-1, K * L, 1]);
    const idx = [0, 1, Wp, Wp + 1].map((d) => (d ? e('Add', [base, ctx.constScalar(`${o}_d${d}`, DT.i64, d)]) : base));
    const xp = e('Pad', [x, I('pads', [0, 0, 2, 2, 0, 0, 1, 1])], { mode: A.string('constant') });
    const xt = e('Transpose', [R(xp, [-1, Cg, Hp * Wp])], { perm: A.ints([0, 2, 1]) }); // [N·G, pixels, C/G]
    const term = (k) => e('Mul', [wt[k], e('GatherND', [xt, idx[k]], { batch_dims: A.int(1) })]);
    let val = e('Add', [e('Add', [e('Add', [term(0), term(1)]), term(2)]), term(3)]);
    if (m) val = e('Mul', [val, R(m, [-1, K * L, 1])]);
    // columns [N, group, C/group·K, L]: channel-major, then tap, as W flattens
    const cols = R(e('Transpose', [R(val, [-1, G, K, L, Cg])], { perm: A.ints([0, 1, 4, 2, 3]) }), [-1, group, (C / group) * K, L]);
    const wm = ctx.reshapeTo(w, [group, M / group, (C / group) * K]);
    const y = R(e('MatMul', [wm, cols]), [-1, M, p.oH, p.oW]);
    if (bias) ctx.emit('Add', [y, ctx.reshapeTo(bias, [M, 1, 1])], [o], {});
    else ctx.emit('Identity', [y], [o], {});
  },
};

export const BLOCK_OPS = OPS;
