// Rewrite: constant folding. The runtime is the single source of op
// semantics (docs/converter.md, "Constant folding"):
//
// 1. Concrete values come from the runtime's kernels. A node whose inputs are
//    all constants runs, as a one-node archive, through the converter's fold
//    instance of the scalar core (compiler/fold-runtime.js); its output bytes
//    (and shapes) become the constants. A node the backend has no kernel for,
//    whose kernel refuses the operands, or whose outputs exceed the budget is
//    left in the graph: the runtime's constant cone computes it at load, with
//    the same kernel, or refuses it there with the same message.
// 2. JS computes only what no kernel can: values that depend on tensor
//    *shapes*, which may hold symbolic dims (JS_FOLDS below). Shape and Size
//    read a value's known shape; over a shape value (value.sv: bigint or
//    symbol per element, at least one symbol) the index-only ops Gather,
//    Slice, Concat, Unsqueeze, Squeeze, Reshape (to rank <= 1), Identity and the
//    integer Cast that provably changes no element select and relabel
//    elements — no arithmetic, no rounding, no wrap or saturation — so they
//    cannot disagree with a kernel. A shape value becomes a constant once
//    every element is known (e.g. Shape of a concrete shape). Identity of a
//    constant is its input (the runtime has no Identity kernel; nothing is
//    computed). Reshape normalization (onnx-ops.js) resolves shape values
//    against its input.
//
//   JS_FOLDS: the ops JS folds (symbolically), as above; every other op folds only through the runtime
//   foldJS(ir, node) -> 'const' | 'sv' | false      (the JS part, one node)
//   foldNode(ir, node, runtime) -> 'const' | 'sv' | false   (one node, in place;
//       runtime: a KernelFolder or { rt }; stats in ir.foldStats)
//   foldConstants(ir, { runtime }) -> number of nodes folded (whole graph)
//   outputBytes(ir, node) -> bytes the node's outputs will take, or null when
//       the shape inference cannot tell (used before any kernel runs)
//   foldBudget(ir, node) -> the most bytes one fold may produce
//   ir.foldLimit = { total, used }: set by convert() to bound all folds of one
//       conversion (FOLD_TOTAL_*); absent, only the per-node budget applies
//
// 3. The budget (docs/converter.md, "Fold budget"). A fold whose outputs would
//    exceed 4x its inputs + 64 KiB, or would take the conversion's folded
//    bytes past 8x the model file + 16 MiB, is not folded: the node stays and
//    the runtime computes it at load, under the session's memory budget. The
//    size is decided before the kernel runs — from the inferred output shape
//    (Range's from its constant operands), and where inference cannot tell,
//    by the fold archive's own load under memoryBudget = the node budget (the
//    runtime refuses an over-budget value before allocating it) — so a tiny
//    file asking for a huge constant costs neither its time nor its memory.
//    A MatMul, Gemm or Conv of more than 2^26 multiply-adds is not folded
//    either (its work outgrows its bytes; the load computes it).
import { runNode } from '../fold-runtime.js';
import { HALF, JS_WIDEN_BYTES } from './widen-half.js';
import { DT, DTYPE_SIZE, isConcrete, isIntDtype, numel, readElems, writeElems, attr, i64Bytes, inferNode, normAxis } from '../ir.js';

export { runNode };

/** A Cast of a 16-bit weight (over JS_WIDEN_BYTES) is the load's to compute: the archive keeps the 16-bit bytes. */
function keepsHalfWeight(ir, node) {
  if (node.op !== 'Cast') return false;
  const v = ir.get(node.inputs[0]);
  return !!v && v.kind === 'const' && HALF.has(v.dtype) && v.bytes.length > JS_WIDEN_BYTES;
}


function constOf(ir, name) {
  const v = ir.get(name);
  return v && v.kind === 'const' ? v : null;
}

/** A shape value with at least one symbolic element (setSv stores no other kind). */
const symOf = (ir, name) => ir.get(name)?.sv ?? null;

/** Elements of a 1-D/scalar integer value known at compile time: small const or sv. */
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

