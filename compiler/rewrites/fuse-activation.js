// Rewrites that remove a pass over memory for the activations
// (docs/converter.md, docs/kernels.md "Activations"):
//
// fuseSilu: Mul(x, Sigmoid(x)) or Mul(Sigmoid(x), x) -> holo.SiLU(x), when the
// Sigmoid's output feeds only that Mul and is not a graph output. The
// holo.SiLU kernel computes x * sigmoid(x) with the Sigmoid kernel's value and
// one f32 multiply (a commutative IEEE operation), so its bytes are the pair's.
//
// fuseActivation: A(P(...)) with P in Gemm / Conv / MatMul / holo.MatMulPacked
// and A in Sigmoid / holo.SiLU / HardSwish / HardSigmoid / Gelu / Tanh -> P with
// holo_activation = A (and A's attributes as holo_activation_<name>). The
// product kernel runs A's own kernel over its results, in place: the pair's
// bytes, one buffer and one dispatch fewer. Same conditions as fuse-relu.
import { DT, A } from '../ir.js';

const FUSABLE = new Set(['Gemm', 'Conv', 'MatMul', 'holo.MatMulPacked']);
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
    const y = act.outputs[0];
    ir.nodes.splice(ir.nodes.indexOf(act), 1);
    ir.values.delete(y);
    ir.values.delete(x);
    ir.values.set(y, { ...xv, name: y });
    p.outputs = [y];
    p.attrs = { ...p.attrs, ...actAttrs(act) };
    fused++;
  }
  if (fused) ir.log.push(`fuse-activation: ${fused} activation${fused === 1 ? '' : 's'} folded into ${fused === 1 ? 'its producer' : 'their producers'}`);
  return fused;
}
