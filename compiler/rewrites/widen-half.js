// Rewrite: 16-bit floats (float16, bfloat16) run as float32 (docs/decisions.md 47).
//
//   widenHalf(ir) -> { widened, rounded } | null     (after normalization, before the other rewrites)
//
// The kernels compute in f32; a 16-bit value lives in the graph only where
// its bits are the point:
// - a constant over JS_WIDEN_BYTES stays 16-bit in the archive (half the
//   bytes) behind a Cast to f32 that the converter does not fold: the
//   runtime's constant cone widens it once at load and pins it (and a
//   WarmStore keeps it). A smaller one is widened here, exactly.
// - a 16-bit graph input is cast to f32 once; a 16-bit graph output is cast
//   from f32 once (Cast rounds to nearest even).
// - every other 16-bit value is computed in f32 by the op that makes it and
//   rounded to 16 bits (Cast there and back): the ONNX rule, every 16-bit
//   value is 16-bit. An op that only moves or selects 16-bit operands
//   (EXACT_MOVE) makes 16-bit values already and is not rounded again.
// Which values of a float16 graph are 16-bit is onnxruntime's choice by
// default: rewrites/f16-rounding-points.js runs first and retypes to f32
// the values onnxruntime computes in f32 (decision 77); with the convert
// option `halfRounding: 'onnx'` it does not, and every one is rounded.
import { DT } from '../ir.js';
import { widenBytes, F16, BF16 } from '../half.js';

export const HALF = new Set([F16, BF16]);
export const JS_WIDEN_BYTES = 16 * 1024;

// Ops whose 16-bit outputs are copies or selections of their 16-bit
// operands: already 16-bit values, so not rounded again.
const EXACT_MOVE = new Set(['Concat', 'Slice', 'Reshape', 'Transpose', 'Split', 'Gather', 'Expand', 'Squeeze', 'Unsqueeze', 'Flatten', 'Identity', 'Max', 'Min', 'Clip']);

const int = (v) => ({ type: 'int', value: v });
const castNode = (name, input, output, to, extra = {}) => ({ op: 'Cast', name, inputs: [input], outputs: [output], attrs: { to: int(to) }, ...extra });

function readersOf(ir) {
  const m = new Map();
  for (const n of ir.nodes) for (const i of n.inputs) if (i) (m.get(i) ?? m.set(i, []).get(i)).push(n);
  return m;
}

/** Widens 16-bit constants and inputs; returns the nodes to run first. */
function widenSources(ir, readers, wasHalf) {
  const first = [];
  for (const v of [...ir.values.values()]) {
    if (v.kind !== 'const' || !HALF.has(v.dtype) || !readers.has(v.name)) continue;
    if (v.bytes.length <= JS_WIDEN_BYTES) {
      ir.setConst(v.name, DT.f32, v.shape, widenBytes(v.dtype, v.bytes));
      continue;
    }
    // the model's own Casts widen it already (fold-constants left them for the load)
    if (readers.get(v.name).every((n) => n.op === 'Cast' && n.attrs.to?.value === DT.f32)) continue;
    const src = ir.addConst(`${v.name}/${v.dtype === BF16 ? 'bf16' : 'f16'}`, v.dtype, v.shape, v.bytes);
    Object.assign(v, { kind: 'node', dtype: DT.f32 });
    delete v.bytes;
    first.push(castNode(`${v.name}/widen`, src, v.name, DT.f32, { noFold: true }));
  }
  for (const name of ir.inputs) {
    const v = ir.get(name);
    if (!HALF.has(v.dtype)) continue;
    const w = ir.addValue({ name: ir.fresh(`${name}/f32`), dtype: DT.f32, shape: v.shape, kind: 'node' });
    for (const n of ir.nodes) n.inputs = n.inputs.map((i) => (i === name ? w : i));
    wasHalf.add(w);
    first.push(castNode(`${name}/widen`, name, w, DT.f32));
  }
  return first;
}

/** A node's 16-bit attributes (a dtype to make, a tensor) in f32; false if it has none. */
function widenAttrs(n) {
  let any = false;
  for (const k of ['dtype', 'output_datatype'])
    if (n.attrs[k]?.type === 'int' && HALF.has(n.attrs[k].value)) { n.attrs[k] = int(DT.f32); any = true; }
  return any;
}

/**
 * The nodes after `n` that give its 16-bit output `o` its 16 bits: n makes
 * o/f32; o is that rounded (Cast to 16 bits, back to f32), or for a graph
 * output the 16-bit value itself (and its readers get it back in f32).
 */
