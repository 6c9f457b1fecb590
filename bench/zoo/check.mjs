// One zoo model's correctness check: convert it with the converter's defaults
// (symbolic dims kept; if that is refused, again with the manifest's run
// shapes fixed, as `holo convert --shape NAME=...` would), run it on seeded
// inputs, compare every output with onnxruntime-node (CPU EP), classify:
//   pass     every f32 output within max|a-b| <= 1e-4 * max|ref| (integer and
//            bool outputs equal), shapes equal; an output whose values are
//            float16 (declared so, or a Cast of a float16 value:
//            bench/zoo/half-outputs.mjs) element by element within
//            max(2 float16 ulps of the ref value, 1e-4 * max|ref|); when only
//            such outputs miss that bar, the twin rule decides (twinRule:
//            hologram's error against the model's float32 twin no larger
//            than onnxruntime-node's at its worst optimization level)
//   wrong    it ran and some output is off (or missing, or shaped otherwise)
//   refused  the converter or the runtime said no, with its message and the
//            issue that covers it (bench/zoo/refusals.mjs)
//   error    anything else (a runtime failure that is not a refusal, or
//            onnxruntime itself failing on the model)
//   node bench/zoo/check.mjs DIR KEY [--holo-out DIR] [--ref-cache DIR]    (one JSON line)
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { convert } from '../../compiler/convert.js';
import { Feeder } from './inputs.mjs';
import { classifyRefusal } from './refusals.mjs';
import { halfToFloat, bf16ToFloat } from '../../compiler/half.js';
import { halfValuedOutputs } from './half-outputs.mjs';
import { float32Twin } from './f32-twin.mjs';

export const REL_TOL = 1e-4;
// float16 values are judged in their own ulps: onnxruntime's levels alone
// move isnet_medium's by up to 0.6 ulp (docs/zoo.md, "Float16 outputs")
export const HALF_ULPS = 2;
/** One float16 ulp at |v| (subnormal spacing below 2^-14). */
export const halfUlp = (v) => (Math.abs(v) < 2 ** -14 ? 2 ** -24 : 2 ** (Math.floor(Math.log2(Math.abs(v))) - 10));
const FLOAT = new Set(['float32', 'float64', 'float16', 'bfloat16']);
const ms = (t0) => +(performance.now() - t0).toFixed(1);
const oneLine = (e) => String(e?.message ?? e).split('\n')[0].slice(0, 500);

function refused(row, stage, e) {
  const message = `${stage}: ${oneLine(e)}`;
  return { ...row, status: 'refused', message, ...classifyRefusal(message) };
}

/**
 * Compare one output; returns { diff, ref, ok, why } (plus ulps, the largest
 * |a-b| in float16 ulps of the ref value, when `half`: the values are float16).
 */
export function compareOutput(name, ref, got, { half = ref.type === 'float16' } = {}) {
  if (!got) return { ok: false, why: `output '${name}' missing from hologram's outputs` };
  const rs = [...ref.dims].map(Number), gs = [...got.shape].map(Number);
  if (rs.join() !== gs.join()) return { ok: false, why: `output '${name}' shape [${gs}] vs onnxruntime [${rs}]` };
  const a = ref.data, b = got.data;
  // float16/bfloat16 arrive as their bit patterns (Uint16Array): compare values
  const num = ref.type === 'float16' ? halfToFloat : ref.type === 'bfloat16' ? bf16ToFloat : Number;
  let diff = 0, mx = 0;
  for (let i = 0; i < a.length; i++) {
    const x = num(Number(a[i])), y = num(Number(b[i]));
    if (Number.isNaN(x) || Number.isNaN(y)) { if (!(Number.isNaN(x) && Number.isNaN(y))) diff = Infinity; continue; }
    mx = Math.max(mx, Math.abs(x));
    diff = Math.max(diff, Math.abs(x - y));
  }
  if (half && FLOAT.has(ref.type) && Number.isFinite(diff)) return compareHalf(name, a, b, num, diff, mx);
  const ok = FLOAT.has(ref.type) ? diff <= REL_TOL * mx : diff === 0;
  return { ok, diff, ref: mx, why: ok ? null : `output '${name}' max|diff| ${diff.toExponential(2)} vs max|ref| ${mx.toExponential(2)}` };
}

/**
 * The float16 bar, element by element: |a-b| <= max(HALF_ULPS ulps of ref,
 * REL_TOL * max|ref|). ulps: the largest |a-b| in ulps of the ref value, the
 * ulp floored at REL_TOL * max|ref| / HALF_ULPS (so the bar is ulps <= HALF_ULPS).
 */
