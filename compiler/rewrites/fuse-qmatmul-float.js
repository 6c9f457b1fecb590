// Rewrite (decision 72): the dynamically quantized linear layer that
// onnxruntime's quantize_dynamic writes (transformers.js ships it)
//   q, qs, qz = DynamicQuantizeLinear(x)
//   y = Mul(Cast(MatMulInteger(q, B, qz, bz), to=f32), Mul(qs, bs)) [+ bias]
// onto one node:
//   holo.MatMulIntegerToFloat(A, B, a_scale, b_scale, a_zp, b_zp, bias?)
//     y(i,j) = (float)sum(i,j) * (a_scale * b_scale[j]) (+ bias[j])
//   holo.DynamicQuantizeMatMul(x, B, b_scale, b_zp, bias?): the same with A,
//     a_scale and a_zp the DynamicQuantizeLinear of x, computed inside
// (onnxruntime's contrib ops' input orders). The kernel (operators/
// matmul-integer.c) takes the chain's steps on the same values -- the exact
// int32 sum, its f32 conversion, the f32 product of the two scales, one f32
// multiply, one f32 add -- so the bytes are those of the unfused chain
// (tests/js/fuse-qmatmul-float.test.mjs). Decode steps run these layers at
// M = 1..few rows, where the chain's five to seven nodes cost more than the
// product. Applied only when all of these hold (else the graph stays):
// - each intermediate (the int32 sums, their f32, the scale product, the
//   product before the bias) feeds only the next step and is not a graph
//   output; the Cast is to f32;
// - the scale is Mul(a_scale, b_scale) with a_scale one f32 element and
//   b_scale one element or an f32 [N] (or one f32 scale of 1 or N elements
//   along the last dim, taken as b_scale with a_scale the constant 1: 1 * s
//   is s); the multiplied shape is the sums' shape (the scale broadcasts
//   along the last dim only);
// - the bias (optional) as the fused MatMul's (rewrites/fuse-matmul-bias.js);
// - for DynamicQuantizeMatMul, in addition: A, a_scale and a_zp are the
//   three outputs of one DynamicQuantizeLinear read by nothing else.
import { DT, writeElems } from '../ir.js';
import { biasForm } from './fuse-matmul-bias.js';

const numelOf = (s) => (Array.isArray(s) && s.every((d) => typeof d === 'number') ? s.reduce((a, d) => a * d, 1) : null);

/** The node producing `v` when it is `op` and `v` has one reader and is no graph output, else null. */
function soleProducer(ir, uses, v, op) {
  const p = ir.producer(v);
  if (!p || p.op !== op || (uses.get(v) ?? 0) !== 1 || ir.outputs.includes(v)) return null;
  return p;
}

/**
 * `v` as a per-column scale for N columns: itself (rank <= 1 of 1 or N
 * elements), a reshaped constant (leading 1s, rank <= the sums' `rank`: the
 * product keeps the sums' shape), or null.
 */
function colScale(ir, v, N, rank) {
  const s = ir.get(v);
  if (!s || s.dtype !== DT.f32 || !Array.isArray(s.shape) || s.shape.length > Math.max(rank, 1)) return null;
  const n = numelOf(s.shape);
  if (n !== 1 && n !== N) return null;
  if (!s.shape.slice(0, -1).every((d) => d === 1)) return null;
  if (s.shape.length <= 1) return v;
  return s.kind === 'const' ? ir.addConst(`${v}_col`, DT.f32, n === 1 ? [] : [n], s.bytes) : null;
}

/** [a_scale, b_scale] of the scale operand `s` of the Mul, or null. */
function scalesOf(ir, uses, s, N, rank) {
  const m = soleProducer(ir, uses, s, 'Mul');
  if (m && m.inputs.length === 2) {
    const one = (v) => numelOf(ir.get(v)?.shape) === 1 && ir.get(v).dtype === DT.f32;
    // the product commutes: a one-element operand is a_scale, the other
    // b_scale; a computed one (DynamicQuantizeLinear's) is tried first
    const pairs = [[m.inputs[0], m.inputs[1]], [m.inputs[1], m.inputs[0]]];
    if (ir.isConst(m.inputs[0])) pairs.reverse();
    for (const [a, b] of pairs) {
      const bs = one(a) ? colScale(ir, b, N, 1) : null;
      if (bs && ir.get(a).shape.length <= 1) return { as: a, bs, drop: m };
    }
  }
  const bs = colScale(ir, s, N, rank);
  if (!bs) return null;
  return { as: ir.addConst(`${s}_one`, DT.f32, [], writeElems(DT.f32, [1])), bs, drop: null };
}

