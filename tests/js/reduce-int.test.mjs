// The Reduce ops on integer dtypes (kernels-wasm-simd/microkernels/
// reduce-int-scalar.c): ReduceMax/ReduceMin on i8, u8, i32, i64, u32, u64,
// bool and ReduceSum/ReduceProd/ReduceL1/ReduceSumSquare on i32, i64, u32,
// u64, in the axes-attribute form (opset 13) and the axes-input form
// (opset 18), keepdims 0/1, noop_with_empty_axes, empty reductions (the
// dtype's extremes, opset 18) and overflow (the exact value saturated to the
// dtype, as onnxruntime's double accumulator gives while it is exact),
// against a BigInt reference and, where onnxruntime-node has the kernel and
// computes exactly (32-bit sums, any Max/Min), onnxruntime itself.
// ReduceMean/L2/LogSum/LogSumExp on integers are refused with a message.
// ArgMax/ArgMin on the integer dtypes and f64 (ties, NaN, select_last_index)
// likewise.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, INT64 } from './onnx-build.mjs';

const rt = await init();
let seed = 2020;
const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;

// ONNX element type -> [name, bits, signed, typed array]
const DT = {
  2: ['uint8', 8, false, Uint8Array], 3: ['int8', 8, true, Int8Array], 6: ['int32', 32, true, Int32Array],
  7: ['int64', 64, true, BigInt64Array], 9: ['bool', 1, false, Uint8Array], 12: ['uint32', 32, false, Uint32Array],
  13: ['uint64', 64, false, BigUint64Array],
};
const MINMAX = [2, 3, 6, 7, 9, 12, 13], EXACT = [6, 7, 12, 13];

/** n values of dt: mostly small, some at the extremes (overflow and order). */
function values(dt, n) {
  const [, bits, signed, A] = DT[dt];
  const big = A === BigInt64Array || A === BigUint64Array;
  const lo = bits === 1 ? 0n : signed ? -(1n << BigInt(bits - 1)) : 0n, hi = bits === 1 ? 1n : signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
  const out = Array.from({ length: n }, () => {
    const r = next();
    if (bits === 1) return r < 0.5 ? 0n : 1n;
    if (r < 0.08) return lo;
    if (r < 0.16) return hi;
    return BigInt(Math.floor(next() * 41) - (signed ? 20 : 0));
  });
  return big ? A.from(out) : A.from(out, Number);
}

/** The BigInt reference: reduce x (shape) over the axes (sorted, nonnegative). */
function reference(op, dt, x, shape, axes, keep) {
  const [, bits, signed] = DT[dt];
  const lo = bits === 1 ? 0n : signed ? -(1n << BigInt(bits - 1)) : 0n, hi = bits === 1 ? 1n : signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
  const outShape = shape.map((d, i) => (axes.includes(i) ? 1 : d));
  const n = outShape.reduce((a, b) => a * b, 1);
  const acc = new Array(n).fill({ ReduceMax: lo, ReduceMin: hi, ReduceProd: 1n }[op] ?? 0n);
  const strides = outShape.map((_, i) => outShape.slice(i + 1).reduce((a, b) => a * b, 1));
  const total = shape.reduce((a, b) => a * b, 1);
  for (let f = 0; f < total; f++) {
    let rem = f, o = 0;
    for (let i = shape.length - 1; i >= 0; i--) {
      const c = rem % shape[i];
      rem = Math.floor(rem / shape[i]);
      if (!axes.includes(i)) o += c * strides[i];
    }
    const v = BigInt(x[f]);
    const a = acc[o];
    acc[o] = ({
      ReduceMax: v > a ? v : a, ReduceMin: v < a ? v : a, ReduceSum: a + v, ReduceProd: a * v,
      ReduceSumSquare: a + v * v, ReduceL1: a + (v < 0n ? -v : v),
    }[op]);
  }
  const sat = (v) => (v < lo ? lo : v > hi ? hi : v);
  return { data: acc.map(sat), shape: keep ? outShape : shape.filter((_, i) => !axes.includes(i)) };
}

function model(op, dt, shape, { opset, axes, keep, noop }) {
  const b = new OnnxBuilder(opset);
  b.input('x', dt, shape);
  const attrs = { keepdims: keep ? 1 : 0 };
  if (noop) attrs.noop_with_empty_axes = 1;
  const input = opset >= 18 || op === 'ReduceSum';
  const ins = ['x'];
  if (axes && input) { b.init('axes', INT64, [axes.length], axes); ins.push('axes'); }
  if (axes && !input) attrs.axes = axes;
  b.node(op, ins, ['y'], attrs).output('y', dt, null);
  return b.bytes();
}