function compareHalf(name, a, b, num, diff, mx) {
  let ulps = 0, over = 0, at = -1;
  const floor = (REL_TOL * mx) / HALF_ULPS;
  for (let i = 0; i < a.length; i++) {
    const x = num(Number(a[i])), y = num(Number(b[i]));
    if (Number.isNaN(x)) continue;
    const u = Math.abs(x - y) / Math.max(halfUlp(x), floor);
    if (u > ulps) ulps = u;
    if (u > HALF_ULPS) { over++; if (at < 0) at = i; }
  }
  const ok = over === 0;
  const why = ok ? null : `output '${name}' (float16 values) ${over} element(s) over max(${HALF_ULPS} ulps, ${REL_TOL} x max|ref|), first at ${at}: ${num(Number(a[at]))} vs ${num(Number(b[at]))}`;
  return { ok, diff, ref: mx, ulps: +ulps.toFixed(2), why };
}

/**
 * The twin rule, for a float16 model whose float16 outputs miss the ulp bar
 * against onnxruntime-node: every engine approximates the float32 twin (the
 * same graph and weights widened, bench/zoo/f32-twin.mjs; onnxruntime-node's
 * outputs). Per output, e = RMS(engine - twin) / RMS(twin); an engine's
 * error is the RMS of e over the float16 outputs. onnxruntime's own graph
 * optimization levels (TWIN_LEVELS beside 'all') move its error by ~10 %
 * from input to input, so a bar of "no larger than 'all' on this input" is
 * a coin flip between two equally good engines. hologram passes when its
 * error is no larger than the largest of onnxruntime's levels, and no
 * output's e exceeds the largest e of onnxruntime's levels on that output
 * by more than TWIN_SPREAD (the levels' own spread on one output: 1.22;
 * docs/zoo.md, "The twin rule"). `levels`: { all, extended, ... }.
 */
export const TWIN_LEVELS = ['extended', 'basic', 'disabled'];
export const TWIN_SPREAD = 1.25;
export function twinRule(names, levels, holoOut, twinOut) {
  const num = (type) => (type === 'float16' ? (x) => halfToFloat(Number(x)) : Number);
  const rel = (data, type, t) => {
    const fa = num(type), ft = num(t.type);
    let se = 0, st = 0;
    for (let i = 0; i < t.data.length; i++) { const tv = ft(t.data[i]); se += (fa(data[i]) - tv) ** 2; st += tv * tv; }
    return Math.sqrt(se / Math.max(st, Number.MIN_VALUE));
  };
  const errs = (get) => {
    const per = {};
    let ss = 0;
    for (const n of names) { per[n] = get(n); ss += per[n] ** 2; }
    return { per, all: Math.sqrt(ss / names.length) };
  };
  const ref = levels.all;
  for (const n of names) {
    const t = twinOut[n];
    if (!t || [...t.dims].join() !== [...ref[n].dims].join()) throw new Error(`the twin's output '${n}' is missing or shaped otherwise`);
  }
  const holo = errs((n) => rel(holoOut[n].data, ref[n].type, twinOut[n]));
  const ort = Object.fromEntries(Object.entries(levels).map(([l, out]) => [l, errs((n) => rel(out[n].data, out[n].type, twinOut[n]))]));
  const [level, top] = Object.entries(ort).reduce((m, x) => (x[1].all > m[1].all ? x : m));
  let worst = null;
  for (const n of names) {
    const bar = Math.max(...Object.values(ort).map((v) => v.per[n]));
    const r = holo.per[n] / Math.max(bar, Number.MIN_VALUE);
    if (!worst || r > worst.r) worst = { n, r };
  }
  const e3 = (x) => +x.toExponential(3);
  const summary = { holo: e3(holo.all), ort: Object.fromEntries(Object.entries(ort).map(([l, v]) => [l, e3(v.all)])), ort_max_level: level,
    worst_output: worst.n, worst_ratio: +worst.r.toFixed(3) };
  const ok = holo.all <= top.all && worst.r <= TWIN_SPREAD;
  const why = ok ? null : holo.all > top.all
    ? `twin rule: error vs the float32 twin ${holo.all.toExponential(3)} > onnxruntime's largest ${top.all.toExponential(3)} ('${level}')`
    : `twin rule: output '${worst.n}' error ${worst.r.toFixed(3)}x onnxruntime's largest on it (> ${TWIN_SPREAD})`;
  return { ok, summary, why };
}

const ARRAYS = { float32: Float32Array, float64: Float64Array, int64: BigInt64Array, int32: Int32Array, int8: Int8Array, uint8: Uint8Array, bool: Uint8Array, int16: Int16Array, uint16: Uint16Array, float16: Uint16Array, bfloat16: Uint16Array };

