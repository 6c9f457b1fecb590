// The zoo's quantized and float16 variants (issue 21 item 4), made from its
// float exports in the project, with nothing downloaded:
//   qdq      static QDQ int8: every Conv / Gemm / MatMul with a constant
//            weight gets per-output-channel uint8 weights (DequantizeLinear),
//            an int32 bias at x_scale * w_scale, and QuantizeLinear ->
//            DequantizeLinear pairs on its activation input and its output,
//            the activation ranges calibrated by running the float model on
//            seeded inputs (onnxruntime-node, the model's own outputs plus
//            every tensor to be quantized)
//   dynamic  the dynamic int8 pattern transformers.js models carry: each
//            MatMul with a constant B becomes DynamicQuantizeLinear(A) ->
//            MatMulInteger(A_q, B_q, A_zp, B_zp) -> Cast -> Mul(A_scale *
//            B_scale), B per-tensor uint8
//   fp16     float initializers stored as float16, each widened by a Cast to
//            float where it is read (the float16-weight form of imgly's
//            ISNet): half the bytes, float arithmetic
//
//   node bench/zoo/quantize.mjs DIR KEY[:MODE,...]... [--modes qdq,dynamic,fp16] [--calib N] [--if-built]
//
// KEY:MODES picks modes per model (else --modes); --if-built skips keys the
// manifest does not have built (a partial `make zoo ZOO=...`).
//
// writes DIR/NAME.opN.MODE.onnx and adds NAME_MODE@N to DIR/manifest.json
// (same inputs, kind 'quantized (MODE)'), so `make zoo` checks each against
// onnxruntime-node on the same .onnx and races it against onnxruntime-web.
// Why JS rather than Debian's python3-onnx: onnx 1.12 cannot evaluate a
// graph (no ReferenceEvaluator before 1.13) and onnxruntime's python
// quantization tools are not packaged; calibration needs a runtime, and
// onnxruntime-node is the zoo's reference already. uint8 weights (not int8):
// onnxruntime's u8 x s8 kernels saturate int16 pair sums on AVX2 machines
// without VNNI (this one), which would make the reference itself inexact;
// u8 x u8 is exact there.
import fs from 'node:fs';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import ort from 'onnxruntime-node';
import { Feeder } from './inputs.mjs';
import { floatToHalf } from '../../compiler/half.js';

const { onnx } = onnxProto;
const FLOAT = 1, UINT8 = 2, INT32 = 6, FLOAT16 = 10;

function floats(t) {
  if (t.floatData?.length) return Float32Array.from(t.floatData);
  const r = t.rawData;
  const c = new Uint8Array(r.length);
  c.set(r);
  return new Float32Array(c.buffer);
}
const numel = (dims) => dims.reduce((a, b) => a * Number(b), 1);
const raw = (typed) => new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
const tensor = (name, dataType, dims, typed) => onnx.TensorProto.create({ name, dataType, dims, rawData: raw(typed) });
const node = (opType, input, output, attribute = []) => onnx.NodeProto.create({ opType, input, output, name: output[0], attribute });
const intAttr = (name, i) => onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i });

/** uint8 affine parameters covering [lo, hi] (0 always representable, as ONNX quantizers do). */
function affine(lo, hi) {
  lo = Math.min(lo, 0);
  hi = Math.max(hi, 0);
  const scale = hi > lo ? (hi - lo) / 255 : 1;
  const zp = Math.max(0, Math.min(255, Math.round(-lo / scale)));
  return { scale: Math.fround(scale), zp };
}

/** Per-channel uint8 weights along `axis` of W (dims), with their scales and zero points. */
function quantizeWeight(w, dims, axis) {
  const C = Number(dims[axis]), inner = dims.slice(axis + 1).reduce((a, b) => a * Number(b), 1), n = w.length;
  const lo = new Float64Array(C).fill(Infinity), hi = new Float64Array(C).fill(-Infinity);
  for (let i = 0; i < n; i++) {
    const c = Math.floor(i / inner) % C;
    lo[c] = Math.min(lo[c], w[i]);
    hi[c] = Math.max(hi[c], w[i]);
  }
  const p = [...lo].map((l, c) => affine(l, hi[c]));
  const q = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const { scale, zp } = p[Math.floor(i / inner) % C];
    q[i] = Math.max(0, Math.min(255, Math.round(w[i] / scale) + zp));
  }
  return { q, scales: Float32Array.from(p.map((x) => x.scale)), zps: Uint8Array.from(p.map((x) => x.zp)) };
}

/** The nodes whose weight (input 1) is an initializer, with the weight's channel axis. */
function weightedNodes(g, inits, ops) {
  const out = [];
  for (const n of g.node) {
    if (!ops.includes(n.opType) || !inits.has(n.input[1])) continue;
    const w = inits.get(n.input[1]);
    if (w.dataType !== FLOAT) continue;
    const transB = n.attribute.find((a) => a.name === 'transB')?.i ?? 0;
    const axis = n.opType === 'Conv' ? 0 : n.opType === 'Gemm' && Number(transB) ? 0 : 1;
    if (n.opType === 'MatMul' && w.dims.length !== 2) continue;
    out.push({ n, w, axis });
  }
  return out;
}

