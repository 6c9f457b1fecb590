// 3-D Conv, MaxPool and AveragePool as 2-D ones over depth slices, so they
// run on the 2-D kernels (GEMM-backed Conv, pooling) with no kernel of their
// own. The input, padded along depth, is viewed as [N*Dp, C, H, W]:
// - Conv: one 2-D Conv per depth tap i with W[:, :, i]; output depth od sums
//   tap i's result at padded depth od*sd + i*dd (a strided Slice), bias once.
// - MaxPool / AveragePool: ONE 2-D pool over every slice, then the max / sum
//   over the depth taps; AveragePool divides by each output depth's tap count
//   (the 2-D pool has already divided by its H x W count, the same for every
//   tap, so the quotient is the 3-D window's mean).
// The taps are added in order i = 0, 1, ...: fixed, so two runs agree.
import { A, attr, Unsupported } from './ir.js';

const known = (d) => Number.isInteger(d) && d >= 0;

/** Explicit [begin0, begin1, begin2, end0, end1, end2] pads for auto_pad, or the given ones. */
function explicitPads(n, sp, ks, st, dl) {
  const ap = attr(n, 'auto_pad', 'NOTSET');
  if (ap === 'NOTSET') return attr(n, 'pads', [0, 0, 0, 0, 0, 0]);
  if (ap === 'VALID') return [0, 0, 0, 0, 0, 0];
  const b = [], e = [];
  for (let k = 0; k < 3; k++) {
    const total = Math.max(0, (Math.ceil(sp[k] / st[k]) - 1) * st[k] + (ks[k] - 1) * dl[k] + 1 - sp[k]);
    const small = Math.floor(total / 2);
    b.push(ap === 'SAME_UPPER' ? small : total - small);
    e.push(total - b[k]);
  }
  return [...b, ...e];
}

/** The depth geometry: Dout, the depth pads, the padded depth Dp (every tap of every output inside it). */
function depthGeometry(D, k, s, d, pb, pe, ceil) {
  const span = (k - 1) * d + 1, room = D + pb + pe - span;
  if (room < 0) throw new Unsupported(`the depth window (${span}) is larger than the padded depth (${D + pb + pe})`);
  let Dout = (ceil ? Math.ceil(room / s) : Math.floor(room / s)) + 1;
  if (ceil && (Dout - 1) * s >= D + pb) Dout--; // a last window starting in the end padding is dropped
  const Dp = Math.max(D + pb + pe, (Dout - 1) * s + span);
  return { Dout, Dp, padEnd: Dp - D - pb };
}

function geometry(ctx, n, kernelShape) {
  const xs = ctx.shape(n.inputs[0]);
  if (!xs || xs.length !== 5 || !xs.slice(1).every(known)) throw new Unsupported(`3-D ${n.opType} needs the input's C, D, H, W at convert time`);
  const ks = kernelShape;
  const st = attr(n, 'strides', [1, 1, 1]), dl = attr(n, 'dilations', [1, 1, 1]);
  const pads = explicitPads(n, xs.slice(2), ks, st, dl);
  const ceil = attr(n, 'ceil_mode', 0) === 1;
  const g = depthGeometry(xs[2], ks[0], st[0], dl[0], pads[0], pads[3], ceil);
  const a2 = { auto_pad: A.string('NOTSET'), strides: A.ints(st.slice(1)), pads: A.ints([pads[1], pads[2], pads[4], pads[5]]), kernel_shape: A.ints(ks.slice(1)) };
  return { xs, ks, st, dl, pads, ceil, a2, ...g };
}

function helpers(ctx, o) {
  const e = (op, ins, attrs = {}, out) => ctx.emit(op, ins, [out ?? ctx.tmp(`${o}_${op}`)], attrs)[0];
  const i64 = (v) => ctx.constI64(`${o}_c`, v);
  return { e, i64 };
}

/** x [N, C, D, H, W] -> depth-padded [N*Dp, C, H, W]. */
function slices(ctx, H, x, g, padValue) {
  const [, C, , Hh, W] = g.xs;
  let xp = x;
  if (g.pads[0] || g.padEnd) {
    const dt = ctx.value(x).dtype;
    xp = H.e('Pad', [x, H.i64([0, 0, g.pads[0], 0, 0, 0, 0, g.padEnd, 0, 0]), ctx.constScalar(`${x}_padv`, dt, padValue)], { mode: A.string('constant') });
  }
  const t = H.e('Transpose', [xp], { perm: A.ints([0, 2, 1, 3, 4]) });
  return H.e('Reshape', [t, H.i64([-1, C, Hh, W])], { allowzero: A.int(0) });
}

