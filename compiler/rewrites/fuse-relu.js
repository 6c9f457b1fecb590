// Rewrite: Relu(Gemm|Conv|ConvTranspose|MatMul|holo.MatMulPacked(...)) -> the same node with
// holo_activation = "Relu" (docs/kernels.md). The kernels apply Relu last in
// the GEMM epilogue (v < 0 ? 0 : v, NaN and -0 pass), exactly the Relu
// kernel's operation on the same value, so the bytes are those of the pair.
// Only when the producer has one output (f32), has no fused activation yet,
// and its output feeds only the Relu and is not a graph output.
//
// fuseClip: Clip(P(...), min?, max?) with min / max absent or one-element f32
// constants -> P with holo_activation = "Clip", holo_clip_min / holo_clip_max
// (FLOAT, an f32 exactly; an absent bound is an absent attribute). The
// epilogue then runs the Clip kernel's own compares (v < lo ? lo : v, then
// v > hi ? hi : v; NaN passes) on the same value: the bytes of the pair.
// MobileNet's ReLU6 (Conv + Clip(0, 6)) is the case this removes a pass for.
import { DT, A, readElems } from '../ir.js';

const FUSABLE = new Set(['Gemm', 'Conv', 'ConvTranspose', 'MatMul', 'holo.MatMulPacked']);

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
    ir.absorb(p, relu);
    p.attrs = { ...p.attrs, holo_activation: A.string('Relu') };
    fused++;
  }
  if (fused) ir.log.push(`fuse-relu: ${fused} Relu folded into ${fused === 1 ? 'its producer' : 'their producers'}`);
  return fused;
}

/** The f32 value of a one-element f32 constant, or undefined (absent: null). */
function clipBound(ir, name) {
  if (!name) return null;
  const v = ir.get(name);
  if (!v || v.kind !== 'const' || v.dtype !== DT.f32 || !Array.isArray(v.shape) || v.shape.reduce((a, d) => a * d, 1) !== 1) return undefined;
  return readElems(DT.f32, v.bytes)[0];
}

export function fuseClip(ir) {
  let fused = 0;
  for (const clip of [...ir.nodes]) {
    if (clip.op !== 'Clip' || clip.inputs.length < 1 || clip.outputs.length !== 1) continue;
    const x = clip.inputs[0];
    const xv = ir.get(x);
    if (!xv || xv.kind !== 'node' || xv.dtype !== DT.f32) continue;
    const lo = clipBound(ir, clip.inputs[1]), hi = clipBound(ir, clip.inputs[2]);
    if (lo === undefined || hi === undefined) continue;
    const p = ir.producer(x);
    if (!p || !FUSABLE.has(p.op) || p.outputs.length !== 1 || p.attrs.holo_activation) continue;
    if ((ir.uses().get(x) ?? 0) !== 1 || ir.outputs.includes(x)) continue;
    ir.absorb(p, clip);
    p.attrs = {
      ...p.attrs,
      holo_activation: A.string('Clip'),
      ...(lo !== null ? { holo_clip_min: A.float(lo) } : {}),
      ...(hi !== null ? { holo_clip_max: A.float(hi) } : {}),
    };
    fused++;
  }
  if (fused) ir.log.push(`fuse-clip: ${fused} Clip folded into ${fused === 1 ? 'its producer' : 'their producers'}`);
  return fused;
}
