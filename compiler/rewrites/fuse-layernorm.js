// Rewrite: the LayerNorm that torch exports op by op (and hand-written
// graphs spell out) ->
//   holo.LayerNormSteps(x, scale?, bias?; epsilon)          (docs/kernels.md)
// a kernel that performs THE SAME STEPS with the same roundings, one row
// (last axis) at a time, so the bytes are those of the unfused graph:
//   m  = ReduceMean(x, axes=[-1], keepdims=1)    sum in double, ascending; /n; -> f32
//   d  = Sub(x, m)                               f32
//   p  = Pow(d, 2) | Mul(d, d)                   f32 (Pow(d, 2) is d*d exactly:
//                                                 the f32 product is exact in double)
//   v  = ReduceMean(p, axes=[-1], keepdims=1)    as m
//   ve = Add(v, eps) | Add(eps, v)               f32, eps a one-element f32 constant
//   s  = Sqrt(ve)                                f32
//   q  = Div(d, s)                               f32
//   [q = Mul(q, scale) | Mul(scale, q)]          f32, scale an f32 constant of 1 or N elements
//   [y = Add(q, bias)  | Add(bias, q)]           f32, bias likewise
// (addition and multiplication commute: only which NaN payload survives two
// NaN operands could differ, and wasm leaves NaN payloads nondeterministic.)
// It replaces ~9 passes over the activations (and their intermediates) by
// one kernel that reads x three times per row while it is in cache.
// Applied only when every intermediate feeds only the next step and none is a
// graph output; scale/bias constants must have every dim but the last 1
// (so they broadcast along the last axis only and never grow the output);
// when x's shape is known its last dim must be the constants' length or they
// have one element.
import { DT, A, constInts, readElems } from '../ir.js';

const one = (ir, name) => {
  const v = ir.get(name);
  if (!v || v.kind !== 'const' || v.dtype !== DT.f32 || !Array.isArray(v.shape) || v.shape.reduce((a, d) => a * d, 1) !== 1) return undefined;
  return readElems(DT.f32, v.bytes)[0];
};

/** The single consumer of `name` (and `name` not a graph output), or null. */
function only(ir, uses, name) {
  if ((uses.get(name) ?? 0) !== 1 || ir.outputs.includes(name)) return null;
  return ir.nodes.find((n) => n.inputs.includes(name)) ?? null;
}

/** ReduceMean over the last axis only, keepdims=1. */
function lastMean(ir, n) {
  if (!n || n.op !== 'ReduceMean' || n.outputs.length !== 1) return false;
  const keep = n.attrs.keepdims === undefined ? 1 : n.attrs.keepdims.value;
  if (keep !== 1) return false;
  const axes = n.inputs[1] ? constInts(ir, n.inputs[1]) : n.attrs.axes ? n.attrs.axes.value : null;
  if (!axes || axes.length !== 1) return false;
  const x = ir.get(n.inputs[0]);
  const r = Array.isArray(x?.shape) ? x.shape.length : null;
  return axes[0] === -1 || (r !== null && axes[0] === r - 1);
}

/** An f32 row constant [.., N] with every leading dim 1: its length, else null. */
function rowLen(ir, name, x) {
  const v = ir.get(name);
  if (!v || v.kind !== 'const' || v.dtype !== DT.f32 || !Array.isArray(v.shape)) return null;
  const s = v.shape, last = s.length ? s[s.length - 1] : 1;
  if (!s.slice(0, -1).every((d) => d === 1)) return null;
  const xs = ir.get(x)?.shape;
  if (Array.isArray(xs)) {
    if (s.length > xs.length) return null;
    const n = xs[xs.length - 1];
    if (last !== 1 && last !== n) return null;
  } else if (s.length > 1) return null; // unknown rank: never let a constant grow it
  return last;
}

const other = (n, v) => (n.inputs[0] === v ? n.inputs[1] : n.inputs[0]);

