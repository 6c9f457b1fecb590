// Rewrite: Mul(MatMul(A, B), s) -> MatMul(A, B; holo_alpha = s)   (docs/kernels.md)
//
// The GEMM epilogue's first step is v = alpha * v on the finished
// ascending-k sum, the one multiply the separate Mul would do on the same
// value: the bytes of the pair, one node, one pass and one intermediate
// fewer. Multiplication commutes (s * v and v * s are one IEEE product),
// so the Mul's operand order does not matter, but for which NaN payload a
// product of two NaNs keeps: s must not be NaN (then a NaN v comes out as
// v's own NaN in either order). An attention
// block's scaled q k^T is the case (transformer exports: MatMul, then Mul
// or Div by sqrt(d) folded to a Mul). Applied only when:
// - the MatMul output (f32) feeds only this Mul and is not a graph output;
// - the MatMul has no bias, fused activation or alpha yet (runs before
//   fuse-matmul-bias: Mul then Add is the epilogue's own order, alpha * v
//   + bias, so a later bias or Relu still fuses after it);
// - s is a one-element f32 constant, not NaN, whose rank does not exceed the
//   MatMul output's (rank 0 when that is not known): the Mul output then
//   has the MatMul output's shape.
import { DT, A, readElems } from '../ir.js';

function scalarOf(ir, name, outRank) {
  const v = ir.get(name);
  if (!v || v.kind !== 'const' || v.dtype !== DT.f32 || !Array.isArray(v.shape)) return undefined;
  if (v.shape.some((d) => d !== 1) || v.shape.length > (outRank ?? 0)) return undefined;
  return readElems(DT.f32, v.bytes)[0];
}

export function fuseMatMulScale(ir) {
  let fused = 0;
  for (const mul of [...ir.nodes]) {
    if (mul.op !== 'Mul' || mul.inputs.length !== 2 || mul.outputs.length !== 1) continue;
    const isMM = (v) => ir.get(v)?.kind === 'node' && ir.producer(v)?.op === 'MatMul';
    const [x, s] = isMM(mul.inputs[0]) ? mul.inputs : [mul.inputs[1], mul.inputs[0]];
    if (!isMM(x)) continue;
    const xv = ir.get(x), mm = ir.producer(x);
    if (xv.dtype !== DT.f32 || mm.outputs.length !== 1) continue;
    if ((mm.inputs.length > 2 && mm.inputs[2]) || mm.attrs.holo_activation || mm.attrs.holo_alpha) continue;
    if ((ir.uses().get(x) ?? 0) !== 1 || ir.outputs.includes(x)) continue;
    const yv = ir.get(mul.outputs[0]);
    if (!yv || yv.dtype !== DT.f32) continue;
    const alpha = scalarOf(ir, s, Array.isArray(xv.shape) ? xv.shape.length : null);
    if (alpha === undefined || Number.isNaN(alpha)) continue;
    ir.absorb(mm, mul);
    mm.attrs = { ...mm.attrs, holo_alpha: A.float(alpha) };
    fused++;
  }
  if (fused) ir.log.push(`fuse-matmul-scale: ${fused} Mul by a scalar folded into ${fused === 1 ? 'its MatMul' : 'their MatMuls'}`);
  return fused;
}
