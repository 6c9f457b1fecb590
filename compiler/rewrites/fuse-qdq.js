// Rewrite, on the ONNX graph before normalization (decision 66):
//   QuantizeLinear(P(DequantizeLinear(x), DequantizeLinear(w) [, DequantizeLinear(bias)]) [-> Relu|Clip])
//   P = Conv     -> QLinearConv(x, xs, xz, w, ws, wz, ys, yz [, bias])
//   P = MatMul   -> QLinearMatMul(x, xs, xz, w, ws, wz, ys, yz)
//   P = Gemm     -> Reshape(x, [M, K, 1, 1]) -> QLinearConv (1x1, W as [N, K, 1, 1]) -> Reshape [M, N]
// the static-QDQ form onnxruntime's quantizer and bench/zoo/quantize.mjs
// write, onto the integer core with the requantization fused (decision 57).
// It runs here, not among the IR rewrites, because normalization lowers
// DequantizeLinear onto Cast/Sub/Mul and folds the constant ones: the
// pattern is gone by then.
//
// The fused node is not the bytes of the float path (that rounds the f32
// product once more before QuantizeLinear's division); onnxruntime fuses
// the same patterns at its default optimization level, which is the
// reference (tests/js/convert-qdq.test.mjs: within one quantum). Applied
// only when every condition of the integer op holds, else the graph is left
// as it is (float, correct):
// - x's DequantizeLinear: scale a one-element f32 constant, zero point
//   absent or a one-element u8/i8 constant; the int8 tensor x any value;
// - w's: w a u8/i8 constant (Conv rank 3/4, MatMul/Gemm rank 2), scale and
//   zero point one element or one per output channel (Conv: axis 0, MatMul:
//   axis 1, Gemm: the N axis), block_size 0;
// - the bias (Conv, Gemm): absent, or an int32 constant [M] dequantized with
//   zero point 0 and scale exactly f32(xs * ws[c]) per channel -- the scale
//   QLinearConv's int32 bias has; a float bias or another scale leaves it;
// - P's output read only by the QuantizeLinear (or the Relu/Clip), not a
//   graph output, not read by a subgraph; y's scale a one-element f32
//   constant, its zero point a one-element u8/i8 constant (present);
// - Gemm: alpha = beta = 1, transA = 0;
// - a Relu / Clip between P and the QuantizeLinear only where the
//   quantization absorbs it exactly: Q is monotone, so Q(clip(v, lo, hi)) =
//   clamp(Q(v), Q(lo), Q(hi)), which is Q(v) when Q(lo) <= qmin and Q(hi) >=
//   qmax (Relu: lo = 0, Q(0) = yz, so yz = qmin) -- the ranges quantizers
//   choose for a Conv + Relu output.
// A DequantizeLinear left without readers is dropped; one still read
// elsewhere (x's DQ feeding also a float op) stays.
import { DT } from '../ir.js';

const QMIN = { [DT.u8]: 0, [DT.i8]: -128 }, QMAX = { [DT.u8]: 255, [DT.i8]: 127 };
const CONV_ATTRS = ['auto_pad', 'dilations', 'group', 'kernel_shape', 'pads', 'strides'];
const numel = (dims) => dims.reduce((a, d) => a * Number(d), 1);
const rne = (v) => { const f = Math.floor(v), d = v - f; return d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f; };

/** Every value name read by `nodes` and their subgraphs, counted (a subgraph's read counts once per node). */
function useCounts(nodes, outputs) {
  const uses = new Map();
  const add = (v) => { if (v) uses.set(v, (uses.get(v) ?? 0) + 1); };
  const walk = (ns) => {
    for (const n of ns) {
      for (const i of n.inputs) add(i);
      for (const a of Object.values(n.attrs)) if (a.type === 'graph' && a.value) { walk(a.value.nodes); for (const o of a.value.outputs) add(o.name); }
    }
  };
  walk(nodes);
  for (const o of outputs) add(o.name);
  return uses;
}

/** Constant tensors by name: initializers and Constant nodes' `value`. */
function constants(g) {
  const m = new Map(g.initializers.map((t) => [t.name, t]));
  for (const n of g.nodes) if (n.opType === 'Constant' && !n.domain && n.attrs.value?.type === 'tensor') m.set(n.outputs[0], n.attrs.value.value);
  return m;
}