export function fuseLayerNorm(ir) {
  let fused = 0;
  for (const m of [...ir.nodes]) {
    if (!ir.nodes.includes(m) || !lastMean(ir, m)) continue;
    const x = m.inputs[0];
    const xv = ir.get(x);
    if (!xv || xv.dtype !== DT.f32) continue;
    const uses = ir.uses();
    const sub = only(ir, uses, m.outputs[0]);
    if (!sub || sub.op !== 'Sub' || sub.inputs[0] !== x || sub.inputs[1] !== m.outputs[0]) continue;
    const d = sub.outputs[0];
    // d feeds the square and the division, nothing else
    const dUsers = ir.nodes.filter((n) => n.inputs.includes(d));
    if (ir.outputs.includes(d) || dUsers.length !== 2) continue;
    const sq = dUsers.find((n) => (n.op === 'Pow' && n.inputs[0] === d && one(ir, n.inputs[1]) === 2) || (n.op === 'Mul' && n.inputs[0] === d && n.inputs[1] === d));
    const div = dUsers.find((n) => n.op === 'Div' && n.inputs[0] === d && n.inputs[1] !== d);
    if (!sq || !div || sq === div) continue;
    const dCount = (uses.get(d) ?? 0) - (sq.op === 'Mul' ? 2 : 1);
    if (dCount !== 1) continue;
    const m2 = only(ir, uses, sq.outputs[0]);
    if (!lastMean(ir, m2) || m2.inputs[0] !== sq.outputs[0]) continue;
    const add = only(ir, uses, m2.outputs[0]);
    if (!add || add.op !== 'Add') continue;
    const eps = one(ir, other(add, m2.outputs[0]));
    if (eps === undefined) continue;
    const sqrt = only(ir, uses, add.outputs[0]);
    if (!sqrt || sqrt.op !== 'Sqrt') continue;
    if (only(ir, uses, sqrt.outputs[0]) !== div || div.inputs[1] !== sqrt.outputs[0]) continue;
    // optional scale, then optional bias
    const chain = [m, sub, sq, m2, add, sqrt, div];
    let out = div.outputs[0], scale = '', bias = '';
    const mul = only(ir, uses, out);
    if (mul && mul.op === 'Mul' && mul.outputs.length === 1 && rowLen(ir, other(mul, out), x) !== null) {
      scale = other(mul, out);
      chain.push(mul);
      out = mul.outputs[0];
    }
    const bad = only(ir, uses, out);
    if (bad && bad.op === 'Add' && bad.outputs.length === 1 && rowLen(ir, other(bad, out), x) !== null) {
      bias = other(bad, out);
      chain.push(bad);
      out = bad.outputs[0];
    }
    if (!chain.every((n) => n.outputs.length === 1 && ir.get(n.outputs[0])?.dtype === DT.f32)) continue;
    // scale/bias of N elements against a last dim of 1 would broadcast the output up: refused above when
    // x's shape is known; with it unknown the kernel refuses at run time (never silently different)
    const y = out, yv = ir.get(y);
    const ln = {
      op: 'holo.LayerNormSteps', name: sub.name || m.name,
      inputs: [x, scale, bias].slice(0, bias ? 3 : scale ? 2 : 1),
      outputs: [y], attrs: { epsilon: A.float(eps) },
    };
    const at = ir.nodes.indexOf(chain[chain.length - 1]);
    ir.nodes.splice(at, 1, ln);
    for (const n of chain.slice(0, -1)) {
      ir.nodes.splice(ir.nodes.indexOf(n), 1);
      ir.values.delete(n.outputs[0]);
    }
    ir.values.set(y, { ...yv, shape: Array.isArray(xv.shape) ? [...xv.shape] : yv.shape });
    fused++;
  }
  if (fused) ir.log.push(`fuse-layernorm: ${fused} ReduceMean/Sub/Pow/ReduceMean/Add/Sqrt/Div(/Mul/Add) -> holo.LayerNormSteps`);
  return fused;
}
