// Rewrite: constant folding.
//
// 1. JS folding of the shape-computation ops (Shape, Size, Gather, Unsqueeze,
//    Squeeze, Concat, Cast, Slice, Reshape, Flatten, Identity, ConstantOfShape,
//    Range) — ops a backend may not have, so that shape computations exported
//    by torch (Shape -> Gather -> Unsqueeze -> Concat -> Reshape) disappear.
//    Shapes with symbolic dims fold into a "shape value" (value.sv: bigint or
//    symbol per element) that Reshape normalization resolves against its input.
// 2. Every other node whose inputs are all constants is run through the wasm
//    runtime itself (a one-node archive, executed once), so the folded bytes
//    are exactly what the kernel would produce at run time. A node the backend
//    has no kernel for, or whose kernel refuses the operands, is left as is.
//
//   foldNode(ir, node, runtime) -> 'const' | 'sv' | false   (one node, in place)
//   foldConstants(ir, { runtime }) -> number of nodes folded (whole graph)
import { GraphBuilder } from '../graph.js';
import { writeHolo } from '../holo-writer.js';
import { DT, DTYPE_SIZE, isConcrete, isIntDtype, numel, readElems, writeElems, attr, i64Bytes, inferNode } from '../ir.js';

const MAX_JS_CAST = 1 << 20;

const normAxis = (a, r) => (a < 0 ? a + r : a);
const strides = (shape) => { const s = new Array(shape.length); let p = 1; for (let i = shape.length - 1; i >= 0; i--) { s[i] = p; p *= shape[i]; } return s; };

function constOf(ir, name) {
  const v = ir.get(name);
  return v && v.kind === 'const' ? v : null;
}

/** Elements of a 1-D/scalar integer value known at compile time: const or sv. */
function svOf(ir, name) {
  const v = ir.get(name);
  if (!v) return null;
  if (v.kind === 'const' && isIntDtype(v.dtype) && v.shape.length <= 1 && numel(v.shape) <= 64)
    return readElems(v.dtype, v.bytes).map((e) => BigInt(e));
  return v.sv ?? null;
}

/** Set node output 0 from an sv; becomes a constant if fully concrete. */
function setSv(ir, node, dtype, shape, sv) {
  const out = ir.get(node.outputs[0]);
  if (sv.every((e) => typeof e === 'bigint')) { ir.setConst(out.name, dtype, shape, writeElems(dtype, sv)); return 'const'; }
  out.sv = sv; out.dtype = dtype; out.shape = shape;
  return 'sv';
}

/** Byte-level gather along an axis. */
function gatherBytes(x, shape, axis, idx, es) {
  const outer = numel(shape.slice(0, axis)), inner = numel(shape.slice(axis + 1)) * es, dim = shape[axis];
  const out = new Uint8Array(outer * idx.length * inner);
  let p = 0;
  for (let o = 0; o < outer; o++) for (let i of idx) {
    if (i < 0) i += dim;
    if (i < 0 || i >= dim) return null;
    const src = (o * dim + i) * inner;
    out.set(x.subarray(src, src + inner), p); p += inner;
  }
  return out;
}

function castElems(from, to, elems) {
  if (from === 10 || to === 10) return null; // f16 conversions are left to the kernels
  return elems.map((e) => {
    if (to === DT.bool) return Number(e) !== 0 ? 1 : 0;
    if (to === DT.f32 || to === DT.f64) return Number(e);
    if (typeof e === 'bigint') return e;
    if (!Number.isFinite(e)) return null;
    return BigInt(Math.trunc(e));
  });
}

