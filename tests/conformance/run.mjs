// ONNX backend-test conformance of hologram-exec (converter + wasm runtime).
//
//   node tests/conformance/run.mjs [--filter substr] [--check-baseline] [--update-baseline]
//                                  [--data DIR] [--report FILE] [--verbose]
//
// For every case of the suites node, pytorch-converted, pytorch-operator and
// simple (DIR/<suite>/<case>/model.onnx + test_data_set_N/{input,output}_K.pb):
// convert (a refusal -> unsupported), load through the JS binding (a refusal
// with code UNSUPPORTED -> unsupported), execute every data set and compare
// every output (|a-b| <= atol + rtol*|b|, rtol 1e-3, atol 1e-7; exact for
// integers and bools; NaN matches NaN; shapes and dtypes must match). Status:
// pass / fail (a wrong output) / unsupported / error (anything else).
// Writes tests/conformance/report.json and prints one line per suite:
//   conformance suite=<name> pass=<n> fail=<n> unsupported=<n> error=<n> total=<n>
// then `conformance: N passed, N failed` (passed = baseline cases still passing
// + new passes, failed = baseline cases that no longer pass or, without
// --filter, are no longer in the data). With --check-baseline the exit code
// is 1 when a baseline case failed. Missing test data (a suite directory
// absent, or no case to run) is always a failure: exit 1, naming what is
// missing and how to get it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../bindings-js/index.js';
import { convert } from '../../compiler/convert.js';
import { readModel, readTensor } from '../../compiler/onnx-reader.js';
import { readOptional, readSequence } from './seq-proto.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SUITES = ['node', 'pytorch-converted', 'pytorch-operator', 'simple'];
const RTOL = 1e-3, ATOL = 1e-7;

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : d; };
const flag = (k) => args.includes(k);
const DATA = opt('--data', '/usr/share/libonnx-testdata/data');
const FILTER = opt('--filter', '');
const REPORT = opt('--report', path.join(HERE, 'report.json'));
const BASELINE = path.join(HERE, 'baseline.json');
const verbose = flag('--verbose');

const FLOAT = new Set([1, 10, 11]);

// The random ops' cases expect one generator's bytes (numpy's), not the op's semantics.
const RANDOM_DRAW = "the expected values are one draw of numpy's generator; hologram draws from its own documented generator (Philox4x32-10, docs/decisions.md 99), so another draw of the same distribution (tests/js/random.test.mjs checks the distributions)";
const DROPOUT_DRAW = "the expected output and mask are numpy's MT19937 stream for seed 0; hologram draws from its own documented generator (Philox4x32-10, docs/decisions.md 99), so another mask of the same ratio (tests/js/random.test.mjs checks the kept share and the scale)";

// Cases whose expected data the ONNX reference implementation computed
// differently from onnxruntime (and torch), where hologram follows
// onnxruntime, or that are one draw of a generator the spec leaves to the
// implementation (RANDOM_DRAW, DROPOUT_DRAW): one fails here with status
// 'diverges' and its reason, counted apart from 'fail'; a case listed here
// that passes is a plain pass.
const DIVERGES = {
  'node/test_cast_FLOAT_to_BFLOAT16': 'onnx 1.12 generated the expected bfloat16 by truncating the float32 bits; onnxruntime (and onnx >= 1.14) round to nearest even, as hologram does',
  'node/test_adam_multiple': 'the generator computed the expected values with epsilon 1e-2, but the node has no epsilon attribute, so the spec default 1e-6 applies (with 1e-2 hologram gives the expected 0.7591363)',
  'node/test_castlike_FLOAT_to_BFLOAT16': 'as test_cast_FLOAT_to_BFLOAT16: the expected bfloat16 is the truncated float32 (onnx 1.12); hologram rounds to nearest even',
  'node/test_castlike_FLOAT_to_BFLOAT16_expanded': 'as test_cast_FLOAT_to_BFLOAT16: the expected bfloat16 is the truncated float32 (onnx 1.12); hologram rounds to nearest even',
  'node/test_bernoulli': RANDOM_DRAW,
  'node/test_bernoulli_double': RANDOM_DRAW,
  'node/test_bernoulli_double_expanded': RANDOM_DRAW,
  'node/test_bernoulli_expanded': RANDOM_DRAW,
  'node/test_bernoulli_seed': RANDOM_DRAW,
  'node/test_bernoulli_seed_expanded': RANDOM_DRAW,
  'node/test_training_dropout': DROPOUT_DRAW,
  'node/test_training_dropout_default': DROPOUT_DRAW,
  'node/test_training_dropout_default_mask': DROPOUT_DRAW,
  'node/test_training_dropout_mask': DROPOUT_DRAW,
  'node/test_maxunpool_export_with_output_shape': 'the reference pads the default-shape result to output_shape; onnxruntime and torch read the indices as positions in output_shape (compiler/onnx-ops-gather.js)',
};

