// Rewrite: give a float16 graph onnxruntime's rounding points (docs/decisions.md 77).
//
//   ortHalfCasts(ir) -> { noops, forced, inserted, removed } | null   (before widenHalf)
//
// ONNX says every float16 value is float16. onnxruntime's CPU provider (what
// the zoo, the tests and transformers.js users compare with) has float16
// kernels for few ops on x86-64, and its graph transforms decide where a
// value is really float16 (onnxruntime/core/optimizer/insert_cast_transformer.cc):
//   1. ForceSingleNodeCPUFloat16ToFloat32: a node that has a float16 kernel
//      but sits between nodes that will be cast (its float16 inputs all come
//      from such nodes, its float16 outputs all go to such nodes, it makes
//      no graph output) is run in f32 too.
//   2. InsertCast: every node with a float16 input and no float16 kernel
//      reads each float16 input through one Cast to f32 (shared by all its
//      readers) and writes each float16 output through a Cast to f16.
//   3. RemoveDuplicateCast, one pass in node order: a Cast whose readers are
//      Casts back to its input type is bypassed, and then removed when every
//      reader was a Cast. All floating types are one group, so f32->f16->f32
//      counts as lossless, unless the f32->f16 is the model's own and the
//      f16->f32 is the model's own too (UnsafeCast: "InsertedPrecisionFreeCast_"
//      names the inserted ones).
// Net effect: a chain of f16 compute ops runs in f32 and rounds only where a
// value enters or leaves an op onnxruntime keeps in f16, at graph outputs, and
// at a model Cast to f16 read by a model Cast; a model Cast to f16 whose
// readers all get cast disappears. This file applies those three passes to
// the IR (after EliminateIdentity and NoopElimination's x+0, x*1 on f16
// nodes, which run before them there): afterwards a value still typed f16
// is one onnxruntime stores as f16, every other former f16 value is f32, and widenHalf rounds every f16 value (the
// ONNX rule) — so together they round where onnxruntime rounds. Convert
// option `halfRounding: 'onnx'` skips this file: every f16 value rounded.
// Only float16: onnxruntime inserts no Casts for bfloat16 (a bf16 op without
// a kernel is refused there), so bf16 keeps the ONNX rule.
import { DT, readElems } from '../ir.js';
import { removeIdentity } from './remove-identity.js';

// The ops onnxruntime-node 1.30's x86-64 CPU provider runs with float16
// operands, measured one by one (x f32 -> Relu -> Cast(f16) -> OP -> Cast(f32),
// then which Casts the optimized model keeps: tests/js/f16-ort-casts.test.mjs
// re-measures the list). Every other op (Conv, MatMul, Add, Relu, Resize,
// MaxPool, Softmax, Gemm, Where, Pad, Tile, the reductions...) has no float16 kernel there.
export const ORT_F16_KERNELS = new Set([
  'Cast', 'Concat', 'Slice', 'Reshape', 'Transpose', 'Split', 'Gather', 'GatherElements', 'ScatterND', 'Expand',
  'Squeeze', 'Unsqueeze', 'Flatten', 'Identity', 'Shape', 'Max', 'Min', 'Clip', 'Round', 'Sign', 'IsNaN',
  'LayerNormalization', 'GroupNormalization', 'RMSNormalization',
]);
// Ops whose first formal input (output) is variadic: onnxruntime's isolation
// test looks at the first actual operand of each formal parameter only.
const VARIADIC_IN = new Set(['Concat', 'Max', 'Min', 'Sum', 'Mean']);
const VARIADIC_OUT = new Set(['Split']);

const F16 = DT.f16;
const int = (v) => ({ type: 'int', value: v });

// UnsafeCast's type groups and widths (insert_cast_transformer.cc)
const GROUP = new Map([[DT.bool, 'b'], [DT.i8, 'i'], [DT.i16, 'i'], [DT.i32, 'i'], [DT.i64, 'i'], [DT.u8, 'u'], [DT.u16, 'u'], [DT.u32, 'u'], [DT.u64, 'u'], [DT.f16, 'f'], [DT.bf16, 'f'], [DT.f32, 'f'], [DT.f64, 'f']]);
const BITS = new Map([[DT.bool, 1], [DT.i8, 8], [DT.u8, 8], [DT.i16, 16], [DT.u16, 16], [DT.f16, 16], [DT.bf16, 16], [DT.i32, 32], [DT.u32, 32], [DT.f32, 32], [DT.i64, 64], [DT.u64, 64], [DT.f64, 64]]);