// Integer ranges of the Cast targets a shape value may take. Symbolic
// elements are dims (>= 0): they fit 32-bit targets in every tensor that has
// elements (a wasm32 tensor cannot hold 2^31 of them), so only 64- and
// 32-bit targets take symbols; concrete elements must fit the target exactly.
const INT_RANGE = {
  [DT.u8]: [0n, 255n], [DT.i8]: [-128n, 127n], [DT.u16]: [0n, 65535n], [DT.i16]: [-32768n, 32767n],
  [DT.u32]: [0n, 4294967295n], [DT.i32]: [-2147483648n, 2147483647n],
  [DT.u64]: [0n, 18446744073709551615n], [DT.i64]: [-9223372036854775808n, 9223372036854775807n],
};
const SYM_TARGETS = new Set([DT.i32, DT.u32, DT.i64, DT.u64]);

function castSv(sv, to) {
  const r = INT_RANGE[to];
  if (!r) return null;
  for (const e of sv) {
    if (typeof e === 'string' ? !SYM_TARGETS.has(to) : e < r[0] || e > r[1]) return null;
  }
  return sv;
}

/** Slice of a 1-D shape value of `d` elements: the selected positions, or null. */
function sliceIndices(ir, node, d) {
  const ps = node.inputs.slice(1).map((n) => (n ? constOf(ir, n) : null));
  if (!ps[0] || !ps[1] || (node.inputs[3] && !ps[2]) || (node.inputs[4] && !ps[3])) return null;
  const ints = (c) => (isIntDtype(c.dtype) ? readElems(c.dtype, c.bytes).map(Number) : null);
  const [starts, ends] = [ints(ps[0]), ints(ps[1])];
  const axes = ps[2] ? ints(ps[2]) : [0], steps = ps[3] ? ints(ps[3]) : [1];
  if (!starts || !ends || !axes || !steps || starts.length !== 1 || ends.length !== 1 || axes.length !== 1 || steps.length !== 1) return null;
  if (normAxis(axes[0], 1) !== 0 || !steps[0]) return null;
  const st = steps[0];
  let s = starts[0], e = ends[0];
  if (s < 0) s += d;
  if (e < 0) e += d;
  const list = [];
  if (st > 0) { s = Math.min(Math.max(s, 0), d); e = Math.min(Math.max(e, 0), d); for (let i = s; i < e; i += st) list.push(i); }
  else { s = Math.min(Math.max(s, -1), d - 1); e = Math.min(Math.max(e, -1), d - 1); for (let i = s; i > e; i += st) list.push(i); }
  return list;
}

// The JS folds: op -> (ir, node, x0 value, out value) => 'const' | 'sv' | false.
// Each returns false unless a shape (not an element value) decides the result.
const JS_RULES = {
  Identity(ir, node, xv) {
    if (xv?.kind === 'const') { ir.setConst(node.outputs[0], xv.dtype, xv.shape, xv.bytes); return 'const'; }
    if (xv?.sv) return setSv(ir, node, xv.dtype, xv.shape, xv.sv);
    return false;
  },
  Shape(ir, node, xv) {
    const s = xv?.shape;
    if (!s) return false;
    const r = s.length;
    let a = attr(node, 'start', 0), b = attr(node, 'end', r);
    a = Math.min(Math.max(normAxis(a, r), 0), r); b = Math.min(Math.max(normAxis(b, r), 0), r);
    const dims = s.slice(a, Math.max(a, b));
    return setSv(ir, node, DT.i64, [dims.length], dims.map((d) => (typeof d === 'number' ? BigInt(d) : d)));
  },
  Size(ir, node, xv) {
    if (!xv?.shape || !isConcrete(xv.shape)) return false;
    ir.setConst(node.outputs[0], DT.i64, [], i64Bytes([numel(xv.shape)]));
    return 'const';
  },
  Cast(ir, node, xv) {
    const sv = xv?.sv && castSv(xv.sv, attr(node, 'to'));
    return sv ? setSv(ir, node, attr(node, 'to'), xv.shape, sv) : false;
  },
  Unsqueeze: relabelSv, Squeeze: relabelSv, Reshape: relabelSv,
  Gather(ir, node, xv) {
    const ic = constOf(ir, node.inputs[1]);
    if (!xv?.sv || xv.shape.length !== 1 || !ic || !isIntDtype(ic.dtype) || ic.shape.length > 1) return false;
    const n = xv.sv.length;
    const el = readElems(ic.dtype, ic.bytes).map((i) => xv.sv[Number(i) < 0 ? Number(i) + n : Number(i)]);
    if (el.some((e) => e === undefined)) return false;
    return setSv(ir, node, xv.dtype, [...ic.shape], el);
  },
  Concat(ir, node) {
    const vs = node.inputs.map((n) => ir.get(n));
    if (vs.some((v) => !v) || !node.inputs.some((n) => symOf(ir, n))) return false;
    const svs = node.inputs.map((n) => svOf(ir, n));
    if (!svs.every(Boolean) || !vs.every((v) => v.shape?.length === 1 && v.dtype === vs[0].dtype)) return false;
    const el = svs.flat();
    return setSv(ir, node, vs[0].dtype, [el.length], el);
  },
  Slice(ir, node, xv) {
    if (!xv?.sv || xv.shape.length !== 1) return false;
    const idx = sliceIndices(ir, node, xv.sv.length);
    return idx ? setSv(ir, node, xv.dtype, [idx.length], idx.map((i) => xv.sv[i])) : false;
  },
};

