// zoo-small: the committed subset of the real-model zoo (tests/zoo/models,
// built by `python3 bench/zoo/build.py tests/zoo/models --profile small`):
// each model converted with the converter's defaults and compared with
// onnxruntime-node exactly as `make zoo` does (bench/zoo/check.mjs), no speed.
// Its status (pass / refused + covering issue / wrong / error) is checked
// against tests/zoo/baseline.json: a model that was refused and now passes,
// or passed and now fails, or is refused for another issue, is a failure
// until the baseline is rewritten (--update-baseline), so the change shows in
// a diff. A wrong model fails whatever the baseline says.
//   node tests/zoo/run.mjs [--update-baseline] [--filter substr]
// Ends with `zoo-small: N passed, N failed`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../bindings-js/index.js';
import { loadManifest } from '../../bench/zoo/manifest.mjs';
import { checkModel, compareOutput, twinRule } from '../../bench/zoo/check.mjs';
import { float32Twin } from '../../bench/zoo/f32-twin.mjs';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DIR = path.join(HERE, 'models');
const BASELINE = path.join(HERE, 'baseline.json');
const args = process.argv.slice(2);
const update = args.includes('--update-baseline');
const fi = args.indexOf('--filter');
const filter = fi >= 0 ? args[fi + 1] : null;

const rt = await init(undefined, { variant: 'simd128' });
const base = fs.existsSync(BASELINE) ? JSON.parse(fs.readFileSync(BASELINE, 'utf8')).models : {};
const tag = (r) => (r.status === 'refused' ? `refused #${r.issue ?? 'UNMAPPED'}` : r.status);
/** null when `now` matches the baseline's `was`; else what changed (a wrong model never matches). */
const verdict = (was, now) => (now === 'wrong' ? 'wrong (never accepted)'
  : was === undefined ? 'not in the baseline'
    : was === now ? null
      : now === 'pass' ? `newly passing (baseline: ${was}): rewrite the baseline`
        : was === 'pass' ? `stopped passing (baseline: pass)` : `baseline: ${was}`);
let passed = 0, failed = 0;
const now = {};
const changes = [];

// Both directions of a status change are failures, and equal statuses are not.
{
  const v = [verdict('pass', 'pass'), verdict('refused #20', 'refused #20'), verdict('refused #20', 'pass'), verdict('pass', 'refused #20'),
    verdict('refused #20', 'refused #19'), verdict('pass', 'wrong'), verdict('pass', 'error'), verdict(undefined, 'pass')];
  if (v[0] === null && v[1] === null && v.slice(2).every((x) => typeof x === 'string')) passed++;
  else { failed++; console.log(`zoo-small: FAIL verdict self-check (${JSON.stringify(v)})`); }
}

// The comparison can fail: one element off by 1e-3 of max|ref| is wrong.
{
  const ref = { dims: [4], type: 'float32', data: new Float32Array([1, -2, 3, 0.5]) };
  const near = compareOutput('y', ref, { shape: [4], data: new Float32Array([1, -2, 3 + 1e-5, 0.5]) }).ok;
  const off = compareOutput('y', ref, { shape: [4], data: new Float32Array([1, -2, 3.003, 0.5]) }).ok;
  const shape = compareOutput('y', ref, { shape: [2, 2], data: ref.data }).ok;
  if (near && !off && !shape) passed++;
  else { failed++; console.log(`zoo-small: FAIL compareOutput self-check (near ${near}, off ${off}, reshaped ${shape})`); }
}

// The float16 bar (values that are float16: bench/zoo/half-outputs.mjs) is
// 2 ulps of each ref value, floored at 1e-4 of max|ref|: 1.5 ulps at 3 passes,
// 3 ulps fails; a tiny value is held to the floor, not to its own ulps.
{
  const ref = { dims: [3], type: 'float32', data: new Float32Array([3, 0.001, -1]) }, u3 = 2 ** -9;
  const with1 = (i, v) => { const d = Float32Array.from(ref.data); d[i] = v; return { shape: [3], data: d }; };
  const half = { half: true };
  const a = compareOutput('y', ref, with1(0, 3 + 1.5 * u3), half).ok, b = compareOutput('y', ref, with1(0, 3 + 3 * u3), half).ok;
  const c = compareOutput('y', ref, with1(1, 0.001 + 2.5e-4), half).ok, d = compareOutput('y', ref, with1(1, 0.001 + 4e-4), half).ok;
  const f32 = compareOutput('y', ref, with1(0, 3 + 1.5 * u3)).ok;
  if (a && !b && c && !d && !f32) passed++;
  else { failed++; console.log(`zoo-small: FAIL float16-bar self-check (${[a, b, c, d, f32]})`); }
}