/** Fold one node in JS if it is a shape-computation op with known inputs. */
export function foldJS(ir, node) {
  const op = node.op;
  const x0 = node.inputs[0];
  const xv = ir.get(x0);
  const c0 = constOf(ir, x0);
  const out = ir.get(node.outputs[0]);
  if (!out) return false;
  const inferred = () => inferNode(ir, node)[0];
  switch (op) {
    case 'Identity': {
      if (c0) { ir.setConst(out.name, c0.dtype, c0.shape, c0.bytes); return 'const'; }
      if (xv?.sv) return setSv(ir, node, xv.dtype, xv.shape, xv.sv);
      return false;
    }
    case 'Shape': {
      const s = xv?.shape;
      if (!s) return false;
      const r = s.length;
      let a = attr(node, 'start', 0), b = attr(node, 'end', r);
      a = Math.min(Math.max(normAxis(a, r), 0), r); b = Math.min(Math.max(normAxis(b, r), 0), r);
      const dims = s.slice(a, Math.max(a, b));
      return setSv(ir, node, DT.i64, [dims.length], dims.map((d) => (typeof d === 'number' ? BigInt(d) : d)));
    }
    case 'Size': {
      if (!xv?.shape || !isConcrete(xv.shape)) return false;
      ir.setConst(out.name, DT.i64, [], i64Bytes([numel(xv.shape)])); return 'const';
    }
    case 'Cast': {
      const to = attr(node, 'to');
      if (c0) {
        if (numel(c0.shape) > MAX_JS_CAST || !DTYPE_SIZE.has(to)) return false;
        const el = castElems(c0.dtype, to, readElems(c0.dtype, c0.bytes));
        if (!el || el.some((e) => e === null)) return false;
        ir.setConst(out.name, to, c0.shape, writeElems(to, el)); return 'const';
      }
      if (xv?.sv && isIntDtype(to)) return setSv(ir, node, to, xv.shape, xv.sv);
      return false;
    }
    case 'Unsqueeze': case 'Squeeze': case 'Reshape': case 'Flatten': {
      if (node.inputs.slice(1).some((i) => i && !constOf(ir, i))) return false;
      const s = inferred().shape;
      if (!s || !isConcrete(s)) {
        // a scalar/1-D shape value stays a shape value
        if (xv?.sv && s && s.length <= 1 && (op === 'Unsqueeze' || op === 'Squeeze')) return setSv(ir, node, xv.dtype, s, xv.sv);
        return false;
      }
      if (c0) { ir.setConst(out.name, c0.dtype, s, c0.bytes); return 'const'; }
      if (xv?.sv && s.length <= 1) return setSv(ir, node, xv.dtype, s, xv.sv);
      return false;
    }
    case 'Gather': {
      const ic = constOf(ir, node.inputs[1]);
      if (!ic || !isIntDtype(ic.dtype)) return false;
      const idx = readElems(ic.dtype, ic.bytes).map(Number);
      const axis = normAxis(attr(node, 'axis', 0), xv?.shape?.length ?? 0);
      if (c0 && isConcrete(c0.shape)) {
        const b = gatherBytes(c0.bytes, c0.shape, axis, idx, DTYPE_SIZE.get(c0.dtype));
        if (!b) return false;
        ir.setConst(out.name, c0.dtype, [...c0.shape.slice(0, axis), ...ic.shape, ...c0.shape.slice(axis + 1)], b); return 'const';
      }
      if (xv?.sv && xv.shape.length === 1 && ic.shape.length <= 1) {
        const n = xv.sv.length;
        const el = idx.map((i) => xv.sv[i < 0 ? i + n : i]);
        if (el.some((e) => e === undefined)) return false;
        return setSv(ir, node, xv.dtype, [...ic.shape], el);
      }
      return false;
    }
    case 'Concat': {
      const vs = node.inputs.map((n) => ir.get(n));
      if (vs.some((v) => !v)) return false;
      if (vs.every((v) => v.kind === 'const' && isConcrete(v.shape))) {
        const s0 = vs[0].shape, axis = normAxis(attr(node, 'axis'), s0.length);
        if (vs.some((v) => v.dtype !== vs[0].dtype || v.shape.length !== s0.length)) return false;
        const es = DTYPE_SIZE.get(vs[0].dtype), outer = numel(s0.slice(0, axis));
        const rows = vs.map((v) => numel(v.shape.slice(axis)) * es);
        const bytes = new Uint8Array(outer * rows.reduce((a, b) => a + b, 0));
        let p = 0;
        for (let o = 0; o < outer; o++) vs.forEach((v, k) => { bytes.set(v.bytes.subarray(o * rows[k], (o + 1) * rows[k]), p); p += rows[k]; });
        const shape = [...s0]; shape[axis] = vs.reduce((a, v) => a + v.shape[axis], 0);
        ir.setConst(out.name, vs[0].dtype, shape, bytes); return 'const';
      }
      const svs = node.inputs.map((n) => svOf(ir, n));
      if (svs.every(Boolean) && vs.every((v) => v.shape?.length === 1 && v.dtype === vs[0].dtype)) {
        const el = svs.flat();
        return setSv(ir, node, vs[0].dtype, [el.length], el);
      }
      return false;
    }
    case 'Slice': {
      const ps = node.inputs.slice(1).map((n) => (n ? constOf(ir, n) : null));
      if (!ps[0] || !ps[1] || (node.inputs[3] && !ps[2]) || (node.inputs[4] && !ps[3])) return false;
      const shape = c0 ? c0.shape : xv?.sv ? xv.shape : null;
      if (!shape || !isConcrete(shape)) return false;
      const r = shape.length;
      const starts = readElems(ps[0].dtype, ps[0].bytes).map(Number), ends = readElems(ps[1].dtype, ps[1].bytes).map(Number);
      const axes = ps[2] ? readElems(ps[2].dtype, ps[2].bytes).map((a) => normAxis(Number(a), r)) : starts.map((_, i) => i);
      const steps = ps[3] ? readElems(ps[3].dtype, ps[3].bytes).map(Number) : starts.map(() => 1);
      // per-axis index lists
      const idx = shape.map((d) => Array.from({ length: d }, (_, i) => i));
      for (let k = 0; k < axes.length; k++) {
        const d = shape[axes[k]], st = steps[k];
        if (!st) return false;
        let s = starts[k], e = ends[k];
        if (s < 0) s += d; if (e < 0) e += d;
        const list = [];
        if (st > 0) { s = Math.min(Math.max(s, 0), d); e = Math.min(Math.max(e, 0), d); for (let i = s; i < e; i += st) list.push(i); }
        else { s = Math.min(Math.max(s, -1), d - 1); e = Math.min(Math.max(e, -1), d - 1); for (let i = s; i > e; i += st) list.push(i); }
        idx[axes[k]] = list;
      }
      const oshape = idx.map((l) => l.length);
      if (xv?.sv && !c0) return setSv(ir, node, xv.dtype, oshape, idx[0].map((i) => xv.sv[i]));
      const es = DTYPE_SIZE.get(c0.dtype), st = strides(shape);
      const out8 = new Uint8Array(numel(oshape) * es);
      let p = 0;
      const walk = (ax, off) => {
        if (ax === r) { out8.set(c0.bytes.subarray(off * es, off * es + es), p); p += es; return; }
        for (const i of idx[ax]) walk(ax + 1, off + i * st[ax]);
      };
      if (numel(oshape) > 0) walk(0, 0);
      ir.setConst(out.name, c0.dtype, oshape, out8); return 'const';
    }
    case 'ConstantOfShape': {
      const s = constOf(ir, x0);
      if (!s) return false;
      const dims = readElems(s.dtype, s.bytes).map(Number);
      const val = node.attrs.value.value;
      const n = numel(dims);
      if (n > (1 << 26) / DTYPE_SIZE.get(val.dtype)) return false;
      const es = val.bytes.length;
      const bytes = new Uint8Array(n * es);
      for (let i = 0; i < n; i++) bytes.set(val.bytes, i * es);
      ir.setConst(out.name, val.dtype, dims, bytes); return 'const';
    }
    case 'Range': {
      const cs = node.inputs.map((n) => constOf(ir, n));
      if (cs.some((c) => !c)) return false;
      const dt = cs[0].dtype;
      if (![DT.f32, DT.f64, DT.i16, DT.i32, DT.i64].includes(dt)) return false;
      const [a, b, d] = cs.map((c) => Number(readElems(c.dtype, c.bytes)[0]));
      if (!d) return false;
      const n = Math.max(Math.ceil((b - a) / d), 0);
      if (n > 1 << 20) return false;
      const el = Array.from({ length: n }, (_, i) => a + i * d);
      ir.setConst(out.name, dt, [n], writeElems(dt, dt === DT.i64 ? el.map((e) => BigInt(e)) : el)); return 'const';
    }
    default:
      return false;
  }
}

