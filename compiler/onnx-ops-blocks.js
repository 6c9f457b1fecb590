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

export const BLOCK_OPS = OPS;
