// Rewrite: BatchNormalization (inference) with constant parameters
//   y = (x - mean) / sqrt(var + eps) * scale + B  =  x * s + (B - mean * s),  s = scale / sqrt(var + eps)
// 1. folded into the preceding Conv (weights scaled per output channel, bias
//    adjusted) or Gemm (columns of B scaled, C adjusted), when the Conv/Gemm
//    weights are constants and its output feeds only the BatchNormalization;
// 2. otherwise lowered to Mul + Add with per-channel constants shaped
//    [C, 1, ..., 1] (needs the input rank).
// The per-channel factors are computed in float64 and rounded once to float32.
// Anything else (non-constant params, non-f32) is left as a BatchNormalization node.
import { DT, readElems, writeElems, attr, numel, A } from '../ir.js';

function params(ir, n) {
  const vs = n.inputs.slice(1, 5).map((x) => ir.get(x));
  if (vs.length !== 4 || vs.some((v) => !v || v.kind !== 'const' || v.dtype !== DT.f32)) return null;
  const [scale, bias, mean, vari] = vs.map((v) => readElems(v.dtype, v.bytes));
  const C = scale.length;
  if (![bias, mean, vari].every((a) => a.length === C)) return null;
  const eps = attr(n, 'epsilon', 1e-5);
  const s = scale.map((g, c) => g / Math.sqrt(vari[c] + Math.fround(eps)));
  const t = bias.map((b, c) => b - mean[c] * s[c]);
  return { C, s, t };
}

function fuseIntoConv(ir, bn, conv, p) {
  const w = ir.get(conv.inputs[1]);
  if (!w || w.kind !== 'const' || w.dtype !== DT.f32 || w.shape[0] !== p.C) return false;
  const b = conv.inputs[2] ? ir.get(conv.inputs[2]) : null;
  if (b && (b.kind !== 'const' || b.dtype !== DT.f32)) return false;
  const W = readElems(DT.f32, w.bytes);
  const per = W.length / p.C;
  const W2 = W.map((v, i) => v * p.s[Math.floor(i / per)]);
  const B = b ? readElems(DT.f32, b.bytes) : new Array(p.C).fill(0);
  const B2 = B.map((v, c) => v * p.s[c] + p.t[c]);
  conv.inputs = [conv.inputs[0], ir.addConst(`${w.name}_bn`, DT.f32, w.shape, writeElems(DT.f32, W2)), ir.addConst(`${bn.outputs[0]}_bias`, DT.f32, [p.C], writeElems(DT.f32, B2))];
  return true;
}

function fuseIntoGemm(ir, bn, gemm, p) {
  const w = ir.get(gemm.inputs[1]);
  if (!w || w.kind !== 'const' || w.dtype !== DT.f32 || w.shape.length !== 2) return false;
  const transB = attr(gemm, 'transB', 0), alpha = attr(gemm, 'alpha', 1), beta = attr(gemm, 'beta', 1);
  const [K, N] = transB ? [w.shape[1], w.shape[0]] : w.shape;
  if (N !== p.C) return false;
  const c = gemm.inputs[2] ? ir.get(gemm.inputs[2]) : null;
  if (c && (c.kind !== 'const' || c.dtype !== DT.f32)) return false;
  const W = readElems(DT.f32, w.bytes);
  const W2 = W.map((v, i) => v * p.s[transB ? Math.floor(i / K) : i % N]);
  // C' = (beta*C - mean) * s + B over the broadcast of C to [.., N]; the new beta is 1
  let cshape = c ? c.shape : [N];
  let C = c ? readElems(DT.f32, c.bytes) : new Array(N).fill(0);
  if (cshape.length === 0 || (cshape[cshape.length - 1] === 1 && N !== 1)) {
    // broadcast a scalar / [M,1] C along N
    const rows = cshape.length === 2 ? cshape[0] : 1;
    C = Array.from({ length: rows * N }, (_, i) => C[Math.floor(i / N)]);
    cshape = cshape.length === 2 ? [rows, N] : [N];
  }
  const C2 = C.map((v, i) => (c ? beta * v : 0) * p.s[i % N] + p.t[i % N]);
  gemm.inputs = [gemm.inputs[0], ir.addConst(`${w.name}_bn`, DT.f32, w.shape, writeElems(DT.f32, W2)), ir.addConst(`${bn.outputs[0]}_bias`, DT.f32, cshape, writeElems(DT.f32, C2))];
  gemm.attrs.beta = A.float(1.0);
  gemm.attrs.alpha = A.float(alpha);
  return true;
}

export function fuseBatchNorm(ir) {
  let fused = 0, lowered = 0;
  for (const bn of [...ir.nodes]) {
    if (bn.op !== 'BatchNormalization' || bn.outputs.length !== 1) continue;
    const x = ir.get(bn.inputs[0]);
    if (!x || x.dtype !== DT.f32) continue;
    const p = params(ir, bn);
    if (!p) continue;
    const prod = x.kind === 'node' ? ir.producer(x.name) : null;
    const uses = ir.uses();
    const single = prod && (uses.get(x.name) ?? 0) === 1 && !ir.outputs.includes(x.name);
    if (single && prod.op === 'Conv' && prod.outputs.length === 1 && fuseIntoConv(ir, bn, prod, p)) {
      // the Conv now produces the BatchNormalization's output
      ir.absorb(prod, bn);
      fused++;
      continue;
    }
    if (single && prod.op === 'Gemm' && fuseIntoGemm(ir, bn, prod, p)) {
      ir.absorb(prod, bn);
      fused++;
      continue;
    }
    // lower to Mul + Add with [C, 1, ..., 1] constants
    if (!x.shape || x.shape.length < 2) continue;
    const r = x.shape.length;
    const cshape = [p.C, ...new Array(r - 2).fill(1)];
    const sc = ir.addConst(`${bn.outputs[0]}_scale`, DT.f32, cshape, writeElems(DT.f32, p.s));
    const sh = ir.addConst(`${bn.outputs[0]}_shift`, DT.f32, cshape, writeElems(DT.f32, p.t));
    const mid = ir.fresh(`${bn.outputs[0]}_scaled`);
    ir.addValue({ name: mid, dtype: DT.f32, shape: x.shape, kind: 'node' });
    const at = ir.nodes.indexOf(bn);
    ir.nodes.splice(at, 1,
      { op: 'Mul', name: `${bn.name || bn.outputs[0]}/mul`, inputs: [x.name, sc], outputs: [mid], attrs: {} },
      { op: 'Add', name: `${bn.name || bn.outputs[0]}/add`, inputs: [mid, sh], outputs: [bn.outputs[0]], attrs: {} });
    lowered++;
  }
  if (fused) ir.log.push(`fuse-batchnorm: ${fused} folded into Conv/Gemm`);
  if (lowered) ir.log.push(`fuse-batchnorm: ${lowered} lowered to Mul+Add`);
  return fused + lowered;
}

export { numel };
