// Model classes where hologram was slower than onnxruntime-web (issue 40
// items 4 and 5), as synthetic ONNX graphs built with the converter tests'
// builder (tests/js/onnx-build.mjs):
//   attn16_f16     float16 q, k, v [1,16,64]: Cast to f32, MatMul q k^T, scale,
//                  Softmax, MatMul v, Cast back to f16;
//   attn16_f16w    float16 x [1,16,64] and f16 weights: three f16 MatMuls to q,
//                  k, v, f16 q k^T and scale, Cast to f32 around the Softmax,
//                  f16 MatMul v (the fp16 exporters' pattern);
//   attn16_f32     attn16_f16w's graph in float32 (the speed f16 should reach);
//   speech16       a thin speech-embedding CNN: batch 16 of 1x76x32, Conv 3x3 with
//                  8/16/32 channels + Relu + MaxPool, 1x1 convs, GlobalAveragePool;
//   crnn_front     a text-recognition CNN front on 3x48x320: Conv 3x3 16-64
//                  channels + Relu, MaxPools;
//   textdir        a small text-direction classifier (3x48x192, strided 3x3 convs,
//                  GlobalAveragePool, Gemm to 2);
//   stft1d         a mel-spectrogram front: Conv1D [256,1,400] stride 160 over a
//                  1x1x16000 signal, power, Transpose, MatMul with a [256,64] mel
//                  matrix, Log;
//   stft2d         the same Conv in 2-D form: [256,1,1,400] over 1x1x1x16000.
// Each is converted with the converter and raced against onnxruntime-web
// (wasm EP, numThreads 1, simd) in ONE Node process, alternating run by run,
// a fresh random input each run (the same to both; hologram's counters must
// show it computed everything: bench/zoo/computed.mjs), medians. The outputs
// of the first runs must agree (max |diff| <= tol x max |ORT-web|).
//
//   node bench/classes.mjs [case ...] [--ms 3000] [--core build/wasm/core-simd128.wasm]
// --core races a raw core build instead of the packaged one (its function
// names survive, for node --cpu-prof). Ends with `classes_ratio_max=R`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import onnxProto from 'onnx-proto';
import { init } from '../bindings-js/index.js';
import { convert } from '../compiler/convert.js';
import { computedChecker, hasControlFlow } from './zoo/computed.mjs';
import { OnnxBuilder, FLOAT, FLOAT16 } from '../tests/js/onnx-build.mjs';

const { onnx } = onnxProto;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const OUT = path.join(ROOT, 'build/bench-classes');

// ---- f16 bits ----
const f32b = new Float32Array(1), u32b = new Uint32Array(f32b.buffer);
function toHalf(v) {
  f32b[0] = v;
  const u = u32b[0], s = (u >>> 16) & 0x8000, a = u & 0x7fffffff;
  if (a >= 0x477ff000) return s | 0x7c00;
  if (a >= 0x38800000) return s | (((a + 0xfff + ((a >>> 13) & 1)) >>> 13) - 0x1c000);
  return s | Math.round(Math.abs(f32b[0]) * 2 ** 24); // subnormal (ties away: none in these inputs)
}
function fromHalf(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >>> 10) & 31, m = h & 1023;
  if (e === 31) return m ? NaN : s * Infinity;
  return e ? s * 2 ** (e - 15) * (1 + m / 1024) : s * m * 2 ** -24;
}

let seed = 11;
const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
const randf = (n, s) => Float32Array.from({ length: n }, () => rnd() * s);

function rawInit(b, name, dims, data, dt = FLOAT) {
  const bytes = dt === FLOAT16 ? new Uint8Array(Uint16Array.from(data, toHalf).buffer) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  b.inits.push(onnx.TensorProto.create({ name, dataType: dt, dims, rawData: bytes }));
}