/** y2 [N*Dp, M, H', W'] -> the strided depth slice of tap i: [N, Dout, M, H', W']. */
function tapSlice(ctx, H, y2, g, i) {
  const s = ctx.shape(y2);
  if (!s || !s.slice(1).every(known)) throw new Unsupported('3-D window: the 2-D result shape is not known at convert time');
  const y5 = H.e('Reshape', [y2, H.i64([-1, g.Dp, ...s.slice(1)])], { allowzero: A.int(0) });
  const b = i * g.dl[0];
  return H.e('Slice', [y5, H.i64([b]), H.i64([b + (g.Dout - 1) * g.st[0] + 1]), H.i64([1]), H.i64([g.st[0]])]);
}

const toNCDHW = (ctx, H, y, out) => H.e('Transpose', [y], { perm: A.ints([0, 2, 1, 3, 4]) }, out);

export function conv3d(ctx, n) {
  const ws = ctx.shape(n.inputs[1]);
  if (!ws || ws.length !== 5 || !ws.every(known)) throw new Unsupported("3-D Conv needs the weight's shape at convert time");
  const ks = attr(n, 'kernel_shape', ws.slice(2));
  const g = geometry(ctx, n, ks);
  const o = n.outputs[0], H = helpers(ctx, o);
  const xr = slices(ctx, H, n.inputs[0], g, 0);
  const a2 = { ...g.a2, dilations: A.ints(g.dl.slice(1)), group: A.int(attr(n, 'group', 1)) };
  let acc = null;
  for (let i = 0; i < ks[0]; i++) {
    const wi = H.e('Reshape', [H.e('Slice', [n.inputs[1], H.i64([i]), H.i64([i + 1]), H.i64([2])]), H.i64([ws[0], ws[1], ws[3], ws[4]])], { allowzero: A.int(0) });
    const ins = i === 0 && n.inputs[2] ? [xr, wi, n.inputs[2]] : [xr, wi];
    const tap = tapSlice(ctx, H, H.e('Conv', ins, a2), g, i);
    acc = acc ? H.e('Add', [acc, tap]) : tap;
  }
  toNCDHW(ctx, H, acc, o);
}

export function pool3d(ctx, n, op) {
  const ks = attr(n, 'kernel_shape');
  if (!ks || ks.length !== 3) throw new Unsupported(`3-D ${op} needs a 3-element kernel_shape`);
  const g = geometry(ctx, n, ks);
  const cip = attr(n, 'count_include_pad', 0);
  if (op === 'AveragePool' && cip && g.ceil) throw new Unsupported('3-D AveragePool with count_include_pad=1 and ceil_mode=1 is not supported');
  const o = n.outputs[0], H = helpers(ctx, o);
  const xr = slices(ctx, H, n.inputs[0], g, op === 'MaxPool' ? -Infinity : 0);
  const a2 = { ...g.a2, ceil_mode: A.int(g.ceil ? 1 : 0) };
  if (op === 'MaxPool') Object.assign(a2, { dilations: A.ints(g.dl.slice(1)), storage_order: A.int(0) });
  else a2.count_include_pad = A.int(cip);
  const p2 = H.e(op, [xr], a2);
  let acc = null;
  for (let i = 0; i < ks[0]; i++) {
    const tap = tapSlice(ctx, H, p2, g, i);
    acc = acc ? H.e(op === 'MaxPool' ? 'Max' : 'Add', [acc, tap]) : tap;
  }
  if (op === 'AveragePool') {
    // taps of output depth od inside [0, D) (or inside the explicit pads with count_include_pad)
    const D = g.xs[2], lo = cip ? -g.pads[0] : 0, hi = cip ? D + g.pads[3] : D;
    const counts = Array.from({ length: g.Dout }, (_, od) => {
      let c = 0;
      for (let i = 0; i < ks[0]; i++) { const z = od * g.st[0] + i - g.pads[0]; if (z >= lo && z < hi) c++; }
      return c;
    });
    const dt = ctx.value(n.inputs[0]).dtype;
    const cnt = ctx.constRaw(`${o}_counts`, dt, [1, g.Dout, 1, 1, 1], countBytes(dt, counts));
    acc = H.e('Div', [acc, cnt]);
  }
  toNCDHW(ctx, H, acc, o);
}

function countBytes(dt, counts) {
  const a = dt === 11 ? Float64Array.from(counts) : Float32Array.from(counts);
  return new Uint8Array(a.buffer);
}
