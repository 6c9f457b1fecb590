// Replays the converter fuzz inputs (issue 16) and runs the fast-check
// properties with a fixed seed; for make test. Last line:
//   fuzz-convert: N passed, N failed
// Each input runs in a worker with a 512 MiB JS heap (resourceLimits) under a
// 10 s watchdog, and the process's RSS is sampled against 2 GiB: a hang or a
// blow-up is a failure of that input, not of the replay. Inputs:
//   tests/fuzz/corpus/convert/*        (minimised Jazzer corpus)
//   tests/fuzz/regressions/convert/*   (findings; expect.json names the refusal each must get)
//   properties: hostile models, broken graphs, mutated corpus models (models.mjs)
// Options: --runs N (fast-check runs per property, default 300), --seed S.
// Failing inputs are written to build/fuzz/convert/failures/.
import { Worker } from 'node:worker_threads';
import { readdirSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import onnxProto from 'onnx-proto';
import { brokenModel, hostileModels, mutatedModel } from './models.mjs';
import { TIME_LIMIT_MS, HEAP_LIMIT_MB } from './oracle.mjs';

const { onnx } = onnxProto;
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');
const CORPUS = join(root, 'tests/fuzz/corpus/convert');
const REGRESS = join(root, 'tests/fuzz/regressions/convert');
const FAILURES = join(root, 'build/fuzz/convert/failures');
const RSS_LIMIT = 2048 * 2 ** 20;
const arg = (k, d) => { const i = process.argv.indexOf(k); return i > 0 ? Number(process.argv[i + 1]) : d; };
const RUNS = arg('--runs', 300), SEED = arg('--seed', 16);

// ---- one worker at a time, restarted after a hang or an out-of-memory
class Pool {
  constructor() { this.w = null; this.ids = 0; }
  async start() {
    this.w = new Worker(join(here, 'replay-worker.mjs'), { resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB } });
    this.w.unref();
    await new Promise((res, rej) => { this.w.once('message', res); this.w.once('error', rej); });
  }
  async run(bytes) {
    if (!this.w) await this.start();
    const w = this.w, id = ++this.ids;
    return new Promise((resolve) => {
      let done = false;
      const finish = (r, kill) => {
        if (done) return;
        done = true;
        clearTimeout(timer); clearInterval(rss);
        w.off('message', onMsg); w.off('error', onErr); w.off('exit', onExit);
        if (kill) { w.terminate(); this.w = null; }
        resolve(r);
      };
      const onMsg = (m) => { if (m.id === id) finish({ ...m.r, ms: m.ms }, false); };
      const onErr = (e) => finish({ ok: false, finding: `worker died: ${e.code ?? ''} ${e.message}` }, true);
      const onExit = (c) => finish({ ok: false, finding: `worker exited (${c})` }, true);
      const timer = setTimeout(() => finish({ ok: false, finding: `no result within ${TIME_LIMIT_MS} ms (hang)` }, true), TIME_LIMIT_MS);
      const rss = setInterval(() => { if (process.memoryUsage.rss() > RSS_LIMIT) finish({ ok: false, finding: 'process RSS over 2 GiB' }, true); }, 25);
      w.on('message', onMsg); w.once('error', onErr); w.once('exit', onExit);
      w.postMessage({ id, bytes });
    });
  }
  stop() { this.w?.terminate(); }
}

let passed = 0, failed = 0;
const fail = (what, bytes, msg) => {
  failed++;
  console.log(`FAIL ${what}: ${msg}`);
  if (bytes) {
    mkdirSync(FAILURES, { recursive: true });
    const f = join(FAILURES, createHash('sha1').update(bytes).digest('hex'));
    writeFileSync(f, bytes);
    console.log(`     input saved: ${f}`);
  }
};
const files = (dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => !/\.(md|json)$/.test(f)).sort() : []);

const pool = new Pool();
const t0 = Date.now();

// ---- corpus
const corpusFiles = files(CORPUS);
// a missing corpus or regression set is a failure, not a quiet pass
if (corpusFiles.length === 0) fail('corpus', null, `no inputs in ${CORPUS}`);
if (files(REGRESS).length === 0) fail('regressions', null, `no inputs in ${REGRESS}`);
for (const f of corpusFiles) {
  const bytes = readFileSync(join(CORPUS, f));
  const r = await pool.run(bytes);
  if (r.ok) passed++; else fail(`corpus/${f}`, null, r.finding);
}

// ---- regressions: each must pass the oracle AND get the refusal named in expect.json
const expect = existsSync(join(REGRESS, 'expect.json')) ? JSON.parse(readFileSync(join(REGRESS, 'expect.json'), 'utf8')) : {};
// an entry is the outcome ('archive' or a regex on the refusal), or { outcome, maxMs } for an input that must also be fast
for (const f of files(REGRESS)) {
  const r = await pool.run(readFileSync(join(REGRESS, f)));
  const e = expect[f], want = typeof e === 'object' && e ? e.outcome : e;
  if (!r.ok) fail(`regressions/${f}`, null, r.finding);
  else if (!want) fail(`regressions/${f}`, null, 'no entry in expect.json');
  else if (e.maxMs && r.ms > e.maxMs) fail(`regressions/${f}`, null, `took ${Math.round(r.ms)} ms of CPU, more than ${e.maxMs} ms`);
  else if (want === 'archive' ? r.outcome !== 'archive' : !(r.outcome === 'refused' && new RegExp(want).test(r.message)))
    fail(`regressions/${f}`, null, `expected ${want === 'archive' ? 'an archive' : `a refusal matching /${want}/`}, got ${r.outcome}: ${r.message ?? ''}`);
  else passed++;
}
for (const f of Object.keys(expect)) if (!existsSync(join(REGRESS, f))) fail(`regressions/${f}`, null, 'listed in expect.json but missing');

// ---- hostile models (deterministic)
for (const [label, bytes] of hostileModels()) {
  const r = await pool.run(bytes);
  if (r.ok) passed++; else fail(`hostile/${label}`, bytes, r.finding);
}

// ---- fast-check properties, fixed seed
// seeds for the mutator: the corpus inputs that decode as a ModelProto
const decodes = (b) => { try { onnx.ModelProto.decode(b); return true; } catch { return false; } };
const seeds = corpusFiles.map((f) => readFileSync(join(CORPUS, f))).filter((b) => b.length < 16384 && decodes(b));
const property = async (name, arb) => {
  let last = null;
  try {
    await fc.assert(fc.asyncProperty(arb, async (bytes) => {
      const r = await pool.run(bytes);
      if (!r.ok) { last = bytes; throw new Error(r.finding); }
    }), { seed: SEED, numRuns: RUNS, endOnFailure: true });
    passed++;
  } catch (e) {
    fail(`property ${name} (seed ${SEED}, ${RUNS} runs)`, last, e.message.split('\n').find((l) => /Got error|finding|Error/.test(l)) ?? e.message.split('\n')[0]);
  }
};
await property('broken-graphs', brokenModel);
await property('mutated-corpus', mutatedModel(seeds));

pool.stop();
console.log(`(${corpusFiles.length} corpus inputs, ${files(REGRESS).length} regressions, ${hostileModels().length} hostile models, 2 properties x ${RUNS} runs; ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
if (passed + failed === 0) failed = 1;
console.log(`fuzz-convert: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