function toWriterAttrs(node) {
  const out = [];
  for (const [name, a] of Object.entries(node.attrs)) {
    if (!['int', 'float', 'ints', 'floats', 'string'].includes(a.type)) return null;
    out.push({ name, type: a.type, value: a.value });
  }
  return out;
}

/** Run one all-constant node through the runtime; returns [{dtype, shape, bytes}] or null. */
export function runNode(runtime, ir, node) {
  const attrs = toWriterAttrs(node);
  if (!attrs) return null;
  const g = new GraphBuilder();
  const ids = node.inputs.map((n) => {
    if (!n) return null;
    const v = ir.get(n);
    return g.constant(n, v.dtype, v.shape, v.bytes);
  });
  const outs = g.node(node.op, ids, { name: node.name, attrs, outputs: node.outputs.length });
  g.output(...outs);
  let s;
  try {
    s = runtime.load(writeHolo(g.toJSON()));
  } catch {
    return null;
  }
  try {
    return s.execute([]).map((r) => ({ dtype: dtypeCode(r.dtype), shape: r.shape, bytes: new Uint8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength).slice() }));
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) throw e;
    return null;
  } finally {
    s.dispose();
  }
}

const CODES = { float32: 1, uint8: 2, int8: 3, uint16: 4, int16: 5, int32: 6, int64: 7, bool: 9, float16: 10, float64: 11, uint32: 12, uint64: 13 };
const dtypeCode = (name) => CODES[name];

