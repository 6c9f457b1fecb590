// Rewrite: a MatMul/Gemm whose B is a 2-D f32 constant ->
//   Bp = holo.PackB(B; transB, nr)             (constant-only cone: computed
//                                               once at load, pinned; never per call)
//   Y  = holo.MatMulPacked(A, Bp, bias?; n = N, holo_activation?)
// which has the bytes of the original node (docs/kernels.md: same core, same
// ascending-k order, same epilogue; packing is pure data movement).
//
// MatMul(A, B[K,N], bias?)  ->  PackB(B), MatMulPacked(A, Bp, bias?)   (A rank >= 1)
// Gemm(A, B, C?; transA=0, transB, alpha=1, beta=1 or no C)
//                           ->  PackB(B; transB), MatMulPacked(A, Bp, C?)
//   Gemm computes 1*v + 1*C; both multiplications by 1 are exact, so this is
//   v + C, the MatMulPacked epilogue. C must be f32 of shape [N], [1,N], [1],
//   [1,1] or a scalar (a bias broadcast along N); a per-row or full [M,N] C,
//   transA = 1, alpha != 1 or beta != 1 keep the Gemm (still runnable, just
//   packed per call) — never rescaled here.
// One PackB per (constant, transB) even if several nodes share the weight.
import { DT, A, attr } from '../ir.js';

function rowBias(ir, name, N) {
  const c = ir.get(name);
  if (!c || c.dtype !== DT.f32 || !Array.isArray(c.shape) || c.shape.length > 2) return false;
  const s = c.shape, last = s.length ? s[s.length - 1] : 1;
  if (s.length === 2 && s[0] !== 1) return false;
  return last === 1 || last === N;
}

// Gemm's A must be 2-D (MatMulPacked would accept any rank): known from its
// shape, or — where the converter could not infer it — from a Reshape to a
// constant 2-element shape (torch's out-projection after attention).
function rank2(ir, name) {
  const v = ir.get(name);
  if (Array.isArray(v?.shape)) return v.shape.length === 2;
  const p = ir.producer(name);
  if (!p || p.op !== 'Reshape') return false;
  const s = ir.get(p.inputs[1]);
  return !!s && s.kind === 'const' && Array.isArray(s.shape) && s.shape.length === 1 && s.shape[0] === 2;
}

// Panel width: 32-column panels when A is statically known to have fewer
// rows than the core's 4-row tile (a batch-1 layer: each row then streams one
// contiguous panel, docs/kernels.md), else the tile's 8. Bytes are the same
// either way; only the memory order of the packed weight differs.
function panelWidth(shape, N) {
  if (!Array.isArray(shape) || N < 32 || !shape.every((d) => typeof d === 'number')) return 8;
  const rows = shape.slice(0, -1).reduce((p, d) => p * d, 1);
  return rows < 4 ? 32 : 8;
}

export function packWeights(ir) {
  let packed = 0;
  const packs = new Map(); // `${B}\0${transB}` -> Bp name
  const packOf = (B, transB, K, N, nr, before) => {
    const key = `${B}\0${transB}\0${nr}`;
    if (packs.has(key)) return packs.get(key);
    const bp = ir.fresh(`${B}_packed`);
    ir.addValue({ name: bp, dtype: DT.f32, shape: [Math.ceil(N / nr), K, nr], kind: 'node' });
    const attrs = { ...(transB ? { transB: A.int(1) } : {}), ...(nr !== 8 ? { nr: A.int(nr) } : {}) };
    ir.nodes.splice(ir.nodes.indexOf(before), 0,
      { op: 'holo.PackB', name: `${bp}/PackB`, inputs: [B], outputs: [bp], attrs });
    packs.set(key, bp);
    return bp;
  };
  for (const n of [...ir.nodes]) {
    if ((n.op !== 'MatMul' && n.op !== 'Gemm') || n.outputs.length !== 1) continue;
    const a = ir.get(n.inputs[0]), b = ir.get(n.inputs[1]), y = ir.get(n.outputs[0]);
    if (!a || !b || !y || a.dtype !== DT.f32 || b.dtype !== DT.f32 || y.dtype !== DT.f32) continue;
    if (b.kind !== 'const' || !Array.isArray(b.shape) || b.shape.length !== 2) continue;
    // MatMul with a 2-D B: A of any rank >= 1 (an unknown rank is fine: both ops refuse a scalar)
    if (Array.isArray(a.shape) ? a.shape.length < 1 : n.op === 'Gemm' && !rank2(ir, n.inputs[0])) continue;
    const act = n.attrs.holo_activation;
    if (act && !(act.type === 'string' && (act.value === 'Relu' || act.value === 'Clip'))) continue;
    let transB = 0, bias = n.inputs[2] || '';
    if (n.op === 'Gemm') {
      if (!rank2(ir, n.inputs[0]) || attr(n, 'transA', 0) !== 0) continue;
      transB = attr(n, 'transB', 0);
      if (transB !== 0 && transB !== 1) continue;
      if (attr(n, 'alpha', 1) !== 1) continue;
      if (bias && attr(n, 'beta', 1) !== 1) continue;
    }
    const [K, N] = transB ? [b.shape[1], b.shape[0]] : b.shape;
    const ka = a.shape ? a.shape[a.shape.length - 1] : K;
    if (typeof ka === 'number' && ka !== K) continue;
    if (bias && !rowBias(ir, bias, N)) continue;
    const bp = packOf(b.name, transB, K, N, panelWidth(a.shape, N), n);
    n.op = 'holo.MatMulPacked';
    n.inputs = bias ? [n.inputs[0], bp, bias] : [n.inputs[0], bp];
    const { holo_clip_min: cmin, holo_clip_max: cmax } = n.attrs;
    n.attrs = act ? { n: A.int(N), holo_activation: act, ...(cmin ? { holo_clip_min: cmin } : {}), ...(cmax ? { holo_clip_max: cmax } : {}) } : { n: A.int(N) };
    packed++;
  }
  if (packed) ir.log.push(`pack-weights: ${packed} MatMul/Gemm -> holo.MatMulPacked, ${packs.size} holo.PackB (computed at load)`);
  return packed;
}
