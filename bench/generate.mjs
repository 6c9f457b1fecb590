// Generation on the trained char-LM (models/charlm, docs/generation.md), one process:
//   - hologram (session.generator, greedy, token by token) vs onnxruntime-web
//     (wasm EP, 1 thread; KV caches fed back by hand): prefill and decode tokens/s;
//   - prompt cache: a repeated prompt (memo) vs cold prefill, default retain and Infinity;
//   - speculative decoding with draft.onnx (greedy; output asserted identical to
//     target-only greedy): acceptance rate and wall-time speed-up.
//   node bench/generate.mjs [--tokens N] [--k K]      (make bench-generate)
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { load } from '../bindings-js/index.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (n, d) => { const i = argv.indexOf(n); return i >= 0 ? Number(argv[i + 1]) : d; };
const N = opt('--tokens', 64), K = opt('--k', 4);
const enc = (s) => Array.from(Buffer.from(s, 'latin1'));
const dec = (t) => Buffer.from(t).toString('latin1');
const PROMPT = enc('And God said, Let there be light: and there'); // + N + K must stay within MAX_CTX 128
const now = () => performance.now();

function holoFile(name) {
  const out = path.join(ROOT, 'build', `${name}.holo`), src = path.join(ROOT, 'models/charlm', `${name}.onnx`);
  if (!fs.existsSync(out) || fs.statSync(out).mtimeMs < fs.statSync(src).mtimeMs)
    execFileSync(process.execPath, [path.join(ROOT, 'bindings-js/bin/holo.js'), 'convert', src, '-o', out], { stdio: 'inherit' });
  return fs.readFileSync(out);
}
const bytes = { charlm: holoFile('charlm'), draft: holoFile('draft') };
const GREEDY = { sampler: { kind: 'greedy' }, model: { positionInput: 'pos' } };
// a fresh session's first ~35 steps are ~4x slower (its arena and the wasm memory
// grow); warm it with a sequence that shares no step with the measured ones
// (it starts from '\n', the measured prompts from 'A')
const warm = (s) => { const w = s.generator(GREEDY); let t = 10; for (let i = 0; i < 48; i++) { w.feed(t); t = w.sample(); } w.free(); };
const fresh = (name, retain) => load(bytes[name]).then((s) => { if (retain !== undefined) s.retainBytes = retain; return s; });

// hologram: prefill time, then per-token decode times (greedy)
async function holoRun(name, n = N) {
  const s = await fresh(name);
  warm(s);
  const g = s.generator(GREEDY);
  let t0 = now();
  for (const t of PROMPT) g.feed(t);
  const prefill = now() - t0;
  const out = [];
  t0 = now();
  for (let i = 0; i < n; i++) { const t = g.sample(); g.feed(t); out.push(t); }
  const decode = now() - t0;
  g.free(); s.dispose();
  return { prefill, decode, out };
}

// onnxruntime-web, same step graph, same loop
async function ortRun(name, n = N) {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  const sess = await ort.InferenceSession.create(path.join(ROOT, 'models/charlm', `${name}.onnx`), { executionProviders: ['wasm'] });
  const cacheIns = sess.inputNames.filter((x) => x.includes('cache'));
  const meta = JSON.parse(fs.readFileSync(path.join(ROOT, 'models/charlm', name === 'charlm' ? 'reference.json' : `${name}.reference.json`), 'utf8')).config;
  const shape = [1, meta.heads, meta.ctx, meta.d / meta.heads];
  let caches = Object.fromEntries(cacheIns.map((k) => [k, new ort.Tensor('float32', new Float32Array(shape.reduce((a, b) => a * b)), shape)]));
  let pos = 0, logits;
  const step = async (t) => {
    const r = await sess.run({ token: new ort.Tensor('int64', BigInt64Array.of(BigInt(t)), [1, 1]), pos: new ort.Tensor('int64', BigInt64Array.of(BigInt(pos++)), [1]), ...caches });
    caches = Object.fromEntries(cacheIns.map((k) => [k, r[`${k}_out`]]));
    logits = r.logits.data;
  };
  const argmax = () => { let b = 0; const v = logits.length - 256; for (let j = 1; j < 256; j++) if (logits[v + j] > logits[v + b]) b = j; return b; };
  await step(PROMPT[0]); pos = 0; caches = Object.fromEntries(cacheIns.map((k) => [k, new ort.Tensor('float32', new Float32Array(shape.reduce((a, b) => a * b)), shape)])); // warm-up
  let t0 = now();
  for (const t of PROMPT) await step(t);
  const prefill = now() - t0;
  const out = [];
  t0 = now();
  for (let i = 0; i < n; i++) { const t = argmax(); await step(t); out.push(t); }
  const decode = now() - t0;
  await sess.release?.();
  return { prefill, decode, out };
}