/** Min/max of each named tensor over `runs` seeded inputs of the float model. */
async function calibrate(bytes, entry, names, runs) {
  const m = onnx.ModelProto.decode(bytes);
  const have = new Set(m.graph.output.map((o) => o.name));
  for (const t of names) if (!have.has(t)) m.graph.output.push(onnx.ValueInfoProto.create({ name: t }));
  const s = await ort.InferenceSession.create(onnx.ModelProto.encode(m).finish(), { logSeverityLevel: 3 });
  const feeder = new Feeder(entry.inputs, entry.seed ^ 0x5eed);
  const range = new Map(names.map((t) => [t, [Infinity, -Infinity]]));
  for (let r = 0; r < runs; r++) {
    const feeds = Object.fromEntries(feeder.next().map((x) => [x.name, new ort.Tensor(x.dtype, x.data, x.shape)]));
    const out = await s.run(feeds, names);
    for (const t of names) {
      const v = range.get(t);
      for (const x of out[t].data) { if (x < v[0]) v[0] = x; if (x > v[1]) v[1] = x; }
    }
  }
  return range;
}

async function qdq(bytes, entry, runs) {
  const m = onnx.ModelProto.decode(bytes), g = m.graph;
  const inits = new Map(g.initializer.map((t) => [t.name, t]));
  const targets = weightedNodes(g, inits, ['Conv', 'Gemm', 'MatMul']);
  const acts = [...new Set(targets.flatMap(({ n }) => [n.input[0], n.output[0]]))];
  const range = await calibrate(bytes, entry, acts, runs);
  const qp = new Map(acts.map((t) => [t, affine(...range.get(t))]));
  const extra = [];
  const qdqPair = (t, p) => {
    const s = `${t}_q_scale`, z = `${t}_q_zp`;
    if (!inits.has(s)) {
      extra.push(tensor(s, FLOAT, [], Float32Array.of(p.scale)), tensor(z, UINT8, [], Uint8Array.of(p.zp)));
      inits.set(s, 1);
    }
    return { s, z };
  };
  const before = new Map(), after = new Map();
  for (const { n, w, axis } of targets) {
    const x = n.input[0], y = n.output[0], px = qp.get(x), wq = quantizeWeight(floats(w), w.dims, axis);
    const wn = `${n.input[1]}_quantized_${axis}`;
    if (!inits.has(wn)) {
      extra.push(tensor(wn, UINT8, w.dims, wq.q), tensor(`${wn}_scale`, FLOAT, [wq.scales.length], wq.scales), tensor(`${wn}_zp`, UINT8, [wq.zps.length], wq.zps));
      inits.set(wn, 1);
    }
    const pre = [];
    const { s, z } = qdqPair(x, px);
    pre.push(node('QuantizeLinear', [x, s, z], [`${x}_${n.name}_q`]), node('DequantizeLinear', [`${x}_${n.name}_q`, s, z], [`${x}_${n.name}_dq`]));
    pre.push(node('DequantizeLinear', [wn, `${wn}_scale`, `${wn}_zp`], [`${wn}_dq`], [intAttr('axis', axis)]));
    if (n.input[2] && inits.has(n.input[2]) && (n.opType === 'Conv' || n.opType === 'Gemm')) {
      const b = floats(inits.get(n.input[2])), bs = Float32Array.from(wq.scales, (ws) => Math.fround(px.scale * ws));
      const bq = Int32Array.from(b, (v, c) => Math.round(v / bs[c % bs.length]));
      const bn = `${n.input[2]}_quantized_${n.name}`;
      // an int32 DequantizeLinear has no zero point (ONNX: it is 0)
      extra.push(tensor(bn, INT32, [b.length], bq), tensor(`${bn}_scale`, FLOAT, [bs.length], bs));
      pre.push(node('DequantizeLinear', [bn, `${bn}_scale`], [`${bn}_dq`], [intAttr('axis', 0)]));
      n.input[2] = `${bn}_dq`;
    }
    n.input[0] = `${x}_${n.name}_dq`;
    n.input[1] = `${wn}_dq`;
    before.set(n, pre);
    const o = qdqPair(y, qp.get(y));
    n.output[0] = `${y}_float`;
    after.set(n, [node('QuantizeLinear', [`${y}_float`, o.s, o.z], [`${y}_q`]), node('DequantizeLinear', [`${y}_q`, o.s, o.z], [y])]);
  }
  g.node = g.node.flatMap((n) => [...(before.get(n) ?? []), n, ...(after.get(n) ?? [])]);
  g.initializer.push(...extra);
  dropUnused(g);
  return { model: m, count: targets.length, note: `${targets.length} weighted nodes, ${acts.length} activations calibrated over ${runs} inputs` };
}