/** conv + optional relu; returns the output name. */
function conv(b, x, name, cin, cout, k, { stride = 1, pad = (k - 1) >> 1, relu = true } = {}) {
  rawInit(b, `${name}.w`, [cout, cin, k, k], randf(cout * cin * k * k, Math.sqrt(3 / (cin * k * k))));
  rawInit(b, `${name}.b`, [cout], randf(cout, 0.1));
  b.node('Conv', [x, `${name}.w`, `${name}.b`], [`${name}.c`], { kernel_shape: [k, k], strides: [stride, stride], pads: [pad, pad, pad, pad] });
  if (!relu) return `${name}.c`;
  b.node('Relu', [`${name}.c`], [`${name}.r`]);
  return `${name}.r`;
}
const pool = (b, x, name, k = [2, 2]) => (b.node('MaxPool', [x], [name], { kernel_shape: k, strides: k }), name);

const CASES = {
  attn16_f16: {
    inputs: { q: [FLOAT16, [1, 16, 64]], k: [FLOAT16, [1, 16, 64]], v: [FLOAT16, [1, 16, 64]] }, out: [FLOAT16, [1, 16, 64]], tol: 2e-3,
    build(b) {
      for (const n of ['q', 'k', 'v']) b.node('Cast', [n], [`${n}32`], { to: FLOAT });
      b.init('scale', FLOAT, [], [0.125]);
      b.node('Transpose', ['k32'], ['kt'], { perm: [0, 2, 1] });
      b.node('MatMul', ['q32', 'kt'], ['s']).node('Mul', ['s', 'scale'], ['ss']).node('Softmax', ['ss'], ['p'], { axis: -1 });
      b.node('MatMul', ['p', 'v32'], ['o']).node('Cast', ['o'], ['y'], { to: FLOAT16 });
    },
  },
  attn16_f16w: { inputs: { x: [FLOAT16, [1, 16, 64]] }, out: [FLOAT16, [1, 16, 64]], tol: 1e-2, build: (b) => attnW(b, FLOAT16) },
  attn16_f32: { inputs: { x: [FLOAT, [1, 16, 64]] }, out: [FLOAT, [1, 16, 64]], tol: 1e-4, build: (b) => attnW(b, FLOAT) },
  speech16: {
    inputs: { x: [FLOAT, [16, 1, 76, 32]] }, out: [FLOAT, [16, 32]], tol: 1e-4,
    build(b) {
      let h = pool(b, conv(b, 'x', 'c1', 1, 8, 3), 'p1'); // 8x38x16
      h = pool(b, conv(b, h, 'c2', 8, 16, 3), 'p2'); // 16x19x8
      h = conv(b, h, 'c3', 16, 32, 1);
      h = conv(b, h, 'c4', 32, 32, 3);
      h = conv(b, h, 'c5', 32, 16, 1);
      h = conv(b, h, 'c6', 16, 32, 3);
      b.node('GlobalAveragePool', [h], ['g']).node('Flatten', ['g'], ['y']);
    },
  },
  crnn_front: {
    inputs: { x: [FLOAT, [1, 3, 48, 320]] }, out: [FLOAT, [1, 64, 6, 80]], tol: 1e-4,
    build(b) {
      let h = pool(b, conv(b, 'x', 'c1', 3, 16, 3), 'p1'); // 24x160
      h = pool(b, conv(b, h, 'c2', 16, 32, 3), 'p2'); // 12x80
      h = conv(b, h, 'c3', 32, 64, 3);
      h = conv(b, h, 'c4', 64, 64, 3);
      pool(b, h, 'y', [2, 1]); // 6x80
    },
  },
  textdir: {
    inputs: { x: [FLOAT, [1, 3, 48, 192]] }, out: [FLOAT, [1, 2]], tol: 1e-4,
    build(b) {
      let h = conv(b, 'x', 'c1', 3, 8, 3, { stride: 2 }); // 24x96
      h = conv(b, h, 'c2', 8, 8, 3);
      h = conv(b, h, 'c3', 8, 16, 3, { stride: 2 }); // 12x48
      h = conv(b, h, 'c4', 16, 16, 3);
      h = conv(b, h, 'c5', 16, 32, 3, { stride: 2 }); // 6x24
      h = conv(b, h, 'c6', 32, 32, 1);
      b.node('GlobalAveragePool', [h], ['g']).node('Flatten', ['g'], ['f']);
      rawInit(b, 'fw', [2, 32], randf(64, 0.3));
      rawInit(b, 'fb', [2], randf(2, 0.1));
      b.node('Gemm', ['f', 'fw', 'fb'], ['y'], { transB: 1 });
    },
  },
  stft1d: { inputs: { x: [FLOAT, [1, 1, 16000]] }, out: [FLOAT, [1, 98, 64]], tol: 1e-4, build: (b) => stft(b, 1) },
  stft2d: { inputs: { x: [FLOAT, [1, 1, 1, 16000]] }, out: [FLOAT, [1, 98, 64]], tol: 1e-4, build: (b) => stft(b, 2) },
};

