// Rewrites that remove a pass over memory for the activations
// (docs/converter.md, docs/kernels.md "Activations"):
//
// fuseSilu: Mul(x, Sigmoid(x)) or Mul(Sigmoid(x), x) -> holo.SiLU(x), when the
// Sigmoid's output feeds only that Mul and is not a graph output. The
// holo.SiLU kernel computes x * sigmoid(x) with the Sigmoid kernel's value and
// one f32 multiply (a commutative IEEE operation), so its bytes are the pair's.
//
// fuseGelu: the erf GELU that torch exports op by op (opset < 20 has no Gelu):
//   d = Div(x, sqrt2) | Mul(x, 1/sqrt2); e = Erf(d); a = Add(e, 1) | Add(1, e);
//   y = Mul(Mul(x, a), 0.5) | Mul(Mul(x, 0.5), a)   (either operand order)
// -> Gelu(x) (approximate "none"), the runtime's f32 GELU kernel
// (docs/kernels.md "Activations": within 2.3 ulp of 0.5 x erfc(-x/sqrt2)
// for x >= 0, 6.7 below). Unlike the rewrites around it this one changes
// bytes (one function instead of five rounded steps; the chain's 1 + erf
// loses all relative accuracy for x << 0, the kernel does not): it is a
// semantic rewrite, as GELU is what the exporter spelled. Applied only when
// every intermediate feeds only the next step and none is a graph output,
// the constants are one-element f32 of exactly those values.
//
// fuseActivation: A(P(...)) with P in Gemm / Conv / ConvTranspose / MatMul / holo.MatMulPacked
// and A in Sigmoid / holo.SiLU / HardSwish / HardSigmoid / Gelu / Tanh -> P with
// holo_activation = A (and A's attributes as holo_activation_<name>). The
// product kernel runs A's own kernel over its results, in place: the pair's
// bytes, one buffer and one dispatch fewer. Same conditions as fuse-relu.
import { DT, A, readElems } from '../ir.js';

const FUSABLE = new Set(['Gemm', 'Conv', 'ConvTranspose', 'MatMul', 'holo.MatMulPacked']);
const ACTIVATIONS = new Set(['Sigmoid', 'holo.SiLU', 'HardSwish', 'HardSigmoid', 'Gelu', 'Tanh']);

export function fuseSilu(ir) {
  let fused = 0;
  const uses = ir.uses();
  for (const mul of [...ir.nodes]) {
    if (mul.op !== 'Mul' || mul.inputs.length !== 2 || mul.outputs.length !== 1) continue;
    for (let k = 0; k < 2; k++) {
      const s = mul.inputs[k], x = mul.inputs[1 - k];
      const sig = ir.producer(s);
      if (!sig || sig.op !== 'Sigmoid' || sig.inputs[0] !== x || sig.outputs.length !== 1) continue;
      const xv = ir.get(x);
      if (!xv || xv.dtype !== DT.f32 || (uses.get(s) ?? 0) !== 1 || ir.outputs.includes(s)) continue;
      ir.nodes.splice(ir.nodes.indexOf(sig), 1);
      ir.values.delete(s);
      mul.op = 'holo.SiLU';
      mul.inputs = [x];
      mul.attrs = {};
      fused++;
      break;
    }
  }
  if (fused) ir.log.push(`fuse-silu: ${fused} Mul(x, Sigmoid(x)) -> holo.SiLU`);
  return fused;
}

const scalar = (ir, name) => {
  const v = ir.get(name);
  if (!v || v.kind !== 'const' || v.dtype !== DT.f32 || !Array.isArray(v.shape) || v.shape.reduce((a, d) => a * d, 1) !== 1) return undefined;
  return readElems(DT.f32, v.bytes)[0];
};
/** The other operand of binary node n when one operand is the constant c (f32 value), else null. */
function withConst(ir, n, op, c) {
  if (!n || n.op !== op || n.inputs.length !== 2 || n.outputs.length !== 1) return null;
  if (scalar(ir, n.inputs[1]) === c) return n.inputs[0];
  if (op !== 'Div' && scalar(ir, n.inputs[0]) === c) return n.inputs[1];
  return null;
}