/** onnxruntime's UnsafeCast: may a Cast from `src` to `dst` lose information (an inserted narrowing does not count)? */
function unsafeCast(src, dst, inserted) {
  const gs = GROUP.get(src), gd = GROUP.get(dst);
  if (!gs || !gd) return true;
  if (gs !== 'b' && gs !== 'u' && gd === 'u') return true;
  if (gs === 'f' && gd !== 'f') return true;
  const bs = BITS.get(src), bd = BITS.get(dst);
  if (gs === 'u' && gd === 'i') return bd <= bs;
  if ((gs === 'i' || gs === 'u') && gd === 'f') return bd <= bs;
  if ((src === DT.f16 && dst === DT.bf16) || (src === DT.bf16 && dst === DT.f16)) return true;
  return bs > bd && !inserted;
}

/** NoopElimination on f16 nodes: x+0, 0+x, x-0, x*1, 1*x, x/1 with a constant that does not broadcast x. */
function noopElimination(ir, outs) {
  let removed = 0;
  const unit = (name, v) => {
    const c = ir.get(name);
    if (!c || c.kind !== 'const' || c.dtype !== F16) return false;
    return readElems(c.dtype, c.bytes).every((h) => (v === 0 ? (Number(h) & 0x7fff) === 0 : Number(h) === 0x3c00));
  };
  for (const n of [...ir.nodes]) {
    if (!['Add', 'Sub', 'Mul', 'Div'].includes(n.op) || outs.has(n.outputs[0])) continue;
    const [a, b] = n.inputs, y = ir.get(n.outputs[0]);
    if (y?.dtype !== F16) continue;
    const zero = n.op === 'Add' || n.op === 'Sub', v = zero ? 0 : 1;
    let x = null;
    if (unit(b, v)) x = a;
    else if ((n.op === 'Add' || n.op === 'Mul') && unit(a, v)) x = b;
    if (!x || JSON.stringify(ir.get(x).shape) !== JSON.stringify(y.shape)) continue;
    ir.nodes.splice(ir.nodes.indexOf(n), 1);
    for (const m of ir.nodes) m.inputs = m.inputs.map((i) => (i === n.outputs[0] ? x : i));
    removed++;
  }
  return removed;
}

/** Readers of every value: value -> [node], one entry per operand slot (onnxruntime counts edges). */
function readerMap(nodes) {
  const m = new Map();
  for (const n of nodes) for (const i of n.inputs) if (i) (m.get(i) ?? m.set(i, []).get(i)).push(n);
  return m;
}

/** Pass 1: nodes with an f16 kernel between nodes that will be cast are run in f32 (unassigned). */
function forceIsolated(ir, assigned, outs) {
  const is16 = (x) => !!x && ir.get(x)?.dtype === F16;
  const needsCast = (n) => !assigned.get(n) && n.inputs.some(is16);
  const readers = readerMap(ir.nodes);
  const producer = new Map();
  for (const n of ir.nodes) for (const o of n.outputs) if (o) producer.set(o, n);
  let forced = 0;
  for (const n of ir.nodes) {
    if (!assigned.get(n) || n.graphs) continue;
    if (!n.inputs.some((i) => producer.has(i)) || n.outputs.some((o) => outs.has(o))) continue;
    const ins = (VARIADIC_IN.has(n.op) ? n.inputs.slice(0, 1) : n.inputs).filter(is16);
    if (ins.length === 0) continue;
    if (ins.some((i) => producer.has(i) && !needsCast(producer.get(i)))) continue;
    const os = (VARIADIC_OUT.has(n.op) ? n.outputs.slice(0, 1) : n.outputs).filter(is16);
    if (os.length === 0) continue;
    if (os.some((o) => (readers.get(o) ?? []).some((r) => !needsCast(r)))) continue;
    assigned.set(n, false);
    forced++;
  }
  return forced;
}