function roundOutput(ir, n, k, dt, isOutput, hasReaders, wasHalf) {
  const o = n.outputs[k], v = ir.get(o);
  if (n.op === 'Cast') return roundCast(ir, n, dt, isOutput, hasReaders, wasHalf);
  const wide = ir.addValue({ name: ir.fresh(`${o}/f32`), dtype: DT.f32, shape: v.shape, kind: 'node' });
  n.outputs[k] = wide;
  const after = [];
  if (isOutput) {
    v.dtype = dt;
    after.push(castNode(`${o}/narrow`, wide, o, dt));
    if (hasReaders) {
      const back = ir.addValue({ name: ir.fresh(`${o}/r`), dtype: DT.f32, shape: v.shape, kind: 'node' });
      // its readers now read `back`: still a 16-bit operand to them (an op
      // that makes f16 from it, e.g. MaxPool of an f16 graph output, widens)
      wasHalf.add(back);
      for (const m of ir.nodes) if (m !== n) m.inputs = m.inputs.map((i) => (i === o ? back : i));
      after.push(castNode(`${o}/widen`, o, back, DT.f32));
    }
    return after;
  }
  const narrow = ir.addValue({ name: ir.fresh(`${o}/${dt === BF16 ? 'bf16' : 'f16'}`), dtype: dt, shape: v.shape, kind: 'node' });
  v.dtype = DT.f32;
  after.push(castNode(`${o}/narrow`, wide, narrow, dt), castNode(`${o}/widen`, narrow, o, DT.f32));
  return after;
}

/** roundOutput of a Cast to 16 bits: it keeps its target; its readers get the value back in f32. */
function roundCast(ir, n, dt, isOutput, hasReaders, wasHalf) {
  const o = n.outputs[0], v = ir.get(o);
  n.attrs.to = int(dt);
  if (isOutput) {
    if (!hasReaders) return [];
    const back = ir.addValue({ name: ir.fresh(`${o}/r`), dtype: DT.f32, shape: v.shape, kind: 'node' });
    wasHalf.add(back);
    for (const m of ir.nodes) if (m !== n) m.inputs = m.inputs.map((i) => (i === o ? back : i));
    return [castNode(`${o}/widen`, o, back, DT.f32)];
  }
  const narrow = ir.addValue({ name: ir.fresh(`${o}/${dt === BF16 ? 'bf16' : 'f16'}`), dtype: dt, shape: v.shape, kind: 'node' });
  n.outputs[0] = narrow;
  v.dtype = DT.f32;
  return [castNode(`${o}/widen`, narrow, o, DT.f32)];
}

/** The rewrite (see the header); null when the graph has no 16-bit float. */
export function widenHalf(ir) {
  const half = [...ir.values.values()].some((v) => HALF.has(v.dtype));
  if (!half) return null;
  const readers = readersOf(ir);
  const outs = new Set(ir.outputs);
  const wasHalf = new Set([...ir.values.values()].filter((v) => HALF.has(v.dtype)).map((v) => v.name));
  const first = widenSources(ir, readers, wasHalf);
  const nodes = [];
  let rounded = 0;
  for (const n of ir.nodes) {
    const hadHalfIn = widenAttrs(n) || n.inputs.some((i) => wasHalf.has(i));
    const after = [];
    n.outputs.forEach((o, k) => {
      const v = ir.get(o);
      if (!o || !v || !HALF.has(v.dtype)) return;
      const dt = v.dtype;
      if (n.op === 'Cast') n.attrs.to = int(DT.f32);
      else if (!hadHalfIn) throw new Error(`unsupported op '${n.op}' (node '${n.name}'): it makes a ${dt === BF16 ? 'bfloat16' : 'float16'} value from no 16-bit operand; the converter runs 16-bit floats as f32 and cannot widen it`);
      const isOutput = outs.has(o), rd = readers.get(o) ?? [];
      if (isOutput || !EXACT_MOVE.has(n.op)) {
        after.push(...roundOutput(ir, n, k, dt, isOutput, rd.length > 0, wasHalf));
        rounded++;
      } else v.dtype = DT.f32;
    });
    nodes.push(n, ...after);
  }
  ir.nodes = [...first, ...nodes];
  checkWidened(ir);
  ir.log.push(`widen-half: ${first.length} 16-bit source(s) widened, ${rounded} value(s) rounded to 16 bits`);
  return { widened: first.length, rounded };
}

/** Only Casts touch 16-bit values after the rewrite: a kernel never sees one. */
function checkWidened(ir) {
  for (const n of ir.nodes) {
    if (n.op === 'Cast') continue;
    for (const x of [...n.inputs, ...n.outputs])
      if (x && HALF.has(ir.get(x)?.dtype)) throw new Error(`unsupported op '${n.op}' (node '${n.name}'): a 16-bit float operand '${x}' is left after widening`);
  }
}