function f16(bits) {
  const s = bits & 0x8000 ? -1 : 1, e = (bits >> 10) & 0x1f, m = bits & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

function elems(dtype, bytes) {
  const b = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  switch (dtype) {
    case 1: return new Float32Array(b);
    case 11: return new Float64Array(b);
    case 10: return Array.from(new Uint16Array(b), f16);
    case 2: case 9: return new Uint8Array(b);
    case 3: return new Int8Array(b);
    // bfloat16 compared bit for bit: every op that produces it rounds once
    case 4: case 16: return new Uint16Array(b);
    case 5: return new Int16Array(b);
    case 6: return new Int32Array(b);
    case 12: return new Uint32Array(b);
    case 7: return new BigInt64Array(b);
    case 13: return new BigUint64Array(b);
    default: return bytes;
  }
}

const CODES = { float32: 1, uint8: 2, int8: 3, uint16: 4, int16: 5, int32: 6, int64: 7, bool: 9, float16: 10, float64: 11, uint32: 12, uint64: 13, bfloat16: 16 };

/** null when equal, else a message. */
function compare(got, want, k) {
  let gcode = CODES[got.dtype];
  // onnx 1.12's generator saved bfloat16 outputs as their uint16 bits
  if (gcode === 16 && want.dtype === 4) gcode = 4;
  if (gcode !== want.dtype) return `output ${k}: dtype ${got.dtype} (${gcode}), expected ${want.dtype}`;
  if (got.shape.length !== want.dims.length || got.shape.some((d, i) => d !== want.dims[i]))
    return `output ${k}: shape [${got.shape}], expected [${want.dims}]`;
  const a = elems(gcode, new Uint8Array(got.data.buffer, got.data.byteOffset, got.data.byteLength));
  const b = elems(want.dtype, want.bytes);
  if (a.length !== b.length) return `output ${k}: ${a.length} elements, expected ${b.length}`;
  let bad = 0, first = -1, worst = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i], y = b[i];
    let ok;
    if (FLOAT.has(want.dtype)) {
      if (Number.isNaN(y)) ok = Number.isNaN(x);
      else if (!Number.isFinite(y)) ok = x === y;
      else ok = Math.abs(x - y) <= ATOL + RTOL * Math.abs(y);
      if (!ok && Number.isFinite(x) && Number.isFinite(y)) worst = Math.max(worst, Math.abs(x - y));
    } else ok = x === y;
    if (!ok) { bad++; if (first < 0) first = i; }
  }
  if (!bad) return null;
  return `output ${k}: ${bad}/${a.length} elements differ (first at ${first}: got ${a[first]}, expected ${b[first]}${worst ? `; max abs diff ${worst.toExponential(3)}` : ''})`;
}

// Sequence and optional ports (docs/holo-format.md §4b): their .pb files are
// SequenceProto / OptionalProto; a session takes and gives arrays of tensors
// (a sequence) and null / a tensor / an array (an optional).
const LIST = new Set(['sequence', 'optional']);
function readData(bytes, port) {
  if (port?.dtype === 'sequence') return { sequence: readSequence(bytes) };
  if (port?.dtype === 'optional') return { optional: readOptional(bytes) };
  return readTensor(bytes);
}
const elemFeed = (t) => ({ data: t.bytes, dtype: Object.keys(CODES).find((k) => CODES[k] === t.dtype), shape: t.dims });
function feed(t, port) {
  if (!LIST.has(port.dtype)) return { data: t.bytes, shape: t.dims };
  if (t.sequence) return t.sequence.map(elemFeed);
  const o = t.optional;
  return o === null ? null : o.tensor ? elemFeed(o.tensor) : o.sequence.map(elemFeed);
}
/** null when `got` (a tensor, an array of tensors, or null) equals `want`, else a message. */
function compareValue(got, want, k) {
  if (!('sequence' in want) && !('optional' in want)) return Array.isArray(got) || got === null ? `output ${k}: a sequence or optional, expected a tensor` : compare(got, want, k);
  const w = want.sequence ?? (want.optional === null ? null : want.optional.tensor ?? want.optional.sequence);
  if (w === null) return got === null ? null : `output ${k}: expected an empty optional`;
  if (!Array.isArray(w)) return got && !Array.isArray(got) ? compare(got, w, k) : `output ${k}: expected a tensor in the optional`;
  if (!Array.isArray(got)) return `output ${k}: expected a sequence`;
  if (got.length !== w.length) return `output ${k}: a sequence of ${got.length}, expected ${w.length}`;
  for (let j = 0; j < w.length; j++) {
    const m = compare(got[j], w[j], `${k}[${j}]`);
    if (m) return m;
  }
  return null;
}