function elems(t) {
  const dv = new DataView(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength), n = numel(t.dims);
  const get = { [DT.f32]: (i) => dv.getFloat32(4 * i, true), [DT.u8]: (i) => dv.getUint8(i), [DT.i8]: (i) => dv.getInt8(i), [DT.i32]: (i) => dv.getInt32(4 * i, true) }[t.dtype];
  return get ? Array.from({ length: n }, (_, i) => get(i)) : null;
}

// the int32 bias [C] at scale f32(xs * ws[c]), zero point 0
function biasOk(b, xs, ws, C) {
  if (!b || !b.qt || b.qt.dtype !== DT.i32 || b.qt.dims.length !== 1 || Number(b.qt.dims[0]) !== C) return false;
  if (b.zeros && b.zeros.some((z) => z !== 0)) return false;
  if (b.scales.length !== 1 && b.scales.length !== C) return false;
  for (let c = 0; c < C; c++) if (b.scales[b.scales.length === 1 ? 0 : c] !== Math.fround(xs * ws.scales[ws.scales.length === 1 ? 0 : c])) return false;
  return true;
}
// a Relu / Clip after y that the saturation to y's range already applies
function absorbed(consts, act, ys, yz, dt) {
  const Q = (v) => Math.min(QMAX[dt], Math.max(QMIN[dt], rne(Math.fround(v / ys)) + yz));
  if (act.opType === 'Relu') return Q(0) <= QMIN[dt];
  let lo = -Infinity, hi = Infinity;
  if (act.attrs.min || act.attrs.max) { lo = act.attrs.min?.value ?? lo; hi = act.attrs.max?.value ?? hi; }
  for (const [k, i] of [[0, 1], [1, 2]]) {
    const nm = act.inputs[i];
    if (!nm) continue;
    const t = consts.get(nm);
    if (!t || t.dtype !== DT.f32 || numel(t.dims) !== 1) return false;
    if (k === 0) lo = elems(t)[0]; else hi = elems(t)[0];
  }
  return Q(lo) <= QMIN[dt] && Q(hi) >= QMAX[dt];
}

const intAttr = (n, k, d) => (n.attrs[k] ? Number(n.attrs[k].value) : d);