/** Max bytes a wasm fold may add: the outputs may not exceed 4x the inputs + 64 KiB. */
function foldBudget(ir, node) {
  return 4 * node.inputs.reduce((a, n) => a + (n ? ir.get(n).bytes.length : 0), 0) + 65536;
}

/** Fold one node in place; 'const' (all outputs constant), 'sv', or false. */
export function foldNode(ir, node, runtime) {
  const r = foldJS(ir, node);
  if (r) return r;
  if (!runtime || !runtime.rt) return false;
  if (!node.inputs.every((n) => !n || ir.isConst(n))) return false;
  if (node.inputs.every((n) => !n)) return false;
  let res;
  try {
    res = runNode(runtime.rt, ir, node);
  } catch (e) {
    runtime.rt = null; // a trap may leave the instance inconsistent: stop using it
    ir.log.push(`fold-constants: runtime trapped on '${node.op}' (${e.message}); wasm folding disabled`);
    return false;
  }
  if (!res || res.some((o) => !o.dtype)) return false;
  const total = res.reduce((a, o) => a + o.bytes.length, 0);
  if (total > foldBudget(ir, node)) return false;
  res.forEach((o, k) => ir.setConst(node.outputs[k], o.dtype, o.shape, o.bytes));
  return 'const';
}

/** Fold the whole graph: nodes whose outputs all become constants are removed. */
export function foldConstants(ir, { runtime } = {}) {
  let folded = 0;
  const keep = [];
  for (const n of ir.nodes) {
    const r = foldNode(ir, n, runtime);
    if (r === 'const' && n.outputs.every((o) => ir.isConst(o))) folded++;
    else keep.push(n);
  }
  ir.nodes = keep;
  if (folded) ir.log.push(`fold-constants: ${folded} node(s)`);
  return folded;
}
