// The int8 row of `make bench-gemm`: MatMulInteger at M=N=K (512 by
// default; A u8 fed fresh every run with a scalar zero point, B a constant
// i8 weight with a scalar zero point, as a dynamically quantized MatMul has
// them) against the f32 MatMul of the same shape (B constant), both through
// a hologram session (1 thread, simd128 build), and onnxruntime-web's wasm
// EP (1 thread, SIMD) on the very same two .onnx graphs in the same run.
// Prints one JSON line with medians and multiply-adds per second
// (GOPS = 2*M*N*K / median time: execute() as a caller sees it, input copy
// and label included, as gemm-peak.mjs counts it).
//   node bench/gemm-int8.mjs [--n 512] [--runs 40]
import { init } from '../bindings-js/index.js';
import { convert } from '../compiler/convert.js';
import { OnnxBuilder, FLOAT, INT32 } from '../tests/js/onnx-build.mjs';

const U8 = 2, I8 = 3;
const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); return i < 0 ? d : Number(args[i + 1]); };
const n = opt('--n', 512), runs = opt('--runs', 40);
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
let rs = 0x9e3779b9;
const rnd = () => ((rs ^= rs << 13), (rs ^= rs >>> 17), (rs ^= rs << 5), rs >>> 0);

function models() {
  const wi = Int8Array.from({ length: n * n }, () => (rnd() >>> 24) - 128);
  const qi = new OnnxBuilder(13).input('a', U8, [n, n]).init('za', U8, [], [131]).init('b', I8, [n, n], wi).init('zb', I8, [], [-3]);
  qi.node('MatMulInteger', ['a', 'b', 'za', 'zb'], ['y']).output('y', INT32, [n, n]);
  const wf = Float32Array.from(wi, (v) => v / 128);
  const f = new OnnxBuilder(13).input('a', FLOAT, [n, n]).init('b', FLOAT, [n, n], wf);
  f.node('MatMul', ['a', 'b'], ['y']).output('y', FLOAT, [n, n]);
  return { int8: qi.bytes(), f32: f.bytes() };
}
const feed = { int8: () => Uint8Array.from({ length: n * n }, () => rnd() >>> 24), f32: () => Float32Array.from({ length: n * n }, () => rnd() / 2 ** 31 - 1) };

async function hologram(bytes, kind) {
  const rt = await init(undefined, { variant: 'simd128' });
  const s = rt.load(convert(bytes).holo);
  const t = [];
  for (let i = 0; i < runs + 3; i++) {
    const x = feed[kind]();
    const a = performance.now(); s.execute([{ data: x, shape: [n, n] }]); t.push(performance.now() - a);
  }
  s.dispose();
  return median(t.slice(3));
}

async function ortWeb(bytes, kind) {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  const sess = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
  const t = [];
  for (let i = 0; i < runs + 3; i++) {
    const x = new ort.Tensor(kind === 'int8' ? 'uint8' : 'float32', feed[kind](), [n, n]);
    const a = performance.now(); await sess.run({ a: x }); t.push(performance.now() - a);
  }
  return median(t.slice(3));
}

const m = models(), ops = 2 * n * n * n, gops = (ms) => +(ops / (ms / 1e3) / 1e9).toFixed(2);
const row = { M: n, N: n, K: n, runs };
for (const kind of ['int8', 'f32']) {
  const h = await hologram(m[kind], kind), o = await ortWeb(m[kind], kind);
  Object.assign(row, { [`holo_${kind}_ms`]: +h.toFixed(3), [`holo_${kind}_gops`]: gops(h), [`ortweb_${kind}_ms`]: +o.toFixed(3), [`ortweb_${kind}_gops`]: gops(o) });
}
row.holo_int8_over_f32 = +(row.holo_int8_gops / row.holo_f32_gops).toFixed(2);
row.holo_int8_over_ortweb_int8 = +(row.holo_int8_gops / row.ortweb_int8_gops).toFixed(2);
console.log(JSON.stringify(row));
console.log(`int8_gemm_speedup_vs_f32=${row.holo_int8_over_f32}`);
process.exit(0);
