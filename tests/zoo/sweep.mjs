// zoo-sweep (issue 41 item 4): every dynamic model of the committed zoo
// subset (tests/zoo/models: a dim of an input is a name, e.g. the BERT-style
// encoder's [batch, seq] and the KV decoder's [batch, seq] ids with
// [batch, 2, past, 32] caches) is converted ONCE, loaded ONCE, and that one
// session is run at 3 sequence lengths x 2 batch sizes, each run's every
// output compared with onnxruntime-node at the zoo's tolerance
// (bench/zoo/check.mjs compareOutput). One archive serves every shape: the
// test fails if the converter is called again or if a shape's run needs a
// new session (a shape never seen costs no recompilation; the session's
// kernel count, fixed at load, is the same after every shape).
//   node tests/zoo/sweep.mjs [--filter substr] [--dir build/zoo (the whole zoo's models)]
// Ends with `zoo-sweep: N passed, N failed`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ort from 'onnxruntime-node';
import { init } from '../../bindings-js/index.js';
import { convert } from '../../compiler/convert.js';
import { loadManifest } from '../../bench/zoo/manifest.mjs';
import { compareOutput } from '../../bench/zoo/check.mjs';
import { Feeder } from '../../bench/zoo/inputs.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const di = args.indexOf('--dir');
const DIR = di >= 0 ? path.resolve(args[di + 1]) : path.join(HERE, 'models');
const fi = args.indexOf('--filter');
const filter = fi >= 0 ? args[fi + 1] : null;
ort.env.logLevel = 'error';

// The sweep: batch x (seq, past). The lengths are odd on purpose (no tile or
// vector width divides them), 1 is the decode step, past 0 an empty cache;
// every length stays under the tiny models' 64 positions.
const BATCHES = [1, 3];
const LENGTHS = [{ seq: 1, past: 0 }, { seq: 7, past: 5 }, { seq: 23, past: 17 }];

/** The ports of `entry` with each named dim bound: batch, seq, past, and total = past + seq. */
function bind(entry, batch, { seq, past }) {
  const env = { batch, seq, past, total: past + seq };
  return entry.inputs.map((p) => {
    const shape = p.dims.map((d) => {
      if (typeof d !== 'string') return d;
      if (!(d in env)) throw new Error(`${entry.key}: no sweep value for dim '${d}' of ${p.name}`);
      return env[d];
    });
    return { ...p, shape };
  });
}

/** Feeds for one shape; an attention mask keeps its first column 1 (a fully masked row is padding both runtimes may fill differently). */
function feedsFor(entry, ports, seed) {
  const feeds = new Feeder(ports, seed).next();
  for (const f of feeds) {
    if (!/mask/.test(f.name)) continue;
    const cols = f.shape[f.shape.length - 1];
    for (let i = 0; i < f.data.length; i += cols) f.data[i] = f.dtype === 'int64' ? 1n : 1;
  }
  return feeds;
}

const dynamic = (e) => e.inputs.some((i) => i.dims.some((d) => typeof d === 'string'));
const rt = await init(undefined, { variant: 'simd128' });
let passed = 0, failed = 0;
const say = (ok, what) => { ok ? passed++ : failed++; console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`); };

// The comparison can fail: a shape off by one element, or a value off by
// 1e-3 of max|ref|, is not accepted.
{
  const ref = { dims: [2, 2], type: 'float32', data: new Float32Array([1, 2, 3, 4]) };
  const wrongShape = compareOutput('y', ref, { shape: [1, 4], data: ref.data }).ok;
  const off = compareOutput('y', ref, { shape: [2, 2], data: new Float32Array([1, 2, 3.004, 4]) }).ok;
  say(!wrongShape && !off, `self-check: a reshaped or perturbed output fails (reshaped ${wrongShape}, perturbed ${off})`);
}

const models = loadManifest(DIR, { trained: false }).filter((e) => !e.error && dynamic(e) && (!filter || e.key.includes(filter)));
// A subset with no dynamic model would make this suite pass vacuously.
say(models.length >= 2, `dynamic models in ${path.relative(process.cwd(), DIR)}: ${models.map((e) => e.key).join(', ') || 'none'}`);

for (const e of models) {
  const onnxBytes = fs.readFileSync(path.join(DIR, e.file));
  const t0 = performance.now();
  let session;
  try {
    session = rt.load(convert(onnxBytes).holo);
  } catch (x) {
    say(false, `${e.key}: convert/load with symbolic dims: ${x.message}`);
    continue;
  }
  const kernels = session.kernelCount;
  const ortSession = await ort.InferenceSession.create(onnxBytes, { executionProviders: ['cpu'] });
  let seed = e.seed;
  for (const batch of BATCHES) {
    for (const len of LENGTHS) {
      const ports = bind(e, batch, len);
      const feeds = feedsFor(e, ports, seed++);
      const shape = `batch ${batch}, seq ${len.seq}${ports.some((p) => p.dims.includes('past')) ? `, past ${len.past}` : ''}`;
      let got, ref;
      try {
        got = session.run(Object.fromEntries(feeds.map((f) => [f.name, { data: f.data, shape: f.shape }])));
        ref = await ortSession.run(Object.fromEntries(feeds.map((f) => [f.name, new ort.Tensor(f.dtype, f.data, f.shape)])));
      } catch (x) {
        say(false, `${e.key} [${shape}]: ${x.code ?? ''} ${x.message}`);
        continue;
      }
      const bad = [];
      for (const name of Object.keys(ref)) {
        const c = compareOutput(name, ref[name], got[name]);
        if (!c.ok) bad.push(c.why);
      }
      if (session.kernelCount !== kernels) bad.push(`kernel count ${kernels} at load, ${session.kernelCount} after this shape`);
      say(bad.length === 0, `${e.key} [${shape}]: ${Object.keys(ref).length} outputs${bad.length ? ` -- ${bad.join('; ').slice(0, 300)}` : ''}`);
    }
  }
  await ortSession.release();
  session.dispose();
  console.log(`     ${e.key}: one convert, one load, ${BATCHES.length * LENGTHS.length} shapes in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
console.log(`zoo-sweep: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