/** Unsqueeze/Squeeze/Reshape of a shape value to rank <= 1: the same elements. */
function relabelSv(ir, node, xv) {
  if (!xv?.sv || node.inputs.slice(1).some((i) => i && !constOf(ir, i))) return false;
  const s = inferNode(ir, node)[0].shape;
  if (!s || s.length > 1 || !isConcrete(s) || numel(s) !== xv.sv.length) return false;
  return setSv(ir, node, xv.dtype, s, xv.sv);
}

/** The ops JS folds (symbolic shape arithmetic, or Identity's alias); every other op folds only through the runtime. */
export const JS_FOLDS = Object.freeze(Object.keys(JS_RULES));

/** The JS part of folding one node (see the header); false when it is not JS's to fold. */
export function foldJS(ir, node) {
  const rule = Object.hasOwn(JS_RULES, node.op) ? JS_RULES[node.op] : null;
  if (!rule || !ir.get(node.outputs[0])) return false;
  return rule(ir, node, ir.get(node.inputs[0]));
}

export const FOLD_NODE_FACTOR = 4;
export const FOLD_NODE_SLACK = 64 * 1024;
export const FOLD_TOTAL_FACTOR = 8;
export const FOLD_TOTAL_SLACK = 16 * 1024 * 1024;

/** Max bytes one fold may produce: 4x its inputs + 64 KiB. */
export function foldBudget(ir, node) {
  return FOLD_NODE_FACTOR * node.inputs.reduce((a, n) => a + (n ? ir.get(n).bytes.length : 0), 0) + FOLD_NODE_SLACK;
}

/** Elements of Range(start, limit, delta) from its constant scalars, or null. Only a size estimate for the budget. */
function rangeLength(ir, node) {
  const ops = node.inputs.slice(0, 3).map((n) => constOf(ir, n));
  if (ops.length !== 3 || ops.some((c) => !c || c.bytes.length !== DTYPE_SIZE.get(c.dtype)) || ops[0].dtype === DT.f16) return null;
  let s, l, d;
  try { [s, l, d] = ops.map((c) => Number(readElems(c.dtype, c.bytes)[0])); } catch { return null; }
  const n = Math.ceil((l - s) / d);
  return Number.isFinite(n) ? Math.max(n, 0) : null;
}

/**
 * Bytes the node's outputs will take, from the inferred shapes (Range's from
 * its operands), or null when some output's size is unknown. Decided before
 * the kernel runs: nothing is allocated.
 */