/** Pass 2: an unassigned node with f16 operands reads them through Casts to f32 and writes f16 through Casts to f16. */
function insertCasts(ir, assigned, inserted) {
  const is16 = (x) => !!x && ir.get(x)?.dtype === F16;
  const widened = new Map(); // f16 value -> its f32 Cast's output, shared by every reader
  const nodes = [];
  const cast = (from, to, dt) => {
    const c = { op: 'Cast', name: ir.fresh(`InsertedPrecisionFreeCast_${to}`), inputs: [from], outputs: [to], attrs: { to: int(dt) } };
    inserted.push(c);
    return c;
  };
  for (const n of ir.nodes) {
    if (assigned.get(n) || !n.inputs.some(is16)) { nodes.push(n); continue; }
    n.inputs = n.inputs.map((i) => {
      if (!is16(i)) return i;
      if (!widened.has(i)) {
        const w = ir.addValue({ name: ir.fresh(`${i}/ort_f32`), dtype: DT.f32, shape: ir.get(i).shape, kind: 'node' });
        widened.set(i, w);
        nodes.push(cast(i, w, DT.f32));
      }
      return widened.get(i);
    });
    if (n.attrs.dtype?.type === 'int' && n.attrs.dtype.value === F16) n.attrs.dtype = int(DT.f32);
    const after = [];
    n.outputs = n.outputs.map((o) => {
      if (!is16(o)) return o;
      const w = ir.addValue({ name: ir.fresh(`${o}/ort_f32`), dtype: DT.f32, shape: ir.get(o).shape, kind: 'node' });
      after.push(cast(w, o, F16));
      return w;
    });
    assigned.set(n, true);
    nodes.push(n, ...after);
  }
  ir.nodes = nodes;
}

/** Pass 3: RemoveDuplicateCastTransformer, one pass over the model's Casts and then the inserted ones. */
function removeDuplicateCasts(ir, inserted, outs) {
  const ins = new Set(inserted);
  const order = [...ir.nodes.filter((n) => n.op === 'Cast' && !ins.has(n)), ...inserted];
  const dt = (x) => ir.get(x).dtype;
  const gone = new Set();
  let readers = readerMap(ir.nodes);
  const redirect = (from, to) => {
    for (const m of readers.get(from) ?? []) m.inputs = m.inputs.map((i) => (i === from ? to : i));
    readers = readerMap(ir.nodes.filter((n) => !gone.has(n)));
  };
  for (const a of order) {
    if (gone.has(a)) continue;
    const src = dt(a.inputs[0]), dst = dt(a.outputs[0]);
    const lossy = unsafeCast(src, dst, ins.has(a));
    const edges = readers.get(a.outputs[0]) ?? [];
    const casts = edges.filter((b) => b.op === 'Cast');
    if (lossy && casts.some((b) => unsafeCast(dt(b.outputs[0]), dt(b.inputs[0]), ins.has(b)))) continue;
    const drop = casts.filter((b) => !outs.has(b.outputs[0]) && dt(b.outputs[0]) === src);
    const keep = casts.filter((b) => !drop.includes(b));
    for (const b of drop) { gone.add(b); redirect(b.outputs[0], a.inputs[0]); }
    if (edges.length > 0 && casts.length === edges.length && !outs.has(a.outputs[0])) {
      for (const b of keep) b.inputs = [a.inputs[0]];
      gone.add(a);
      readers = readerMap(ir.nodes.filter((n) => !gone.has(n)));
    }
  }
  ir.nodes = ir.nodes.filter((n) => !gone.has(n));
  return gone.size;
}

/** The rewrite (see the header); null when the graph has no float16 value. */
export function ortHalfCasts(ir) {
  if (![...ir.values.values()].some((v) => v.dtype === F16)) return null;
  // onnxruntime's level-1 rewrites run before its Cast passes: Identity and
  // inference Dropout go (a kept Identity would hold a Cast's rounding for
  // its readers), then x+0 and x*1
  removeIdentity(ir);
  const outs = new Set(ir.outputs);
  const noops = noopElimination(ir, outs);
  const is16 = (x) => !!x && ir.get(x)?.dtype === F16;
  // partitioning: a node with an f16 operand gets the CPU provider only if it has an f16 kernel
  const assigned = new Map(ir.nodes.map((n) => [n, ORT_F16_KERNELS.has(n.op) || !n.inputs.some(is16)]));
  const forced = forceIsolated(ir, assigned, outs);
  const inserted = [];
  insertCasts(ir, assigned, inserted);
  const removed = removeDuplicateCasts(ir, inserted, outs);
  const kept = inserted.filter((c) => ir.nodes.includes(c)).length;
  ir.log.push(`f16-rounding-points: onnxruntime's float16 Casts: ${noops} no-op(s) removed, ${forced} isolated f16 node(s) run in f32, ${inserted.length} Cast(s) inserted, ${removed} removed (${kept} inserted kept)`);
  return { noops, forced, inserted: inserted.length, removed, kept };
}