async function viaOrt(bytes, dt, x, shape) {
  try {
    const s = await ort.InferenceSession.create(bytes, { logSeverityLevel: 3 });
    const t = dt === 9 ? new ort.Tensor('bool', Uint8Array.from(x), shape) : new ort.Tensor(DT[dt][0], x, shape);
    return (await s.run({ x: t })).y;
  } catch (e) {
    if (/NOT_IMPLEMENTED|Could not find an implementation|not supported/i.test(String(e.message))) return null;
    throw e;
  }
}

function viaHolo(bytes, x, shape) {
  const h = rt.load(convert(bytes).holo);
  try {
    return h.run({ x: { data: x, shape } }).y;
  } finally {
    h.dispose();
  }
}

const FORMS = [
  { opset: 13, axes: [1], keep: true }, { opset: 13, axes: [0, 2], keep: false }, { opset: 13, keep: true },
  { opset: 18, axes: [-1], keep: false }, { opset: 18, axes: [2, 0], keep: true }, { opset: 18, keep: false },
  { opset: 18, axes: [], keep: true, noop: true },
];

test('integer Reduce ops: every dtype the spec lists, both axes forms, keepdims, noop, against BigInt and onnxruntime', async () => {
  let cases = 0, ortCases = 0;
  const ops = [...['ReduceMax', 'ReduceMin'].map((op) => [op, MINMAX]),
    ...['ReduceSum', 'ReduceProd', 'ReduceL1', 'ReduceSumSquare'].map((op) => [op, EXACT])];
  for (const [op, dts] of ops) {
    for (const dt of dts) {
      for (const form of FORMS) {
        const opset = dt === 9 ? 20 : form.opset; // bool joined ReduceMax/Min at opset 20
        const shape = [3, 4, 5];
        const x = values(dt, 60);
        const bytes = model(op, dt, shape, { ...form, opset });
        const what = `${op} ${DT[dt][0]} ${JSON.stringify({ ...form, opset })}`;
        const got = viaHolo(bytes, x, shape);
        const axes = form.noop ? [] : (form.axes ?? [0, 1, 2]).map((a) => (a + 3) % 3).sort();
        const want = reference(op, dt, x, shape, axes, form.keep);
        assert.equal([...got.shape], want.shape, `${what}: shape`);
        assert.equal([...got.data].map(BigInt), want.data, `${what}: values`);
        cases++;
        // onnxruntime sums in double: exact for 32-bit sets, rounded past 2^53
        const exact = ['ReduceMax', 'ReduceMin'].includes(op) || DT[dt][1] <= 32;
        const o = opset === 20 || !exact ? null : await viaOrt(bytes, dt, x, shape);
        if (o) {
          assert.equal([...got.data].map((v) => String(BigInt(v))), [...o.data].map((v) => String(BigInt(v))), `${what}: onnxruntime`);
          ortCases++;
        }
      }
    }
  }
  assert.ok(cases === 2 * 7 * 7 + 4 * 4 * 7, `${cases} cases`);
  assert.ok(ortCases >= 60, `${ortCases} cases onnxruntime computes too`);
});

test('64-bit Sum/Prod/L1/SumSquare equal onnxruntime while its double sums are exact; past 2^53 they stay exact', async () => {
  for (const op of ['ReduceSum', 'ReduceProd', 'ReduceL1', 'ReduceSumSquare']) {
    const x = BigInt64Array.from({ length: 12 }, () => BigInt(Math.floor(next() * 2001) - 1000));
    const bytes = model(op, 7, [3, 4], { opset: 18, axes: [1], keep: false });
    const o = await viaOrt(bytes, 7, x, [3, 4]);
    assert.equal([...viaHolo(bytes, x, [3, 4]).data], [...o.data], op);
  }
  // onnxruntime's double gives 2^53 here; the exact value is representable
  const bytes = model('ReduceSum', 7, [2], { opset: 18, keep: false });
  assert.equal([...viaHolo(bytes, BigInt64Array.of(2n ** 53n, 1n), [2]).data], [2n ** 53n + 1n]);
  // exact then saturated: the partial sum leaves the range and comes back
  assert.equal([...viaHolo(bytes, BigInt64Array.of(2n ** 63n - 1n, 2n ** 63n - 1n), [2]).data], [2n ** 63n - 1n]);
  const b4 = model('ReduceSum', 7, [4], { opset: 18, keep: false });
  const m = 2n ** 63n;
  assert.equal([...viaHolo(b4, BigInt64Array.of(m - 1n, m - 1n, -m, -m), [4]).data], [-2n]);
  const p3 = model('ReduceProd', 7, [3], { opset: 18, keep: false });
  assert.equal([...viaHolo(p3, BigInt64Array.of(2n ** 40n, -(2n ** 40n), 3n), [3]).data], [-m]);
  assert.equal([...viaHolo(p3, BigInt64Array.of(2n ** 40n, 2n ** 40n, 0n), [3]).data], [0n]);
});

