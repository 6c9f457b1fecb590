// The ladder of synthetic ONNX graphs of `make bench-overhead` (issue 40
// item 1), built with the converter tests' ONNX builder
// (tests/js/onnx-build.mjs, onnx-proto). Each rung is small enough that the
// fixed cost of one execution, not the arithmetic, decides its time:
//   ew<n>_<w>    n elementwise nodes on [1,w], cycling Add(+c) Mul(*c) Relu Sigmoid;
//   gemm<n>_<k>  n Gemm(transB=1, bias) nodes at [1,k] x [k,k] (torch's Linear);
//   ifsel_64     If on a bool input: then Add+Relu, else Mul+Sigmoid over [1,64]
//                (branches that cannot fail: the converter makes it a Where of both);
//   if_64        If on a bool input: then Gather(reversed columns)+Add, else
//                Mul+Sigmoid (a Gather may fail: the converter keeps the If construct);
//   loop<m>_64   Loop with a trip-count input M (fed m) over a body Add+Mul on [1,64]
//                (M is an input so the converter keeps the construct);
//   head15_96    a 15-node classifier head on [1,16,96]: Flatten, then three
//                Gemm(transB=1) + LayerNormalization + Relu blocks (1536->96, 96->96,
//                96->96), a Gemm to 1 and a Sigmoid (issue 40's 4x case).
// rungs() lists them; build(rung) returns the ONNX bytes; feeds(rung, rand)
// gives one run's inputs: x fresh from rand (every run, so the memo can never
// answer), the If's cond drawn from rand too, M fixed.
import onnxProto from 'onnx-proto';
import { OnnxBuilder, FLOAT, INT64, BOOL, G } from '../tests/js/onnx-build.mjs';

const { onnx } = onnxProto;

let seed = 7;
const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
const randf = (n, s) => Float32Array.from({ length: n }, () => rnd() * s);
const filled = (n, v) => new Float32Array(n).fill(v);

/** A float32 initializer as raw_data (the builder's float_data is slow for 512x512 weights). */
function rawInit(b, name, dims, data) {
  b.inits.push(onnx.TensorProto.create({ name, dataType: FLOAT, dims, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) }));
}

export function rungs() {
  const r = [];
  for (const w of [64, 512]) for (const n of [1, 4, 16, 64, 256]) r.push({ name: `ew${n}_${w}`, kind: 'ew', n, w, nodes: n });
  for (const k of [64, 512]) for (const n of [1, 4, 16]) r.push({ name: `gemm${n}_${k}`, kind: 'gemm', n, w: k, nodes: n });
  r.push({ name: 'ifsel_64', kind: 'if', sel: true, w: 64, nodes: 3 });
  r.push({ name: 'if_64', kind: 'if', sel: false, w: 64, nodes: 3 });
  for (const m of [1, 16]) r.push({ name: `loop${m}_64`, kind: 'loop', m, w: 64, nodes: 1 + 2 * m });
  r.push({ name: 'head15_96', kind: 'head', w: 16 * 96, out: 1, nodes: 15 });
  return r;
}

const EW = ['Add', 'Mul', 'Relu', 'Sigmoid'];