function dynamic(bytes) {
  const m = onnx.ModelProto.decode(bytes), g = m.graph;
  const inits = new Map(g.initializer.map((t) => [t.name, t]));
  const targets = weightedNodes(g, inits, ['MatMul']);
  const extra = [], repl = new Map();
  for (const { n, w } of targets) {
    const v = floats(w);
    let lo = Infinity, hi = -Infinity;
    for (const x of v) { lo = Math.min(lo, x); hi = Math.max(hi, x); }
    const p = affine(lo, hi), q = Uint8Array.from(v, (x) => Math.max(0, Math.min(255, Math.round(x / p.scale) + p.zp)));
    const a = n.input[0], y = n.output[0], k = n.name || y, wn = `${n.input[1]}_quantized`;
    extra.push(tensor(wn, UINT8, w.dims, q), tensor(`${wn}_scale`, FLOAT, [], Float32Array.of(p.scale)), tensor(`${wn}_zp`, UINT8, [], Uint8Array.of(p.zp)));
    repl.set(n, [
      node('DynamicQuantizeLinear', [a], [`${k}_a_q`, `${k}_a_scale`, `${k}_a_zp`]),
      node('MatMulInteger', [`${k}_a_q`, wn, `${k}_a_zp`, `${wn}_zp`], [`${k}_int`]),
      node('Cast', [`${k}_int`], [`${k}_int_f`], [intAttr('to', FLOAT)]),
      node('Mul', [`${k}_a_scale`, `${wn}_scale`], [`${k}_scale`]),
      node('Mul', [`${k}_int_f`, `${k}_scale`], [y]),
    ]);
  }
  g.node = g.node.flatMap((n) => repl.get(n) ?? [n]);
  g.initializer.push(...extra);
  dropUnused(g);
  return { model: m, count: targets.length, note: `${targets.length} MatMuls dynamically quantized` };
}

function fp16(bytes) {
  const m = onnx.ModelProto.decode(bytes), g = m.graph;
  const widen = [];
  let n = 0;
  for (const t of g.initializer) {
    if (t.dataType !== FLOAT || numel(t.dims) < 16) continue; // scalars and shape-like tensors stay float
    const v = floats(t), h = Uint16Array.from(v, floatToHalf);
    const name = t.name;
    t.name = `${name}_fp16`;
    t.dataType = FLOAT16;
    t.floatData = [];
    t.rawData = raw(h);
    widen.push(node('Cast', [t.name], [name], [intAttr('to', FLOAT)]));
    n++;
  }
  g.node = [...widen, ...g.node];
  return { model: m, count: n, note: `${n} initializers stored as float16` };
}

/** Removes initializers no node reads (the float weights a variant replaced). */
function dropUnused(g) {
  const read = new Set(g.node.flatMap((n) => n.input));
  for (const o of g.output) read.add(o.name);
  g.initializer = g.initializer.filter((t) => read.has(t.name));
}

const MODES = { qdq, dynamic, fp16 };

async function main(argv) {
  const [dir, ...rest] = argv;
  const opt = (k, d) => { const i = rest.indexOf(k); if (i < 0) return d; const v = rest[i + 1]; rest.splice(i, 2); return v; };
  const modes = opt('--modes', 'qdq,dynamic,fp16').split(',');
  const runs = Number(opt('--calib', '8'));
  const ifBuilt = rest.includes('--if-built');
  const keys = rest.filter((k) => k !== '--if-built');
  const usage = 'usage: node bench/zoo/quantize.mjs DIR KEY[:MODE,...]... [--modes qdq,dynamic,fp16] [--calib N] [--if-built]';
  if (!dir || !keys.length) throw new Error(usage);
  const mf = path.join(dir, 'manifest.json'), man = JSON.parse(fs.readFileSync(mf, 'utf8'));
  for (const spec of keys) {
    const [key, own] = spec.split(':');
    const want = own ? own.split(',') : modes;
    if (want.some((k) => !MODES[k])) throw new Error(`quantize: unknown mode in '${spec}' (qdq, dynamic, fp16)`);
    const e = man.models[key];
    if (!e || e.error || !fs.existsSync(path.join(dir, e.file))) {
      if (ifBuilt) { console.log(`${key}: not built, skipped`); continue; }
      throw new Error(`quantize: ${key} is not a built model in ${mf}`);
    }
    const bytes = fs.readFileSync(path.join(dir, e.file));
    for (const mode of want) {
      const { model, note, count } = await MODES[mode](bytes, e, runs);
      if (!count) { console.log(`${key} ${mode}: nothing to quantize (${note}), no variant`); continue; }
      const file = e.file.replace(/\.onnx$/, `.${mode}.onnx`), out = onnx.ModelProto.encode(model).finish();
      fs.writeFileSync(path.join(dir, file), out);
      const qkey = `${e.name}_${mode}@${e.opset}`;
      man.models[qkey] = { ...e, name: `${e.name}_${mode}`, file, bytes: out.length, kind: `quantized (${mode}) from ${key}`, quantized_from: key };
      console.log(`${qkey}: ${file} ${out.length} bytes (float ${bytes.length}): ${note}`);
    }
  }
  fs.writeFileSync(mf, JSON.stringify(man, null, 1));
}

await main(process.argv.slice(2));