const sortNum = (files, prefix) => files.filter((f) => f.startsWith(prefix) && f.endsWith('.pb'))
  .sort((x, y) => Number(x.slice(prefix.length, -3)) - Number(y.slice(prefix.length, -3)));

let rt = await init();

async function runCase(suite, name) {
  const dir = path.join(DATA, suite, name);
  const rec = { suite, case: name, status: 'error', ops: [], message: '' };
  let bytes;
  try {
    bytes = fs.readFileSync(path.join(dir, 'model.onnx'));
    const m = readModel(bytes);
    rec.ops = [...new Set(m.graph.nodes.map((n) => (n.domain && n.domain !== 'ai.onnx' ? `${n.domain}.` : '') + n.opType))].sort();
  } catch (e) {
    rec.message = `read: ${e.message}`;
    return rec;
  }
  let holo;
  try {
    const r = convert(bytes, { runtime: rt });
    holo = r.holo;
    if (r.report.rewrites.some((l) => /trapped/.test(l))) rt = await init();
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) rt = await init();
    const bug = e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError;
    rec.status = !bug && /unsupported|not supported/i.test(e.message) ? 'unsupported' : 'error';
    rec.message = `convert: ${e.message}`;
    return rec;
  }
  let session;
  try {
    session = rt.load(holo);
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) rt = await init();
    rec.status = e.code === 'UNSUPPORTED' ? 'unsupported' : 'error';
    rec.message = `load: ${e.code ?? ''} ${e.message}`;
    return rec;
  }
  try {
    const sets = fs.readdirSync(dir).filter((d) => d.startsWith('test_data_set_')).sort();
    if (!sets.length) { rec.message = 'no test_data_set'; return rec; }
    for (const set of sets) {
      const sd = path.join(dir, set);
      const files = fs.readdirSync(sd);
      const ins = sortNum(files, 'input_').map((f, k) => readData(fs.readFileSync(path.join(sd, f)), session.inputs[k]));
      const outs = sortNum(files, 'output_').map((f, k) => readData(fs.readFileSync(path.join(sd, f)), session.outputs[k]));
      if (ins.length !== session.inputs.length) {
        rec.message = `${set}: ${ins.length} input files for ${session.inputs.length} graph inputs`;
        return rec;
      }
      let got;
      try {
        got = session.execute(ins.map((t, k) => feed(t, session.inputs[k])));
      } catch (e) {
        if (e instanceof WebAssembly.RuntimeError) { rt = await init(); rec.message = `execute: wasm trap: ${e.message}`; return rec; }
        rec.status = e.code === 'UNSUPPORTED' ? 'unsupported' : 'error';
        rec.message = `execute ${set}: ${e.code ?? ''} ${e.message}`;
        return rec;
      }
      if (got.length !== outs.length) { rec.status = 'fail'; rec.message = `${set}: ${got.length} outputs, expected ${outs.length}`; return rec; }
      for (let k = 0; k < outs.length; k++) {
        const msg = compareValue(got[k], outs[k], k);
        const why = DIVERGES[`${suite}/${name}`];
        if (msg) { rec.status = why ? 'diverges' : 'fail'; rec.message = `${set}: ${msg}${why ? ` (${why})` : ''}`; return rec; }
      }
    }
    rec.status = 'pass';
    return rec;
  } catch (e) {
    rec.status = 'error';
    rec.message = `${e.message}`;
    return rec;
  } finally {
    try { session.dispose(); } catch { /* a trapped instance */ }
  }
}