export function build(rung) {
  seed = 7;
  const { w } = rung;
  const b = new OnnxBuilder(rung.kind === 'head' ? 17 : 13).input('x', FLOAT, rung.kind === 'head' ? [1, 16, 96] : [1, w]);
  if (rung.kind === 'ew') {
    rawInit(b, 'a', [1, w], filled(w, 0.125));
    rawInit(b, 'm', [1, w], filled(w, 0.875));
    let cur = 'x';
    for (let i = 0; i < rung.n; i++) {
      const op = EW[i % 4], out = i === rung.n - 1 ? 'y' : `t${i}`;
      b.node(op, op === 'Add' ? [cur, 'a'] : op === 'Mul' ? [cur, 'm'] : [cur], [out]);
      cur = out;
    }
  } else if (rung.kind === 'gemm') {
    let cur = 'x';
    for (let i = 0; i < rung.n; i++) {
      rawInit(b, `w${i}`, [w, w], randf(w * w, 1 / Math.sqrt(w)));
      rawInit(b, `b${i}`, [w], randf(w, 0.1));
      const out = i === rung.n - 1 ? 'y' : `t${i}`;
      b.node('Gemm', [cur, `w${i}`, `b${i}`], [out], { transB: 1 });
      cur = out;
    }
  } else if (rung.kind === 'if') {
    b.input('cond', BOOL, []);
    rawInit(b, 'a', [1, w], filled(w, 0.125));
    rawInit(b, 'm', [1, w], filled(w, 0.875));
    if (!rung.sel) b.init('rev', INT64, [w], Array.from({ length: w }, (_, i) => w - 1 - i));
    const thenB = rung.sel
      ? new OnnxBuilder(13).node('Add', ['x', 'a'], ['ta']).node('Relu', ['ta'], ['ty']).output('ty', FLOAT, [1, w])
      : new OnnxBuilder(13).node('Gather', ['x', 'rev'], ['tg'], { axis: 1 }).node('Add', ['tg', 'a'], ['ty']).output('ty', FLOAT, [1, w]);
    const elseB = new OnnxBuilder(13).node('Mul', ['x', 'm'], ['em']).node('Sigmoid', ['em'], ['ey']).output('ey', FLOAT, [1, w]);
    b.node('If', ['cond'], ['y'], { then_branch: G(thenB), else_branch: G(elseB) });
  } else if (rung.kind === 'loop') {
    b.input('M', INT64, []);
    rawInit(b, 'a', [1, w], filled(w, 0.125));
    rawInit(b, 'm', [1, w], filled(w, 0.875));
    const body = new OnnxBuilder(13).input('i', INT64, []).input('cin', BOOL, []).input('s', FLOAT, [1, w]);
    body.node('Add', ['s', 'a'], ['sa']).node('Mul', ['sa', 'm'], ['s2']).node('Identity', ['cin'], ['cout']);
    body.output('cout', BOOL, []).output('s2', FLOAT, [1, w]);
    b.node('Loop', ['M', '', 'x'], ['y'], { body: G(body) });
  } else if (rung.kind === 'head') {
    b.node('Flatten', ['x'], ['f']);
    let cur = 'f', k = w;
    for (let i = 0; i < 3; i++) {
      rawInit(b, `w${i}`, [96, k], randf(96 * k, 1 / Math.sqrt(k)));
      rawInit(b, `b${i}`, [96], randf(96, 0.1));
      rawInit(b, `g${i}`, [96], randf(96, 1));
      rawInit(b, `be${i}`, [96], randf(96, 0.1));
      b.node('Gemm', [cur, `w${i}`, `b${i}`], [`h${i}`], { transB: 1 });
      b.node('LayerNormalization', [`h${i}`, `g${i}`, `be${i}`], [`n${i}`], { axis: -1 });
      b.node('Relu', [`n${i}`], [`r${i}`]);
      cur = `r${i}`, k = 96;
    }
    rawInit(b, 'wo', [1, 96], randf(96, 0.1));
    rawInit(b, 'bo', [1], randf(1, 0.1));
    b.node('Gemm', [cur, 'wo', 'bo'], ['logit'], { transB: 1 });
    b.node('Sigmoid', ['logit'], ['y']);
  } else throw new Error(`rung kind ${rung.kind}`);
  b.output('y', FLOAT, [1, rung.out ?? rung.w]);
  return b.bytes();
}

/**
 * One run's inputs by input name: { name: { type: 'float32'|'bool'|'int64', data, shape } }.
 * rand(n) gives n fresh floats.
 */
export function feeds(rung, rand) {
  const f = { x: { type: 'float32', data: rand(rung.w), shape: rung.kind === 'head' ? [1, 16, 96] : [1, rung.w] } };
  if (rung.kind === 'if') f.cond = { type: 'bool', data: Uint8Array.of(rand(1)[0] > 0 ? 1 : 0), shape: [] };
  if (rung.kind === 'loop') f.M = { type: 'int64', data: BigInt64Array.of(BigInt(rung.m)), shape: [] };
  return f;
}