/** One fused node for the Mul `mul`, or null when the pattern does not hold. */
function matchAt(ir, uses, mul) {
  if (mul.op !== 'Mul' || mul.inputs.length !== 2 || mul.outputs.length !== 1) return null;
  for (const [c, s] of [[mul.inputs[0], mul.inputs[1]], [mul.inputs[1], mul.inputs[0]]]) {
    const cast = soleProducer(ir, uses, c, 'Cast');
    if (!cast || cast.attrs.to?.value !== DT.f32 || ir.get(c)?.dtype !== DT.f32) continue;
    const mmi = soleProducer(ir, uses, cast.inputs[0], 'MatMulInteger');
    if (!mmi || mmi.outputs.length !== 1) continue;
    // N is B's last dim; the sums' and the product's shapes, when known, agree
    const bsh = ir.get(mmi.inputs[1])?.shape;
    if (!Array.isArray(bsh) || bsh.length < 2) continue;
    const N = bsh[bsh.length - 1];
    if (typeof N !== 'number') continue;
    const sh = ir.get(mmi.outputs[0])?.shape, ysh = ir.get(mul.outputs[0])?.shape;
    if (Array.isArray(sh) !== Array.isArray(ysh) || (sh && (sh.length !== ysh.length || !sh.every((d, i) => d === ysh[i])))) continue;
    const rank = Array.isArray(sh) ? sh.length : 1;
    const sc = scalesOf(ir, uses, s, N, rank);
    if (sc) return { mul, cast, mmi, N, ...sc };
  }
  return null;
}

/** The bias Add reading only `y`'s value, and its bias operand, or null. */
function biasAt(ir, uses, y, N) {
  if ((uses.get(y) ?? 0) !== 1 || ir.outputs.includes(y)) return null;
  const add = ir.consumers(y)[0];
  if (!add || add.op !== 'Add' || add.inputs.length !== 2 || add.outputs.length !== 1) return null;
  const b = add.inputs[0] === y ? add.inputs[1] : add.inputs[0];
  if (b === y || ir.get(add.outputs[0])?.dtype !== DT.f32) return null;
  const bias = biasForm(ir, b, ir.get(y).shape, N);
  return bias ? { add, bias } : null;
}

/** The DynamicQuantizeLinear whose three outputs are exactly A, a_scale and a_zp and read by nothing else. */
function dqlOf(ir, uses, a, as, za) {
  const d = ir.producer(a);
  if (!d || d.op !== 'DynamicQuantizeLinear' || d.outputs.length !== 3) return null;
  if (d.outputs[0] !== a || d.outputs[1] !== as || d.outputs[2] !== za) return null;
  return d.outputs.every((o) => (uses.get(o) ?? 0) === 1 && !ir.outputs.includes(o)) ? d : null;
}

export function fuseQMatMulFloat(ir) {
  let fused = 0, dq = 0;
  // counted once: a fusion moves each operand's read from a dropped node to
  // the fused one, so every count that a later match reads stays right
  const uses = ir.uses();
  for (const mul of [...ir.nodes]) {
    if (mul.op !== 'Mul') continue;
    const m = matchAt(ir, uses, mul);
    if (!m) continue;
    const [a, b, za, zb] = [0, 1, 2, 3].map((i) => m.mmi.inputs[i] ?? '');
    const ba = biasAt(ir, uses, mul.outputs[0], m.N);
    const out = ba ? ba.add.outputs[0] : mul.outputs[0];
    const gone = [m.cast, m.mul, m.drop, ba?.add].filter(Boolean);
    const d = za ? dqlOf(ir, uses, a, m.as, za) : null;
    const node = d
      ? { op: 'holo.DynamicQuantizeMatMul', name: m.mmi.name, inputs: [d.inputs[0], b, m.bs, zb, ba?.bias ?? ''], outputs: [out], attrs: {} }
      : { op: 'holo.MatMulIntegerToFloat', name: m.mmi.name, inputs: [a, b, m.as, m.bs, za, zb, ba?.bias ?? ''], outputs: [out], attrs: {} };
    while (node.inputs.length && !node.inputs[node.inputs.length - 1]) node.inputs.pop();
    if (d) gone.push(d);
    // the dropped nodes' values go; the output keeps its name and value record
    const dead = new Set(gone.flatMap((n) => n.outputs).concat(m.mmi.outputs));
    dead.delete(out);
    // at the last step's place: every operand is defined before it
    const last = ba ? ba.add : m.mul;
    ir.nodes.splice(ir.nodes.indexOf(last), 1, node);
    for (const n of [m.mmi, ...gone.filter((g) => g !== last)]) ir.nodes.splice(ir.nodes.indexOf(n), 1);
    for (const v of dead) ir.values.delete(v);
    fused++;
    if (d) dq++;
  }
  if (fused) ir.log.push(`fuse-qmatmul-float: ${fused} MatMulInteger -> Cast -> Mul chains fused (${dq} with their DynamicQuantizeLinear)`);
  return fused;
}