test('integer ReduceMax/ReduceMin of an empty set: the dtype minimum/maximum (opset 18); Sum 0, Prod 1', () => {
  const want = {
    ReduceMax: { 3: -128n, 2: 0n, 6: -(2n ** 31n), 7: -(2n ** 63n), 12: 0n, 13: 0n },
    ReduceMin: { 3: 127n, 2: 255n, 6: 2n ** 31n - 1n, 7: 2n ** 63n - 1n, 12: 2n ** 32n - 1n, 13: 2n ** 64n - 1n },
    ReduceSum: { 6: 0n, 7: 0n }, ReduceProd: { 6: 1n, 13: 1n },
  };
  for (const [op, byDt] of Object.entries(want)) {
    for (const [dt, v] of Object.entries(byDt)) {
      const bytes = model(op, +dt, [2, 0, 3], { opset: 18, axes: [1], keep: false });
      const got = viaHolo(bytes, new DT[dt][3](0), [2, 0, 3]);
      assert.equal([...got.shape], [2, 3], `${op} ${DT[dt][0]}`);
      assert.equal([...got.data].map(BigInt), new Array(6).fill(v), `${op} ${DT[dt][0]}`);
    }
  }
});

test('ReduceMean/L2/LogSum/LogSumExp on integers and ReduceSum on i8: refused, naming the op and the dtype', () => {
  for (const [op, dt, re] of [['ReduceMean', 6, /ReduceMean: dtype i32 is not supported/], ['ReduceL2', 7, /ReduceL2: dtype i64/],
    ['ReduceLogSumExp', 6, /ReduceLogSumExp: dtype i32/], ['ReduceSum', 3, /ReduceSum: dtype i8 is not supported.*i32, i64, u32, u64/]]) {
    const bytes = model(op, dt, [2, 3], { opset: 18, axes: [1], keep: true });
    assert.throws(() => viaHolo(bytes, new DT[dt][3](6), [2, 3]), (e) => re.test(e.message), `${op} ${DT[dt][0]}`);
  }
});

/** First (last with `last`) index of the max (min) along axis 1 of [a, n, b]; a NaN wins. */
function argRef(x, [a, n, b], isMax, last, float) {
  const y = [];
  for (let o = 0; o < a; o++) {
    for (let r = 0; r < b; r++) {
      let best = 0, bv = x[o * n * b + r];
      for (let i = 1; i < n; i++) {
        const v = x[(o * n + i) * b + r];
        const vn = float && Number.isNaN(v), bn = float && Number.isNaN(bv);
        const better = bn ? last && vn : vn ? true : v === bv ? last : isMax ? v > bv : v < bv;
        if (better) { best = i; bv = v; }
      }
      y.push(BigInt(best));
    }
  }
  return y;
}

test('ArgMax/ArgMin on integers and f64: ties, NaN, select_last_index, keepdims, against a reference and onnxruntime', async () => {
  let ortCases = 0;
  const shape = [2, 7, 3];
  for (const dt of [2, 3, 6, 7, 12, 13, 11]) {
    for (const op of ['ArgMax', 'ArgMin']) {
      for (const [last, keep] of [[0, 1], [1, 0]]) {
        const float = dt === 11;
        const x = float ? Float64Array.from({ length: 42 }, () => (next() < 0.1 ? NaN : Math.floor(next() * 4)))
          : values(dt, 42).map((v) => (typeof v === 'bigint' ? v % 3n : v % 3)); // few levels: ties
        const b = new OnnxBuilder(13);
        b.input('x', dt, shape).node(op, ['x'], ['y'], { axis: 1, keepdims: keep, select_last_index: last }).output('y', INT64, null);
        const bytes = b.bytes();
        const got = viaHolo(bytes, x, shape);
        const what = `${op} ${float ? 'double' : DT[dt][0]} last=${last} keepdims=${keep}`;
        assert.equal([...got.shape], keep ? [2, 1, 3] : [2, 3], what);
        assert.equal([...got.data], argRef([...x], shape, op === 'ArgMax', last, float), what);
        let o = null;
        try {
          const s = await ort.InferenceSession.create(bytes, { logSeverityLevel: 3 });
          o = (await s.run({ x: new ort.Tensor(float ? 'float64' : DT[dt][0], x, shape) })).y;
        } catch (e) {
          if (!/Could not find an implementation|NOT_IMPLEMENTED/.test(String(e.message))) throw e;
        }
        if (o && !float) { // f64 (with NaN) against the reference only: onnxruntime's NaN rule is not numpy's
          assert.equal([...got.data], [...o.data], `${what}: onnxruntime`);
          ortCases++;
        }
      }
    }
  }
  assert.ok(ortCases >= 12, `${ortCases} cases onnxruntime computes too`);
});

test.run();