// greedy speculative decoding over two generators; the draft is rolled back by a
// fresh generator re-fed with the committed tokens (memo hits).
async function speculative(k, n = N) {
  const T = await fresh('charlm'), D = await fresh('draft');
  warm(T); warm(D);
  const t0 = now();
  const tg = T.generator(GREEDY);
  let dg = D.generator(GREEDY);
  for (const t of PROMPT) { tg.feed(t); dg.feed(t); }
  const out = [];
  let proposed = 0, accepted = 0, rounds = 0, draftSteps = 0, rollbacks = 0;
  while (out.length < n) {
    rounds++;
    const prop = [];
    for (let i = 0; i < k; i++) { const d = dg.sample(); prop.push(d); dg.feed(d); draftSteps++; }
    proposed += k;
    let all = true;
    for (let i = 0; i < k && out.length < n; i++) {
      const t = tg.sample();
      tg.feed(t); out.push(t);
      if (t === prop[i]) accepted++;
      else { all = false; break; }
    }
    if (out.length >= n) break;
    if (all) { const t = tg.sample(); tg.feed(t); dg.feed(t); out.push(t); draftSteps++; }
    else {
      rollbacks++;
      dg.free(); dg = D.generator(GREEDY);
      for (const t of [...PROMPT, ...out]) dg.feed(t);
    }
  }
  const ms = now() - t0;
  tg.free(); dg.free(); T.dispose(); D.dispose();
  return { ms, out: out.slice(0, n), proposed, accepted, rounds, draftSteps, rollbacks };
}

// prompt-cache: cold prefill vs the same prompt again (memo), on one session
async function repeat(retain) {
  const s = await fresh('charlm', retain);
  warm(s);
  const run = () => { const t0 = now(); const r = s.generate(PROMPT, { ...GREEDY, maxTokens: 0 }); return { ms: now() - t0, ...r.stats }; };
  const cold = run(), hot = run();
  s.dispose();
  return { cold, hot };
}

const fmt = (x, d = 1) => x.toFixed(d);
console.log(`charlm (4x128), prompt ${PROMPT.length} bytes, ${N} greedy tokens, node ${process.version}, ${process.arch}`);
await holoRun('charlm'); // warm-up (wasm compile, tier-up)
const h = await holoRun('charlm'), o = await ortRun('charlm');
if (dec(h.out) !== dec(o.out)) console.log(`note: greedy continuations differ:\n  holo ${JSON.stringify(dec(h.out))}\n  ort  ${JSON.stringify(dec(o.out))}`);
const row = (name, r) => console.log(`| ${name.padEnd(22)} | ${fmt(PROMPT.length / r.prefill * 1e3).padStart(8)} | ${fmt(N / r.decode * 1e3).padStart(8)} | ${fmt(r.decode / N, 2).padStart(7)} |`);
console.log('\n| engine                 | prefill tok/s | decode tok/s | ms/token |\n|---|---|---|---|');
row('hologram (simd128)', h); row('onnxruntime-web (1 thr)', o);
console.log(`greedy: ${JSON.stringify(dec(h.out))}`);

const r64 = await repeat(undefined), rInf = await repeat(Infinity);
console.log('\n| prompt again (memo) | cold prefill ms | repeat ms | repeat dispatches | memo hits |\n|---|---|---|---|---|');
for (const [n, r] of [['retain 64 MiB (default)', r64], ['retain Infinity', rInf]])
  console.log(`| ${n} | ${fmt(r.cold.ms)} | ${fmt(r.hot.ms, 2)} | ${r.hot.dispatches} | ${r.hot.memoHits}/${r.hot.steps} |`);

const base = await holoRun('charlm');
const baseMs = base.prefill + base.decode;
console.log('\n| speculative (draft 1x64) | k | acceptance | rounds | draft steps | rollbacks | ms | speed-up vs target-only |\n|---|---|---|---|---|---|---|---|');
let spec;
for (const k of [K === 4 ? 2 : K, 4]) {
  const r = await speculative(k);
  if (dec(r.out) !== dec(base.out)) throw new Error(`speculative k=${k} output differs from target-only greedy:\n${JSON.stringify(dec(r.out))}\n${JSON.stringify(dec(base.out))}`);
  console.log(`| identical to greedy ✓ | ${k} | ${fmt(r.accepted / r.proposed, 3)} (${r.accepted}/${r.proposed}) | ${r.rounds} | ${r.draftSteps} | ${r.rollbacks} | ${fmt(r.ms)} | ${fmt(baseMs / r.ms, 2)} |`);
  if (k === 4) spec = r;
}
console.log(`(target-only greedy, same prompt + ${N} tokens: ${fmt(baseMs)} ms)`);
console.log(`\nprefill_tok_s_holo=${fmt(PROMPT.length / h.prefill * 1e3)}`);
console.log(`prefill_tok_s_ort=${fmt(PROMPT.length / o.prefill * 1e3)}`);
console.log(`decode_tok_s_holo=${fmt(N / h.decode * 1e3)}`);
console.log(`decode_tok_s_ort=${fmt(N / o.decode * 1e3)}`);
console.log(`prefill_tok_s_ratio=${fmt(o.prefill / h.prefill, 3)}`);
console.log(`decode_tok_s_ratio=${fmt(o.decode / h.decode, 3)}`);
console.log(`prompt_repeat_over_cold_default=${fmt(r64.hot.ms / r64.cold.ms, 4)}`);
console.log(`prompt_repeat_over_cold_infinity=${fmt(rInf.hot.ms / rInf.cold.ms, 4)}`);
console.log(`spec_acceptance_k4=${fmt(spec.accepted / spec.proposed, 3)}`);
console.log(`spec_speedup_k4=${fmt(baseMs / spec.ms, 3)}`);