export function outputBytes(ir, node) {
  let total = 0;
  for (const [k, o] of node.outputs.entries()) {
    const v = ir.get(o);
    if (!v) continue;
    let n = isConcrete(v.shape) ? numel(v.shape) : null;
    if (n === null && k === 0 && node.op === 'Range') n = rangeLength(ir, node);
    const size = DTYPE_SIZE.get(node.op === 'Range' ? ir.get(node.inputs[0])?.dtype : v.dtype);
    if (n === null || !size) return null;
    total += n * size;
  }
  return total;
}

export const FOLD_WORK_LIMIT = 2 ** 26;

/**
 * Multiply-adds of the ops whose work outgrows their bytes (MatMul, Gemm,
 * Conv: output elements x the reduction length), from the inferred shapes;
 * 0 for every other op, whose work is of the order of its bytes (bounded by
 * the byte budgets), and for an unknown shape.
 */
export function nodeWork(ir, node) {
  const out = ir.get(node.outputs[0])?.shape, a = ir.get(node.inputs[0])?.shape, w = ir.get(node.inputs[1])?.shape;
  if (!isConcrete(out) || !isConcrete(a) || !a.length) return 0;
  if (node.op === 'MatMul' || node.op === 'holo.MatMulPacked') return numel(out) * a[a.length - 1];
  if (node.op === 'Gemm' && a.length === 2) return numel(out) * a[attr(node, 'transA', 0) ? 0 : 1];
  if (node.op === 'Conv' && isConcrete(w) && w.length && w[0]) return numel(out) * (numel(w) / w[0]);
  return 0;
}

const overCounted = new WeakSet(); // a node left over budget is counted once, though foldConstants revisits it

function count(ir, engine, op, node) {
  if (node) { if (overCounted.has(node)) return; overCounted.add(node); }
  if (!ir.foldStats) ir.foldStats = { js: {}, runtime: {}, overBudget: {} };
  ir.foldStats[engine][op] = (ir.foldStats[engine][op] ?? 0) + 1;
}

/** Would `bytes` more folded bytes fit the node's budget and the conversion's? */
function fits(ir, node, bytes) {
  const lim = ir.foldLimit;
  return bytes <= foldBudget(ir, node) && (!lim || lim.used + bytes <= lim.total);
}

/** Fold one node in place; 'const' (all outputs constant), 'sv', or false. */
export function foldNode(ir, node, runtime) {
  // a 16-bit weight's widening is the load's (rewrites/widen-half.js): the archive keeps half the bytes
  if (node.noFold || keepsHalfWeight(ir, node)) return false;
  const again = !!ir.get(node.outputs[0])?.sv; // foldConstants revisits the shape values of normalization
  const r = foldJS(ir, node);
  if (r) { if (!again) count(ir, 'js', node.op); return r; }
  if (!node.inputs.every((n) => !n || ir.isConst(n)) || node.inputs.every((n) => !n)) return false;
  const rt = runtime ? runtime.rt : null;
  if (!rt) return false;
  const want = outputBytes(ir, node);
  if ((want !== null && !fits(ir, node, want)) || nodeWork(ir, node) > FOLD_WORK_LIMIT) { count(ir, 'overBudget', node.op, node); return false; }
  const opts = { memoryBudget: foldBudget(ir, node) };
  let res;
  try {
    res = runNode(rt, ir, node, opts);
  } catch (e) {
    if (typeof runtime.trapped === 'function') runtime.trapped();
    else runtime.rt = null;
    ir.log.push(`fold-constants: runtime trapped on '${node.op}' (${e.message}); left in the graph`);
    return false;
  }
  if (!res && opts.refused === 'BUDGET') count(ir, 'overBudget', node.op, node);
  if (!res || res.length !== node.outputs.length || res.some((o) => !o.dtype)) return false;
  const total = res.reduce((a, o) => a + o.bytes.length, 0);
  if (!fits(ir, node, total)) { count(ir, 'overBudget', node.op, node); return false; }
  if (ir.foldLimit) ir.foldLimit.used += total;
  res.forEach((o, k) => ir.setConst(node.outputs[k], o.dtype, o.shape, o.bytes));
  count(ir, 'runtime', node.op);
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