export function fuseQdq(g) {
  const consts = constants(g);
  const prod = new Map();
  for (const n of g.nodes) for (const o of n.outputs) if (o) prod.set(o, n);
  let uses = useCounts(g.nodes, g.outputs);
  const added = [], gone = new Set(), touched = new Set(), repl = new Map();
  const fresh = (hint) => { let k = 0, nm; do nm = `${hint}_qdq${k++}`; while (prod.has(nm) || consts.has(nm)); prod.set(nm, null); return nm; };
  const addConst = (hint, dtype, dims, bytes) => { const name = fresh(hint); const t = { name, dtype, dims, bytes }; added.push(t); consts.set(name, t); return name; };

  // a DequantizeLinear of the default domain with its constants read: { q, s, z, scales, zeros, axis, dt } or null
  const dq = (v, constQ) => {
    const n = prod.get(v);
    if (!n || n.opType !== 'DequantizeLinear' || n.domain || gone.has(n) || intAttr(n, 'block_size', 0) !== 0) return null;
    const [q, s, z] = n.inputs;
    const st = consts.get(s), zt = z ? consts.get(z) : null;
    if (!st || st.dtype !== DT.f32 || (z && !zt)) return null;
    const qt = consts.get(q);
    if (constQ && !qt) return null;
    const dt = zt ? zt.dtype : qt ? qt.dtype : null;
    if (zt && qt && zt.dtype !== qt.dtype) return null;
    return { node: n, q, s, z: z || '', qt, st, zt, scales: elems(st), zeros: zt ? elems(zt) : null, axis: intAttr(n, 'axis', 1), dt };
  };
  const perTensor = (d) => d && d.scales.length === 1 && (!d.zeros || d.zeros.length === 1) && (d.dt === DT.u8 || d.dt === DT.i8);
  // w's parameters: one element, or one per channel along `axis` of a rank-`rank` w with C channels
  const perChannel = (d, axis, C) => {
    if (!d || !d.qt || (d.qt.dtype !== DT.u8 && d.qt.dtype !== DT.i8)) return false;
    if (perTensor(d)) return true;
    const ax = d.axis < 0 ? d.axis + d.qt.dims.length : d.axis;
    return ax === axis && d.st.dims.length === 1 && d.scales.length === C && (!d.zeros || (d.zt.dims.length === 1 && d.zeros.length === C));
  };
  // Q(Add|Mul(DQ(a), DQ(b)) [-> Relu | absorbed Clip]) and Q(DQ(a) [-> Relu | absorbed Clip]):
  // one com.microsoft QLinearAdd / QLinearMul node (the lone DQ as a + 0:
  // b is a's zero point at a's scale, (z - z) * s = 0, and v + 0 is v up to
  // a zero's sign, which rounds to the same q), or null
  const elementwise = (p, act, absorbs, ydt, ysN, yzN, out) => {
    if (act && act.opType === 'Clip' && !absorbs) return null;
    const relu = act && act.opType === 'Relu' ? { holo_relu: { type: 'int', value: 1 } } : {};
    const name = p.name || out;
    if (p.opType === 'DequantizeLinear') {
      if (!act) return null; // a bare DQ -> Q (a requantization) is left as it is
      const a = dq(p.outputs[0], false);
      if (!perTensor(a) || a.dt !== ydt) return null;
      const z = a.z || addConst(`${name}_z0`, a.dt, [], new Uint8Array(1));
      return { node: { opType: 'QLinearAdd', domain: 'com.microsoft', name, inputs: [a.q, a.s, z, z, a.s, z, ysN, yzN], outputs: [out], attrs: relu }, dqs: [a.node] };
    }
    if (p.outputs.length !== 1 || p.inputs.length !== 2) return null;
    const a = dq(p.inputs[0], false), b = dq(p.inputs[1], false);
    if (!perTensor(a) || !perTensor(b) || a.dt !== ydt || b.dt !== ydt) return null;
    return { node: { opType: p.opType === 'Add' ? 'QLinearAdd' : 'QLinearMul', domain: 'com.microsoft', name, inputs: [a.q, a.s, a.z, b.q, b.s, b.z, ysN, yzN], outputs: [out], attrs: relu }, dqs: [a.node, b.node] };
  };

  let fused = 0;
  for (const q of g.nodes) {
    if (q.opType !== 'QuantizeLinear' || q.domain || gone.has(q) || intAttr(q, 'block_size', 0) !== 0) continue;
    const [yf, ysN, yzN] = q.inputs;
    const yst = consts.get(ysN), yzt = yzN ? consts.get(yzN) : null;
    if (!yst || yst.dtype !== DT.f32 || numel(yst.dims) !== 1 || !yzt || numel(yzt.dims) !== 1 || QMIN[yzt.dtype] === undefined) continue;
    if (q.attrs.output_dtype && Number(q.attrs.output_dtype.value) !== yzt.dtype) continue;
    const single = (v) => uses.get(v) === 1 && !g.outputs.some((o) => o.name === v);
    if (!single(yf)) continue;
    let p = prod.get(yf), act = null, absorbs = true;
    if (p && (p.opType === 'Relu' || p.opType === 'Clip') && !p.domain) {
      if (!single(p.inputs[0])) continue;
      absorbs = absorbed(consts, p, elems(yst)[0], elems(yzt)[0], yzt.dtype);
      act = p;
      p = prod.get(p.inputs[0]);
    }
    // the elementwise forms: exactly the float path (QLinearAdd's kernel, a Relu there as holo_relu)
    const ew = p && !p.domain && (p.opType === 'Add' || p.opType === 'Mul' || p.opType === 'DequantizeLinear') ? elementwise(p, act, absorbs, yzt.dtype, ysN, yzN, q.outputs[0]) : null;
    if (ew) {
      for (const n of [q, act, p.opType === 'DequantizeLinear' ? null : p]) if (n) gone.add(n);
      for (const d of ew.dqs) touched.add(d);
      repl.set(q, [ew.node]);
      prod.set(q.outputs[0], ew.node);
      fused++;
      continue;
    }
    if (!absorbs) continue;
    if (!p || p.domain || !['Conv', 'MatMul', 'Gemm'].includes(p.opType) || p.outputs.length !== 1) continue;
    const x = dq(p.inputs[0], false), w = dq(p.inputs[1], true);
    if (!perTensor(x) || !w) continue;
    const out = [q.outputs[0]];
    const ys = [ysN, yzN];
    let nodes;
    if (p.opType === 'Conv') {
      const r = w.qt.dims.length, M = Number(w.qt.dims[0]);
      if ((r !== 3 && r !== 4) || !perChannel(w, 0, M)) continue;
      const b = p.inputs[2] ? dq(p.inputs[2], true) : null;
      if (p.inputs[2] && !biasOk(b, x.scales[0], w, M)) continue;
      const attrs = Object.fromEntries(CONV_ATTRS.filter((k) => p.attrs[k]).map((k) => [k, p.attrs[k]]));
      nodes = [{ opType: 'QLinearConv', domain: '', name: p.name, inputs: [x.q, x.s, x.z, w.q, w.s, w.z, ...ys, ...(b ? [b.q] : [])], outputs: out, attrs }];
      if (b) touched.add(b.node);
    } else if (p.opType === 'MatMul') {
      if (w.qt.dims.length !== 2 || !perChannel(w, 1, Number(w.qt.dims[1]))) continue;
      nodes = [{ opType: 'QLinearMatMul', domain: '', name: p.name, inputs: [x.q, x.s, x.z, w.q, w.s, w.z, ...ys], outputs: out, attrs: {} }];
    } else {
      nodes = gemmNodes(p, x, w, ys, out, { dq, perChannel, biasOk, addConst, fresh, touched });
      if (!nodes) continue;
    }
    for (const n of [q, p, act]) if (n) gone.add(n);
    touched.add(x.node).add(w.node);
    repl.set(q, nodes);
    for (const n of nodes) for (const o of n.outputs) prod.set(o, n);
    fused++;
  }
  if (!fused) return { graph: g, fused: 0 };
  uses = useCounts(g.nodes.filter((n) => !gone.has(n)).concat(...repl.values()), g.outputs);
  // the DequantizeLinears the fusions left unread go too
  for (const n of touched) if (!n.outputs.some((o) => uses.get(o))) gone.add(n);
  const nodes = g.nodes.flatMap((n) => repl.get(n) ?? (gone.has(n) ? [] : [n]));
  return { graph: { ...g, nodes, initializers: [...g.initializers, ...added] }, fused };
}