function attnW(b, dt) {
  for (const n of ['q', 'k', 'v']) {
    rawInit(b, `w${n}`, [64, 64], randf(64 * 64, 0.125), dt);
    b.node('MatMul', ['x', `w${n}`], [n]);
  }
  if (dt === FLOAT16) b.init('scale', FLOAT16, [], [toHalf(0.125)]);
  else b.init('scale', FLOAT, [], [0.125]);
  b.node('Transpose', ['k'], ['kt'], { perm: [0, 2, 1] });
  b.node('MatMul', ['q', 'kt'], ['s']).node('Mul', ['s', 'scale'], ['ss']);
  if (dt === FLOAT16) b.node('Cast', ['ss'], ['s32'], { to: FLOAT }).node('Softmax', ['s32'], ['p32'], { axis: -1 }).node('Cast', ['p32'], ['p'], { to: FLOAT16 });
  else b.node('Softmax', ['ss'], ['p'], { axis: -1 });
  b.node('MatMul', ['p', 'v'], ['y']);
}

function stft(b, dims) {
  const C = 256, K = 400;
  rawInit(b, 'w', dims === 1 ? [C, 1, K] : [C, 1, 1, K], randf(C * K, 0.05));
  b.node('Conv', ['x', 'w'], ['c'], dims === 1 ? { kernel_shape: [K], strides: [160] } : { kernel_shape: [1, K], strides: [1, 160] });
  let c = 'c';
  if (dims === 2) { b.init('sq', 7, [1], [2]); b.node('Squeeze', ['c', 'sq'], ['c1']); c = 'c1'; }
  b.node('Mul', [c, c], ['pw']).node('Transpose', ['pw'], ['pt'], { perm: [0, 2, 1] });
  rawInit(b, 'mel', [C, 64], Float32Array.from(randf(C * 64, 1), Math.abs));
  b.init('eps', FLOAT, [], [1e-6]);
  b.node('MatMul', ['pt', 'mel'], ['m']).node('Add', ['m', 'eps'], ['me']).node('Log', ['me'], ['y']);
}

export function build(name) {
  seed = 11;
  const c = CASES[name];
  const b = new OnnxBuilder(13);
  for (const [n, [dt, shape]] of Object.entries(c.inputs)) b.input(n, dt, shape);
  c.build(b);
  b.output('y', ...c.out);
  return b.bytes();
}

// ---- the race ----
const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) await main();