export function fuseGelu(ir) {
  let fused = 0;
  const SQRT2 = Math.fround(Math.SQRT2), RSQRT2 = Math.fround(Math.SQRT1_2);
  for (const erf of [...ir.nodes]) {
    if (erf.op !== 'Erf' || erf.inputs.length !== 1 || erf.outputs.length !== 1) continue;
    const uses = ir.uses();
    const once = (name) => (uses.get(name) ?? 0) === 1 && !ir.outputs.includes(name);
    const consumer = (name) => (once(name) ? ir.nodes.find((n) => n.inputs.includes(name)) : null);
    const d = ir.producer(erf.inputs[0]);
    const x = withConst(ir, d, 'Div', SQRT2) ?? withConst(ir, d, 'Mul', RSQRT2);
    const xv = x && ir.get(x);
    if (!xv || xv.dtype !== DT.f32 || !once(d.outputs[0])) continue;
    const add = consumer(erf.outputs[0]);
    if (withConst(ir, add, 'Add', 1) !== erf.outputs[0]) continue;
    const a = add.outputs[0];
    const m1 = consumer(a);
    if (!m1 || m1.op !== 'Mul' || m1.inputs.length !== 2) continue;
    const other = m1.inputs[0] === a ? m1.inputs[1] : m1.inputs[0];
    let last;
    if (other === x) { // Mul(Mul(x, a), 0.5)
      last = consumer(m1.outputs[0]);
      if (withConst(ir, last, 'Mul', 0.5) !== m1.outputs[0]) continue;
    } else { // Mul(Mul(x, 0.5), a)
      const h = ir.producer(other);
      if (withConst(ir, h, 'Mul', 0.5) !== x || !once(other)) continue;
      last = m1;
    }
    const dead = [d, erf, add, ...(last === m1 ? [ir.producer(other)] : [m1])];
    for (const n of dead) {
      ir.nodes.splice(ir.nodes.indexOf(n), 1);
      for (const o of n.outputs) ir.values.delete(o);
    }
    last.op = 'Gelu';
    last.inputs = [x];
    last.attrs = {};
    fused++;
  }
  if (fused) ir.log.push(`fuse-gelu: ${fused} Div/Erf/Add/Mul/Mul -> Gelu`);
  return fused;
}

/** The fused node's attributes for activation node `a` (its own, renamed). */
function actAttrs(a) {
  const out = { holo_activation: A.string(a.op) };
  for (const [k, v] of Object.entries(a.attrs)) out[`holo_activation_${k}`] = v;
  return out;
}

export function fuseActivation(ir) {
  let fused = 0;
  for (const act of [...ir.nodes]) {
    if (!ACTIVATIONS.has(act.op) || act.inputs.length !== 1 || act.outputs.length !== 1) continue;
    if (act.op === 'HardSigmoid' || act.op === 'Gelu') {
      const known = act.op === 'Gelu' ? ['approximate'] : ['alpha', 'beta'];
      if (Object.keys(act.attrs).some((k) => !known.includes(k))) continue;
    } else if (Object.keys(act.attrs).length) continue;
    const x = act.inputs[0];
    const xv = ir.get(x);
    if (!xv || xv.kind !== 'node' || xv.dtype !== DT.f32) continue;
    const p = ir.producer(x);
    if (!p || !FUSABLE.has(p.op) || p.outputs.length !== 1 || p.attrs.holo_activation) continue;
    if ((ir.uses().get(x) ?? 0) !== 1 || ir.outputs.includes(x)) continue;
    ir.absorb(p, act);
    p.attrs = { ...p.attrs, ...actAttrs(act) };
    fused++;
  }
  if (fused) ir.log.push(`fuse-activation: ${fused} activation${fused === 1 ? '' : 's'} folded into ${fused === 1 ? 'its producer' : 'their producers'}`);
  return fused;
}