// Missing test data is a failure, never "0 passed, 0 failed": a run that
// checked nothing must not look like a run that found nothing wrong.
const HOW = 'install the ONNX backend test data (Debian: apt-get install libonnx-testdata; `make setup` does it) or pass --data DIR';
function missing(what) {
  console.log(`conformance: FAIL ${what}: ${HOW}`);
  console.log('conformance: 0 passed, 1 failed');
  process.exit(1);
}
const absent = SUITES.filter((s) => !fs.existsSync(path.join(DATA, s)));
if (absent.length) missing(`missing suite director${absent.length > 1 ? 'ies' : 'y'} ${absent.map((s) => path.join(DATA, s)).join(', ')}`);

const t0 = Date.now();
const cases = [];
for (const suite of SUITES) {
  const sdir = path.join(DATA, suite);
  for (const c of fs.readdirSync(sdir).sort()) {
    if (!fs.existsSync(path.join(sdir, c, 'model.onnx'))) continue;
    if (FILTER && !`${suite}/${c}`.includes(FILTER)) continue;
    const r = await runCase(suite, c);
    if (verbose) console.log(`${r.status.padEnd(11)} ${suite}/${c} ${r.message}`);
    cases.push(r);
  }
}

const perSuite = {}, perOp = {};
for (const r of cases) {
  const s = (perSuite[r.suite] ??= { pass: 0, fail: 0, unsupported: 0, error: 0, diverges: 0, total: 0 });
  s[r.status]++; s.total++;
  for (const op of r.ops) {
    const o = (perOp[op] ??= { pass: 0, fail: 0, unsupported: 0, error: 0, diverges: 0, total: 0 });
    o[r.status]++; o.total++;
  }
}
const sortedOps = Object.fromEntries(Object.entries(perOp).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(REPORT, JSON.stringify({
  generated: new Date().toISOString(), data: DATA, filter: FILTER || null, rtol: RTOL, atol: ATOL,
  seconds: (Date.now() - t0) / 1000, suites: perSuite, ops: sortedOps, cases,
}, null, 1) + '\n');

for (const suite of SUITES) {
  const s = perSuite[suite];
  if (!s) continue;
  console.log(`conformance suite=${suite} pass=${s.pass} fail=${s.fail} unsupported=${s.unsupported} error=${s.error}${s.diverges ? ` diverges=${s.diverges}` : ''} total=${s.total}`);
}

// ---- baseline
const id = (r) => `${r.suite}/${r.case}`;
const passing = cases.filter((r) => r.status === 'pass').map(id).sort();
const ran = new Set(cases.map(id));
let baseline = [];
if (fs.existsSync(BASELINE)) baseline = JSON.parse(fs.readFileSync(BASELINE, 'utf8')).passing ?? [];
const baseSet = new Set(baseline);
const passSet = new Set(passing);
if (!cases.length) missing(`no case under ${DATA}${FILTER ? ` matches --filter ${FILTER}` : ' has a model.onnx'}`);
const regressions = baseline.filter((c) => ran.has(c) && !passSet.has(c));
// Without --filter every baseline case must have run: a case gone from the
// data set is a baseline case no longer checked.
const vanished = FILTER ? [] : baseline.filter((c) => !ran.has(c));
const kept = baseline.filter((c) => passSet.has(c));
const fresh = passing.filter((c) => !baseSet.has(c));
if (flag('--update-baseline')) {
  // keep baseline entries outside a --filter run
  const next = FILTER ? [...new Set([...baseline.filter((c) => !ran.has(c)), ...passing])].sort() : passing;
  fs.writeFileSync(BASELINE, JSON.stringify({ comment: 'cases that pass; node tests/conformance/run.mjs --update-baseline rewrites this', passing: next }, null, 1) + '\n');
  console.log(`conformance: baseline updated (${next.length} cases)`);
} else {
  for (const c of regressions) {
    const r = cases.find((x) => id(x) === c);
    console.log(`conformance: REGRESSION ${c}: ${r.status} ${r.message}`);
  }
  for (const c of vanished) console.log(`conformance: MISSING ${c}: a baseline case is not in ${DATA} (${HOW})`);
  if (fresh.length) console.log(`conformance: ${fresh.length} new pass(es) not in the baseline (run with --update-baseline): ${fresh.join(' ')}`);
}
const failedN = flag('--update-baseline') ? 0 : regressions.length + vanished.length;
console.log(`conformance: ${kept.length + fresh.length} passed, ${failedN} failed`);
console.error(`conformance: ${cases.length} cases in ${((Date.now() - t0) / 1000).toFixed(1)}s, report ${path.relative(process.cwd(), REPORT)}`);
if (flag('--check-baseline') && failedN) process.exitCode = 1;
