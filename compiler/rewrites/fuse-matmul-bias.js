// Rewrite: Add(MatMul(A, B), bias) -> MatMul(A, B, bias)   (docs/kernels.md)
//
// The fused MatMul adds `bias` in the GEMM epilogue after the ascending-k sum,
// exactly as the separate Add would, so the bytes are those of the unfused
// pair. Applied only when all of these hold (otherwise the graph is left as is):
// - the MatMul output (f32) feeds only this Add and is not a graph output;
// - the MatMul's B has rank >= 2 (its output's last dim is N) and it has no
//   bias or fused activation yet;
// - the MatMul output is either operand of the Add: v + bias and bias + v are
//   the same IEEE sum (addition commutes); only which NaN payload survives
//   when both are NaN could differ, and wasm leaves NaN payloads
//   nondeterministic anyway (docs/kernels.md). torch exports Linear layers
//   of a 3-D input as Add(bias, MatMul), so this order is the common one;
// - bias is an f32 constant broadcast along the last dim only: every dim 1
//   except the last, which is 1 or N, rank <= the output rank (so the Add
//   output has the MatMul output's shape); when the converter could not infer
//   the output's shape, N is B's last dim and the bias must have rank <= 1. A bias of rank > 2 is reshaped
//   (bytes unchanged) to [N] / [1] for the kernel's [N] | [1,N] | [1] form.
import { DT } from '../ir.js';

export function biasForm(ir, name, out, N) {
  const b = ir.get(name);
  if (!b || b.kind !== 'const' || b.dtype !== DT.f32 || !Array.isArray(b.shape)) return null;
  // an output of unknown shape (N from a 2-D constant B) has rank >= 1: a bias
  // of rank <= 1 can never grow it
  if (out ? b.shape.length > out.length : b.shape.length > 1) return null;
  const s = b.shape, last = s.length ? s[s.length - 1] : 1;
  if (!s.slice(0, -1).every((d) => d === 1) || !(last === 1 || last === N)) return null;
  if (s.length <= 2) return name;
  return ir.addConst(`${name}_row`, DT.f32, [last], b.bytes);
}

export function fuseMatMulBias(ir) {
  let fused = 0;
  for (const add of [...ir.nodes]) {
    if (add.op !== 'Add' || add.inputs.length !== 2 || add.outputs.length !== 1) continue;
    const isMM = (v) => ir.get(v)?.kind === 'node' && ir.producer(v)?.op === 'MatMul';
    const [x, b] = isMM(add.inputs[0]) || !isMM(add.inputs[1]) ? add.inputs : [add.inputs[1], add.inputs[0]];
    const xv = ir.get(x);
    if (!xv || xv.kind !== 'node' || xv.dtype !== DT.f32) continue;
    const mm = ir.producer(x);
    if (!mm || mm.op !== 'MatMul' || mm.outputs.length !== 1 || mm.attrs.holo_activation) continue;
    if (mm.inputs.length > 2 && mm.inputs[2]) continue;
    const Bv = ir.get(mm.inputs[1]);
    if (!Bv || !Array.isArray(Bv.shape) || Bv.shape.length < 2) continue;
    // the output's last dim: from its shape, or (shape not inferred) from B's
    const N = Array.isArray(xv.shape) ? xv.shape[xv.shape.length - 1] : Bv.shape[Bv.shape.length - 1];
    if (typeof N !== 'number') continue;
    if ((ir.uses().get(x) ?? 0) !== 1 || ir.outputs.includes(x)) continue;
    const yv = ir.get(add.outputs[0]);
    if (!yv || yv.dtype !== DT.f32) continue;
    const bias = biasForm(ir, b, xv.shape, N);
    if (!bias) continue;
    mm.inputs = [mm.inputs[0], mm.inputs[1], bias];
    ir.absorb(mm, add);
    fused++;
  }
  if (fused) ir.log.push(`fuse-matmul-bias: ${fused} Add folded into MatMul`);
  return fused;
}