// The twin rule (a float16 model's error against its float32 twin, beside
// onnxruntime's): less error passes; more error overall fails; one output
// over TWIN_SPREAD times onnxruntime's fails though the model's error is less.
{
  const t = (d) => ({ dims: [d.length], type: 'float32', data: Float32Array.from(d) });
  const twin = { a: t([1, 2, 3, 4]), b: t([-1, 1, -1, 1]) };
  const ort = { a: t([1.1, 2, 3, 4]), b: t([-1, 1.01, -1, 1]) };
  const run = (a, b) => twinRule(['a', 'b'], { all: ort, other: twin }, { a: t(a), b: t(b) }, twin).why;
  const less = run([1.005, 2, 3, 4], [-1, 1.005, -1, 1]);
  const more = run([1.12, 2, 3, 4], [-1, 1.012, -1, 1]); // 1.2x on each: the model's error
  const oneOver = run([1, 2, 3, 4], [-1, 1.013, -1, 1]); // 0 and 1.3x: one output
  // a level of onnxruntime with more error than 'all' sets the bar
  const byLevel = twinRule(['a', 'b'], { all: ort, basic: { a: t([1.15, 2, 3, 4]), b: t([-1, 1.015, -1, 1]) } },
    { a: t([1.12, 2, 3, 4]), b: t([-1, 1.012, -1, 1]) }, twin).why;
  // the twin itself: float16 weights and Casts widened, values kept
  const m = new onnx.ModelProto({ irVersion: 8, opsetImport: [{ domain: '', version: 15 }], graph: {
    name: 'g', node: [{ opType: 'Cast', input: ['x'], output: ['h'], attribute: [{ name: 'to', type: 2, i: 10 }] },
      { opType: 'Mul', input: ['h', 'w'], output: ['y'] }],
    initializer: [{ name: 'w', dims: [2], dataType: 10, rawData: new Uint8Array([0x00, 0x3c, 0x00, 0xc2]) }], // 1, -3
    input: [{ name: 'x', type: { tensorType: { elemType: 1, shape: { dim: [{ dimValue: 2 }] } } } }],
    output: [{ name: 'y', type: { tensorType: { elemType: 10, shape: { dim: [{ dimValue: 2 }] } } } }] } });
  const tw = onnx.ModelProto.decode(float32Twin(onnx.ModelProto.encode(m).finish())).graph;
  const w = tw.initializer[0], wv = new Float32Array(Uint8Array.from(w.rawData).buffer);
  const widened = w.dataType === 1 && wv[0] === 1 && wv[1] === -3 && Number(tw.node[0].attribute[0].i) === 1 && tw.output[0].type.tensorType.elemType === 1;
  if (less === null && byLevel === null && /error vs the float32 twin/.test(more) && /output 'b' error 1.300x onnxruntime's largest/.test(oneOver) && widened) passed++;
  else { failed++; console.log(`zoo-small: FAIL twin-rule self-check (less ${less}, by level ${byLevel}, more ${more}, one over ${oneOver}, widened ${widened})`); }
}

for (const e of loadManifest(DIR, { trained: false })) {
  if (filter && !e.key.includes(filter)) continue;
  const t0 = performance.now();
  const r = e.error ? { status: 'error', message: e.error } : await checkModel(e, DIR, { rt }).catch((x) => ({ status: 'error', message: `harness: ${x.message}` }));
  now[e.key] = tag(r);
  const was = base[e.key];
  const v = verdict(was, now[e.key]);
  const ok = v === null || (update && r.status !== 'wrong');
  ok ? passed++ : failed++;
  if (v) changes.push(`${e.key}: ${v}`);
  const note = v ? ` (${v})` : '';
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${e.key}: ${now[e.key]}${note} ${((performance.now() - t0) / 1000).toFixed(1)} s${r.message ? ` -- ${r.message.slice(0, 160)}` : ''}`);
}
// A baseline model gone from the subset is a check no longer made.
if (!filter) for (const k of Object.keys(base)) if (!(k in now)) { failed++; console.log(`FAIL ${k}: in the baseline, not in ${DIR}`); }
if (update) {
  const next = filter ? { ...base, ...now } : now;
  fs.writeFileSync(BASELINE, JSON.stringify({ comment: 'zoo-small statuses; node tests/zoo/run.mjs --update-baseline rewrites this', models: next }, null, 1) + '\n');
  console.log(`zoo-small: baseline updated (${Object.keys(next).length} models)`);
}
if (changes.length) console.log(`zoo-small: ${changes.length} status change(s) against tests/zoo/baseline.json:\n  ${changes.join('\n  ')}`);
console.log(`zoo-small: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