/** Gemm(x [M, K], w, bias) as a 1x1 QLinearConv over [M, K, 1, 1], or null. */
function gemmNodes(p, x, w, ys, out, h) {
  if (Math.fround(p.attrs.alpha?.value ?? 1) !== 1 || Math.fround(p.attrs.beta?.value ?? 1) !== 1 || intAttr(p, 'transA', 0) !== 0) return null;
  if (w.qt.dims.length !== 2) return null;
  const tB = intAttr(p, 'transB', 0) !== 0;
  const [d0, d1] = w.qt.dims.map(Number), N = tB ? d0 : d1, K = tB ? d1 : d0;
  if (!h.perChannel(w, tB ? 0 : 1, N)) return null;
  const b = p.inputs[2] ? h.dq(p.inputs[2], true) : null;
  if (p.inputs[2] && !h.biasOk(b, x.scales[0], w, N)) return null;
  // W as [N, K, 1, 1]: transposed here when stored [K, N] (bytes, one per element)
  let wb = w.qt.bytes;
  if (!tB) {
    wb = new Uint8Array(N * K);
    for (let k = 0; k < K; k++) for (let n = 0; n < N; n++) wb[n * K + k] = w.qt.bytes[k * N + n];
  }
  const w4 = h.addConst(`${w.q}_nk11`, w.qt.dtype, [N, K, 1, 1], wb);
  const i64 = (arr) => new Uint8Array(BigInt64Array.from(arr.map(BigInt)).buffer);
  const x4 = h.fresh(`${x.q}_mk11`), y4 = h.fresh(`${out[0]}_mn11`);
  const s4 = h.addConst(`${p.name || out[0]}_to4`, DT.i64, [4], i64([0, 0, 1, 1])), s2 = h.addConst(`${p.name || out[0]}_to2`, DT.i64, [2], i64([0, 0]));
  if (b) h.touched.add(b.node);
  const nm = p.name || out[0];
  return [
    { opType: 'Reshape', domain: '', name: `${nm}/x4`, inputs: [x.q, s4], outputs: [x4], attrs: {} },
    { opType: 'QLinearConv', domain: '', name: nm, inputs: [x4, x.s, x.z, w4, w.s, w.z, ...ys, ...(b ? [b.q] : [])], outputs: [y4], attrs: {} },
    { opType: 'Reshape', domain: '', name: `${nm}/y2`, inputs: [y4, s2], outputs: out, attrs: {} },
  ];
}
