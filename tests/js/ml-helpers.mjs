// Shared by tests/js/convert-ml*.test.mjs: one-node / small ai.onnx.ml
// models from the builder, run in hologram (after convert) and in
// onnxruntime-node, outputs compared: integer outputs (labels) exactly,
// float outputs within TOL * max|ref|.
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder } from './onnx-build.mjs';

const { onnx } = onnxProto;
ort.env.logLevel = 'error';
export const rt = await init();
export const TOL = 1e-5;
export const ML = 'ai.onnx.ml';

/** The builder's bytes with the nodes of `ops` (all when null) in ai.onnx.ml (opset `mlv`). */
export function mlBytes(b, ops = null, mlv = 3) {
  const m = onnx.ModelProto.decode(b.bytes());
  for (const n of m.graph.node) if (ops === null ? !n.domain && !STD.has(n.opType) : ops.includes(n.opType)) n.domain = ML;
  m.opsetImport.push({ domain: ML, version: mlv });
  return onnx.ModelProto.encode(m).finish();
}
// standard ops the pipeline tests mix in (kept in the default domain)
const STD = new Set(['Cast', 'Identity', 'Add', 'Mul', 'Concat', 'Reshape', 'Relu', 'Sub']);

/** A model built by `build(b)` at opset `opset`, every non-standard node in ai.onnx.ml. */
export function mlModel(build, { opset = 17, mlv = 3 } = {}) {
  const b = new OnnxBuilder(opset);
  build(b);
  return mlBytes(b, null, mlv);
}

const ORT_TYPE = { 1: 'float32', 7: 'int64', 6: 'int32', 11: 'float64' };
const ARR = { 1: Float32Array, 7: BigInt64Array, 6: Int32Array, 11: Float64Array };

/** A feed: { name: [dtype, dims, values] }. */
function ortFeeds(feeds) {
  const r = {};
  for (const [k, [dt, dims, vals]] of Object.entries(feeds)) {
    const data = dt === 7 ? BigInt64Array.from(vals, (v) => BigInt(v)) : ARR[dt].from(vals);
    r[k] = new ort.Tensor(ORT_TYPE[dt], data, dims);
  }
  return r;
}

const holoFeeds = (feeds) => Object.fromEntries(Object.entries(feeds).map(([k, [dt, dims, vals]]) =>
  [k, { data: dt === 7 ? BigInt64Array.from(vals, (v) => BigInt(v)) : ARR[dt].from(vals), shape: dims }]));

/** onnxruntime's outputs for `bytes` on `feeds`. */
export async function ortRun(bytes, feeds) {
  return (await ort.InferenceSession.create(bytes)).run(ortFeeds(feeds));
}

/** Compares hologram's outputs `outs` with onnxruntime's on `feeds`; returns the worst float error ratio. */
export async function agree(what, bytes, feeds, outs, { tol = TOL, want: given } = {}) {
  const want = given ?? (await ortRun(bytes, feeds));
  const h = rt.load(convert(bytes).holo);
  let worstAll = 0;
  try {
    const got = h.run(holoFeeds(feeds));
    for (const o of outs) {
      const g = got[o], w = want[o];
      assert.ok(g, `${what}: output ${o} missing`);
      assert.equal([...g.shape].map(Number), [...w.dims].map(Number), `${what}: ${o} shape`);
      const gd = [...g.data].map(Number), wd = [...w.data].map(Number);
      if (w.type === 'int64' || w.type === 'int32' || w.type === 'bool') {
        const bad = wd.findIndex((v, i) => v !== gd[i]);
        assert.ok(bad < 0, `${what}: ${o}[${bad}] = ${gd[bad]}, onnxruntime ${wd[bad]}`);
        continue;
      }
      const max = Math.max(1e-30, ...wd.filter(Number.isFinite).map(Math.abs));
      let worst = 0, at = -1;
      wd.forEach((v, i) => {
        const d = (Number.isNaN(v) && Number.isNaN(gd[i])) || v === gd[i] ? 0 : Math.abs(gd[i] - v);
        if (!(d <= worst)) { worst = d; at = i; }
      });
      assert.ok(worst / max <= tol, `${what}: ${o} max |diff| / max |ref| = ${worst / max} at ${at} (${gd[at]} vs ${wd[at]})`);
      worstAll = Math.max(worstAll, worst / max);
    }
  } finally {
    h.dispose();
  }
  return worstAll;
}

export const refuses = (what, bytes, re) => assert.throws(() => convert(bytes), re, what);

let seed = 987654321;
/** Uniform in [lo, hi). */
export const uni = (lo = -1, hi = 1) => lo + ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32) * (hi - lo);
export const randn = (n, lo = -1, hi = 1) => Array.from({ length: n }, () => uni(lo, hi));
export const randint = (n) => Math.floor(uni(0, n));