async function main() {
  const args = process.argv.slice(2);
  const opt = (k, d) => { const i = args.indexOf(k); if (i < 0) return d; const v = args[i + 1]; args.splice(i, 2); return v; };
  const budgetMs = Number(opt('--ms', '3000'));
  const core = opt('--core', null);
  const names = Object.keys(CASES).filter((n) => !args.length || args.includes(n));
  if (!names.length) { console.error(`no case named ${args.join(' ')} (cases: ${Object.keys(CASES).join(' ')})`); process.exit(1); }

  let rs = 0x9e3779b9 ^ (Date.now() >>> 0);
  const randIn = (dt, n) => {
    const d = dt === FLOAT16 ? new Uint16Array(n) : new Float32Array(n);
    for (let i = 0; i < n; i++) { rs ^= rs << 13; rs ^= rs >>> 17; rs ^= rs << 5; const v = (rs >>> 0) / 2 ** 31 - 1; d[i] = dt === FLOAT16 ? toHalf(v) : v; }
    return d;
  };
  const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  ort.env.logLevel = 'error';
  const rt = await init(core ? fs.readFileSync(path.resolve(core)) : undefined, { variant: 'simd128' });
  fs.mkdirSync(OUT, { recursive: true });

  const rows = [];
  for (const name of names) {
    const c = CASES[name];
    const bytes = build(name);
    const { holo } = convert(bytes);
    fs.writeFileSync(path.join(OUT, `${name}.onnx`), bytes);
    fs.writeFileSync(path.join(OUT, `${name}.holo`), holo);
    const s = rt.load(holo, { retainBytes: 4 << 20 });
    const web = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
    const ins = Object.entries(c.inputs);
    const feeds = () => Object.fromEntries(ins.map(([n, [dt, shape]]) => [n, { dt, shape, data: randIn(dt, shape.reduce((a, x) => a * x, 1)) }]));
    const order = s.inputs.map((p) => p.name);
    const check = computedChecker({ kernelCount: s.kernelCount, controlFlow: hasControlFlow(holo) });
    const asF = (d) => (d instanceof Uint16Array ? Float32Array.from(d, fromHalf) : d);
    let bad = null, maxdiff = 0, maxref = 0;
    const holoRun = (f) => {
      const c0 = s.counters, a = performance.now();
      const out = s.execute(order.map((k) => ({ data: f[k].data, shape: f[k].shape })));
      const t = performance.now() - a;
      bad ??= check(c0, s.counters);
      return { t, out: out[0].data };
    };
    const webRun = async (f) => {
      const fe = Object.fromEntries(Object.entries(f).map(([k, v]) => [k, new ort.Tensor(v.dt === FLOAT16 ? 'float16' : 'float32', v.data, v.shape)]));
      const a = performance.now(); const o = await web.run(fe);
      return { t: performance.now() - a, out: o[web.outputNames[0]].data };
    };
    for (let i = 0, w0 = performance.now(); i < 5 || performance.now() - w0 < budgetMs / 5; i++) { const f = feeds(); holoRun(f); await webRun(f); }
    const th = [], tw = [];
    const end = performance.now() + budgetMs;
    while ((performance.now() < end || th.length < 15) && th.length < 20000) {
      const f = feeds();
      // alternate which engine goes first
      let h, w;
      if (th.length & 1) { w = await webRun(f); h = holoRun(f); } else { h = holoRun(f); w = await webRun(f); }
      th.push(h.t); tw.push(w.t);
      if (th.length <= 3) {
        const ho = asF(h.out), wo = asF(w.out);
        for (let i = 0; i < wo.length; i++) { maxdiff = Math.max(maxdiff, Math.abs(wo[i] - ho[i])); maxref = Math.max(maxref, Math.abs(wo[i])); }
      }
      if (bad) break;
    }
    if (bad) { console.error(`${name}: ${bad}`); process.exit(1); }
    if (!(maxdiff <= c.tol * maxref)) { console.error(`${name}: hologram and ORT-web disagree by ${maxdiff} (max |ref| ${maxref})`); process.exit(1); }
    const row = { case: name, kernels: s.kernelCount, holo_ms: +median(th).toFixed(4), ort_web_ms: +median(tw).toFixed(4), ratio: +(median(th) / median(tw)).toFixed(2), runs: th.length, rel_diff: +(maxdiff / maxref).toExponential(2) };
    rows.push(row);
    console.log(JSON.stringify(row));
    s.dispose();
    await web.release();
  }
  console.log('\n| case | kernels | hologram ms | ORT-web ms | hologram/ORT-web | runs | max diff / max ref |');
  console.log('|---|--:|--:|--:|--:|--:|--:|');
  for (const r of rows) console.log(`| ${r.case} | ${r.kernels} | ${r.holo_ms.toFixed(4)} | ${r.ort_web_ms.toFixed(4)} | ${r.ratio.toFixed(2)} | ${r.runs} | ${r.rel_diff} |`);
  const worst = rows.reduce((a, r) => (r.ratio > a.ratio ? r : a), rows[0]);
  console.log(`\nworst case: ${worst.case}`);
  console.log(`classes_ratio_max=${worst.ratio.toFixed(2)}`);
  process.exit(0);
}
