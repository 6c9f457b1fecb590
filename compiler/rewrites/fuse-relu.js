// Rewrite: Relu(Gemm|Conv|MatMul|holo.MatMulPacked(...)) -> the same node with
// holo_activation = "Relu" (docs/kernels.md). The kernels apply Relu last in
// the GEMM epilogue (v < 0 ? 0 : v, NaN and -0 pass), exactly the Relu
// kernel's operation on the same value, so the bytes are those of the pair.
// Only when the producer has one output (f32), has no fused activation yet,
// and its output feeds only the Relu and is not a graph output.
import { DT, A } from '../ir.js';

const FUSABLE = new Set(['Gemm', 'Conv', 'MatMul', 'holo.MatMulPacked']);

export function fuseRelu(ir) {
  let fused = 0;
  for (const relu of [...ir.nodes]) {
    if (relu.op !== 'Relu' || relu.inputs.length !== 1 || relu.outputs.length !== 1) continue;
    const x = relu.inputs[0];
    const xv = ir.get(x);
    if (!xv || xv.kind !== 'node' || xv.dtype !== DT.f32) continue;
    const p = ir.producer(x);
    if (!p || !FUSABLE.has(p.op) || p.outputs.length !== 1 || p.attrs.holo_activation) continue;
    if ((ir.uses().get(x) ?? 0) !== 1 || ir.outputs.includes(x)) continue;
    const y = relu.outputs[0];
    ir.nodes.splice(ir.nodes.indexOf(relu), 1);
    ir.values.delete(y);
    ir.values.delete(x);
    ir.values.set(y, { ...xv, name: y });
    p.outputs = [y];
    p.attrs = { ...p.attrs, holo_activation: A.string('Relu') };
    fused++;
  }
  if (fused) ir.log.push(`fuse-relu: ${fused} Relu folded into ${fused === 1 ? 'its producer' : 'their producers'}`);
  return fused;
}
