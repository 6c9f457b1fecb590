// The cost of one draw on the trained char-LM (docs/generation.md, "Logit bias,
// allowed masks and log-probabilities"): generator.sample() over the same logits
// (nothing is fed, so no model execution is timed), T = 0.8, top-k 40, for
//   plain            the sampler alone;
//   bias+allowed     sampler.logitBias (8 tokens) and sampler.allowed (a mask allowing
//                    every token: the cost of the callback and the mask, not a smaller draw);
//   bias+printable   the same with a mask of the 96 printable bytes (fewer tokens to sort);
//   logprobs         logprobs: 5 (the inspector records ln p, raw ln p, 5 top tokens).
// The three configurations are interleaved in rounds; the median of the rounds
// is reported (the machine is shared).
//   node bench/generate-draws.mjs [--draws N] [--rounds R]
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { load } from '../bindings-js/index.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (n, d) => { const i = argv.indexOf(n); return i >= 0 ? Number(argv[i + 1]) : d; };
const DRAWS = opt('--draws', 2000), ROUNDS = opt('--rounds', 9);

const holo = path.join(ROOT, 'build', 'charlm.holo'), onnx = path.join(ROOT, 'models/charlm/charlm.onnx');
if (!fs.existsSync(holo) || fs.statSync(holo).mtimeMs < fs.statSync(onnx).mtimeMs)
  execFileSync(process.execPath, [path.join(ROOT, 'bindings-js/bin/holo.js'), 'convert', onnx, '-o', holo], { stdio: 'inherit' });
const s = await load(fs.readFileSync(holo));
const V = 256;
const all = new Uint8Array(V).fill(1);
const mask = Uint8Array.from({ length: V }, (_, i) => (i >= 32 && i < 127) || i === 10);
const bias = Object.fromEntries([32, 101, 116, 97, 111, 110, 105, 115].map((t, i) => [t, i % 2 ? -1.5 : 0.75]));
const base = { seed: 7, model: { positionInput: 'pos' } };
const sampler = { kind: 'default', temperature: 0.8, topK: 40 };
const configs = {
  plain: { ...base, sampler },
  'bias+allowed': { ...base, sampler: { ...sampler, logitBias: bias, allowed: () => all } },
  'bias+printable': { ...base, sampler: { ...sampler, logitBias: bias, allowed: () => mask } },
  logprobs: { ...base, sampler, logprobs: 5 },
};
const prompt = Array.from(Buffer.from('And God said, Let there be light', 'latin1'));
const gens = Object.fromEntries(Object.entries(configs).map(([k, c]) => { const g = s.generator(c); g.prefill(prompt); return [k, g]; }));
const times = Object.fromEntries(Object.keys(gens).map((k) => [k, []]));
const run = (name, n) => {
  const g = gens[name], lp = name === 'logprobs';
  const t0 = performance.now();
  for (let i = 0; i < n; i++) { g.sample(); if (lp) g.logprobs(); }
  return ((performance.now() - t0) * 1e3) / n;
};
for (const k of Object.keys(gens)) run(k, DRAWS); // warm-up (tier-up)
for (let r = 0; r < ROUNDS; r++) for (const k of Object.keys(gens)) times[k].push(run(k, DRAWS));
const median = (a) => { const b = [...a].sort((x, y) => x - y); return b[b.length >> 1]; };
console.log(`charlm draws (vocab ${V}, T 0.8, top-k 40), ${DRAWS} draws x ${ROUNDS} rounds, node ${process.version}`);
for (const k of Object.keys(gens)) console.log(`draw_us_${k.replace('+', '_')}=${median(times[k]).toFixed(1)} (min ${Math.min(...times[k]).toFixed(1)}, max ${Math.max(...times[k]).toFixed(1)})`);
for (const g of Object.values(gens)) g.free();
s.dispose();