// onnxruntime-node's outputs depend only on the model, the seeded inputs and
// ORT's version: kept in a cache (one file per model, keyed by those), so a
// rerun of the zoo after a hologram change does not pay ORT's load and run
// again (vit_b_16: ~40 s on this box).
async function cachedReference(onnx, feeds, entry, cacheDir, level = 'all') {
  if (!cacheDir) return reference(onnx, feeds, level);
  const { createRequire } = await import('node:module');
  const ortVersion = createRequire(import.meta.url)('onnxruntime-node/package.json').version;
  const id = createHash('sha256').update(onnx).update(`|${entry.seed}|${JSON.stringify(entry.inputs)}|ort-node ${ortVersion}${level === 'all' ? '' : `|${level}`}`).digest('hex');
  const file = path.join(cacheDir, `${entry.key}${level === 'all' ? '' : `.${level}`}.ref`);
  if (fs.existsSync(file)) {
    const buf = fs.readFileSync(file);
    const hlen = buf.readUInt32LE(0);
    const head = JSON.parse(buf.subarray(4, 4 + hlen).toString('utf8'));
    if (head.id === id) {
      let off = 4 + hlen;
      const out = {};
      for (const o of head.outputs) {
        const bytes = new Uint8Array(o.bytes);
        bytes.set(buf.subarray(off, off + o.bytes));
        off += o.bytes;
        out[o.name] = { type: o.type, dims: o.dims, data: new ARRAYS[o.type](bytes.buffer) };
      }
      return { out, names: head.outputs.map((o) => o.name), ms: head.ms, cached: true };
    }
  }
  const ref = await reference(onnx, feeds, level);
  if (ref.names.every((n) => ARRAYS[ref.out[n].type])) {
    const outputs = ref.names.map((n) => ({ name: n, type: ref.out[n].type, dims: [...ref.out[n].dims].map(Number), bytes: ref.out[n].data.byteLength }));
    const head = Buffer.from(JSON.stringify({ id, ms: ref.ms, outputs }));
    const len = Buffer.alloc(4);
    len.writeUInt32LE(head.length);
    fs.mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}`;
    fs.writeFileSync(tmp, Buffer.concat([len, head, ...ref.names.map((n) => Buffer.from(ref.out[n].data.buffer, ref.out[n].data.byteOffset, ref.out[n].data.byteLength))]));
    fs.renameSync(tmp, file);
  }
  return ref;
}

async function reference(onnx, feeds, level = 'all') {
  const ort = await import('onnxruntime-node');
  const t0 = performance.now();
  const sess = await ort.InferenceSession.create(onnx, { executionProviders: ['cpu'], graphOptimizationLevel: level });
  const tf = {};
  for (const f of feeds) tf[f.name] = new ort.Tensor(f.dtype, f.data, f.shape);
  const out = await sess.run(tf);
  const t = ms(t0);
  await sess.release();
  return { out, names: Object.keys(out), ms: t };
}

/** The check of manifest entry `entry` (its file in `dir`) on runtime `rt`. */
export async function checkModel(entry, dir, { rt, holoOut = null, refCache = null } = {}) {
  const row = { key: entry.key, name: entry.name, opset: entry.opset, kind: entry.kind };
  const onnx = fs.readFileSync(path.join(dir, entry.file));
  row.onnx_mib = +(onnx.length / 2 ** 20).toFixed(1);
  const symbolic = entry.inputs.some((i) => i.dims.some((d) => typeof d === 'string'));
  let holo, t0 = performance.now();
  try {
    holo = convert(onnx).holo;
  } catch (e) {
    if (!symbolic) return { ...refused(row, 'convert', e), convert_ms: ms(t0) };
    row.symbolic_refusal = oneLine(e);
    row.shapes_fixed = Object.fromEntries(entry.inputs.map((i) => [i.name, i.shape]));
    t0 = performance.now();
    try {
      holo = convert(onnx, { shapes: row.shapes_fixed }).holo;
    } catch (e2) {
      return { ...refused(row, 'convert --shape', e2), convert_ms: ms(t0) };
    }
  }
  row.convert_ms = ms(t0);
  row.holo_mib = +(holo.length / 2 ** 20).toFixed(1);

  const feeds = new Feeder(entry.inputs, entry.seed).next();
  let ref;
  try {
    ref = await cachedReference(onnx, feeds, entry, refCache);
  } catch (e) {
    return { ...row, status: 'error', message: `onnxruntime-node: ${oneLine(e)}` };
  }
  row.ort_node_ms = ref.ms;
  if (ref.cached) row.ort_node_cached = true;

  let s, got;
  t0 = performance.now();
  try {
    s = rt.load(holo);
  } catch (e) {
    if (e?.code === 'UNSUPPORTED') return refused(row, 'load', e);
    return { ...row, status: 'error', message: `load: ${e?.code ?? ''} ${oneLine(e)}`.trim() };
  }
  row.load_ms = ms(t0);
  try {
    t0 = performance.now();
    got = s.run(Object.fromEntries(feeds.map((f) => [f.name, { data: f.data, shape: f.shape }])));
    row.holo_first_run_ms = ms(t0);
  } catch (e) {
    s.dispose();
    if (e?.code === 'UNSUPPORTED') return refused(row, 'run', e);
    return { ...row, status: 'error', message: `run: ${e?.code ?? ''} ${oneLine(e)}`.trim() };
  }
  row.kernels = s.kernelCount;
  s.dispose();

  let worst = null;
  let bad = [];
  const half = halfValuedOutputs(onnx);
  let halfUlps = null, halfOnly = true;
  for (const name of ref.names) {
    const c = compareOutput(name, ref.out[name], got[name], { half: half.has(name) || ref.out[name].type === 'float16' });
    if (!c.ok) { bad.push(c.why); if (c.ulps === undefined) halfOnly = false; }
    if (c.ulps !== undefined) halfUlps = Math.max(halfUlps ?? 0, c.ulps);
    if (c.diff !== undefined && (worst === null || c.diff / (c.ref || 1) > worst.rel)) worst = { output: name, rel: c.diff / (c.ref || 1), diff: c.diff, ref: c.ref };
  }
  if (worst) Object.assign(row, { max_diff_rel: +worst.rel.toExponential(2), max_abs_ref: +worst.ref.toExponential(2), worst_output: worst.output });
  if (halfUlps !== null) Object.assign(row, { half_outputs: half.size, max_half_ulps: halfUlps });
  // Only float16 values missed the ulp bar: judge hologram's error against
  // the float32 twin beside onnxruntime's own (the twin rule, docs/zoo.md)
  if (bad.length && halfOnly) {
    let tw;
    try {
      const twin = await cachedReference(float32Twin(onnx), feeds, { ...entry, key: `${entry.key}.f32twin` }, refCache);
      const levels = { all: ref.out };
      for (const l of TWIN_LEVELS) levels[l] = (await cachedReference(onnx, feeds, entry, refCache, l)).out;
      tw = twinRule(ref.names.filter((n) => half.has(n) || ref.out[n].type === 'float16'), levels, got, twin.out);
    } catch (e) {
      tw = { ok: false, why: `twin rule: ${oneLine(e)}` };
    }
    row.twin = tw.summary;
    if (tw.ok) { row.half_bar = 'twin'; bad = []; } else bad.push(tw.why);
  }
  if (bad.length) return { ...row, status: 'wrong', message: bad.slice(0, 3).join('; ') };
  // an all-zero reference (e.g. a zero-initialized head) passes any output
  // that is zero too: that check cannot fail, so it is no pass
  const floats = ref.names.filter((n) => FLOAT.has(ref.out[n].type));
  if (floats.length && floats.every((n) => !ref.out[n].data.some((x) => x !== 0)))
    return { ...row, status: 'error', message: 'harness: every float output of onnxruntime is all zeros, so the comparison cannot fail (rebuild the model: bench/zoo/build.py re-initializes zero heads)' };
  if (holoOut) {
    // the race times exactly this archive: it checks the digest before loading
    fs.mkdirSync(holoOut, { recursive: true });
    fs.writeFileSync(path.join(holoOut, `${entry.key}.holo`), holo);
    row.holo_sha256 = createHash('sha256').update(holo).digest('hex');
  }
  return { ...row, status: 'pass' };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const i = args.indexOf('--holo-out');
  const holoOut = i >= 0 ? args.splice(i, 2)[1] : null;
  const j = args.indexOf('--ref-cache');
  const refCache = j >= 0 ? args.splice(j, 2)[1] : null;
  const [dir, key] = args;
  const { loadManifest } = await import('./manifest.mjs');
  const entry = loadManifest(dir).find((e) => e.key === key);
  if (!entry) { console.error(`check.mjs: ${key} not in ${dir}/manifest.json`); process.exit(2); }
  const { init } = await import('../../bindings-js/index.js');
  const rt = await init(undefined, { variant: 'simd128' });
  let row;
  try {
    row = await checkModel(entry, dir, { rt, holoOut, refCache });
  } catch (e) {
    row = { key, status: 'error', message: `harness: ${oneLine(e)}` };
  }
  console.log(JSON.stringify(row));
  process.exit(0);
}
