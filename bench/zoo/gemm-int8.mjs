// issue 21 item 2: node bench/zoo/gemm-int8.mjs (docs/benchmarks.md, "Static QDQ on the integer core")
// f32 MatMul vs QLinearMatMul (u8 x u8, constant B), same process, alternating, fresh A each run
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT } from '../../tests/js/onnx-build.mjs';
const U8 = 2;
const rt = await init(undefined, { variant: 'simd128' });
for (const [M, K, N] of [[256, 512, 512], [64, 1024, 1024], [1, 1024, 1024]]) {
  const fb = new OnnxBuilder(13); fb.input('a', FLOAT, [M, K]).init('b', FLOAT, [K, N], Array.from({ length: K * N }, (_, i) => ((i * 7919) % 255 - 127) / 1000));
  fb.node('MatMul', ['a', 'b'], ['y']).output('y', FLOAT, null);
  const qb = new OnnxBuilder(13); qb.input('a', U8, [M, K]).init('b', U8, [K, N], Array.from({ length: K * N }, (_, i) => (i * 7919) % 255));
  qb.init('as', FLOAT, [], [0.02]).init('az', U8, [], [3]).init('bs', FLOAT, [], [0.01]).init('bz', U8, [], [128]).init('ys', FLOAT, [], [0.5]).init('yz', U8, [], [7]);
  qb.node('QLinearMatMul', ['a', 'as', 'az', 'b', 'bs', 'bz', 'ys', 'yz'], ['y']).output('y', U8, null);
  const sf = rt.load(convert(fb.bytes()).holo), sq = rt.load(convert(qb.bytes()).holo);
  const af = new Float32Array(M * K), aq = new Uint8Array(M * K);
  const T = [[], []], R = [];
  for (let r = 0; r < 31; r++) {
    for (let i = 0; i < M * K; i += 13) { af[i] = Math.random(); aq[i] = (Math.random() * 255) | 0; }
    const t = [0, 0];
    for (const j of r % 2 ? [0, 1] : [1, 0]) { const a = performance.now(); (j ? sq : sf).run({ a: { data: j ? aq : af, shape: [M, K] } }); t[j] = performance.now() - a; }
    if (r >= 5) { T[0].push(t[0]); T[1].push(t[1]); R.push(t[0] / t[1]); }
  }
  const med = (a) => [...a].sort((p, q) => p - q)[a.length >> 1];
  console.log(`[${M},${K}]x[${K},${N}]  f32 ${med(T[0]).toFixed(2)} ms  int8 ${med(T[1]).toFixed(2)} ms  speedup (median of per-round f32/int8) ${med(R).toFixed(2)}x`);
  sf.dispose(); sq.dispose();
}
