// ai.onnx.ml LabelEncoder's numeric forms (compiler/onnx-ops-ml-labelencoder.js)
// against onnxruntime-node: int64 / float keys to int64 / float values,
// ai.onnx.ml opsets 2 to 4 (attribute lists and opset 4's tensors), random
// tables of 1 to 1000 keys probed with hits and misses, defaults, duplicate
// keys, NaN / -0 / infinite keys, empty tables, X of rank 0 to 3. Outputs
// exact (labels and floats alike: a lookup computes nothing).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FLOAT, INT64, DOUBLE, Fs, Ss, T, F } from './onnx-build.mjs';
import { mlModel, agree, refuses, uni, randint } from './ml-helpers.mjs';
import { convert } from '../../compiler/convert.js';

const encoder = (attrs, xdt, ydt, dims, mlv) => mlModel((b) => {
  b.input('x', xdt, dims);
  b.node('LabelEncoder', ['x'], ['y'], attrs);
  b.output('y', ydt, null);
}, { mlv });

/** n distinct random keys of dtype dt (int64 spread over +-1e6; floats with fractions). */
function distinct(n, dt) {
  const s = new Set();
  while (s.size < n) s.add(dt === INT64 ? randint(2e6) - 1e6 : Math.fround(uni(-100, 100)));
  return [...s];
}

/** Probes: every key, and as many values not in the table. */
function probes(keys, dt, count) {
  const miss = dt === INT64 ? () => randint(2e6) - 1e6 + 0.5e7 : () => Math.fround(uni(-100, 100));
  return Array.from({ length: count }, (_, i) => (keys.length && i % 2 === 0 ? keys[randint(keys.length)] : miss()));
}

const table = (kdt, vdt, keys, values, form) => {
  if (form === 'tensor') return { keys_tensor: T(kdt, [keys.length], keys), values_tensor: T(vdt, [values.length], values) };
  return { [kdt === INT64 ? 'keys_int64s' : 'keys_floats']: kdt === INT64 ? keys : Fs(keys), [vdt === INT64 ? 'values_int64s' : 'values_floats']: vdt === INT64 ? values : Fs(values) };
};

test('LabelEncoder: int64 / float keys to int64 / float values, random tables of 1 to 1000 keys, ai.onnx.ml opsets 2 to 4, defaults', async () => {
  let cases = 0;
  for (const [kdt, vdt] of [[INT64, INT64], [INT64, FLOAT], [FLOAT, INT64], [FLOAT, FLOAT]]) {
    for (const M of [1, 2, 3, 5, 8, 17, 64, 1000]) {
      for (const [mlv, form, dflt] of [[2, 'attrs', false], [2, 'attrs', true], [3, 'attrs', true], [4, 'attrs', false], [4, 'tensor', false], [4, 'tensor', true]]) {
        const keys = distinct(M, kdt), values = distinct(M, vdt);
        const attrs = table(kdt, vdt, keys, values, form);
        if (dflt) {
          const d = vdt === INT64 ? randint(100) - 50 : Math.fround(uni(-5, 5));
          if (form === 'tensor') attrs.default_tensor = T(vdt, [1], [d]);
          else attrs[vdt === INT64 ? 'default_int64' : 'default_float'] = vdt === INT64 ? d : F(d);
        }
        const N = 3 * M + 4;
        await agree(`${kdt}->${vdt} M=${M} ml${mlv} ${form} default=${dflt}`, encoder(attrs, kdt, vdt, ['N'], mlv), { x: [kdt, [N], probes(keys, kdt, N)] }, ['y'], { tol: 0 });
        cases++;
      }
    }
  }
  assert.ok(cases === 192, `${cases}`);
});

test('LabelEncoder: duplicate keys (the first value wins, as onnxruntime), NaN keys (matched from opset 4 on), -0 and 0, infinities', async () => {
  for (const mlv of [2, 3, 4]) {
    await agree(`dup int64 ml${mlv}`, encoder({ keys_int64s: [5, 3, 5, 9, 3, 3], values_int64s: [1, 2, 3, 4, 5, 6] }, INT64, INT64, [8], mlv), { x: [INT64, [8], [5, 3, 9, 0, 5, 3, 4, 10]] }, ['y'], { tol: 0 });
    await agree(`dup float ml${mlv}`, encoder({ keys_floats: Fs([2.5, -1, 2.5, 0, -0]), values_floats: Fs([1, 2, 3, 4, 5]) }, FLOAT, FLOAT, [6], mlv), { x: [FLOAT, [6], [2.5, -1, 0, -0, 7, NaN]] }, ['y'], { tol: 0 });
    await agree(`NaN keys ml${mlv}`, encoder({ keys_floats: Fs([1, NaN, 3, NaN]), values_int64s: [10, 20, 30, 40] }, FLOAT, INT64, [5], mlv), { x: [FLOAT, [5], [NaN, 1, 3, 2, NaN]] }, ['y'], { tol: 0 });
    await agree(`inf keys ml${mlv}`, encoder({ keys_floats: Fs([Infinity, -Infinity, -0]), values_floats: Fs([10, 20, 30]) }, FLOAT, FLOAT, [6], mlv), { x: [FLOAT, [6], [Infinity, -Infinity, 0, -0, NaN, 1e30]] }, ['y'], { tol: 0 });
  }
  await agree('NaN key, tensors', encoder({ keys_tensor: T(FLOAT, [3], [NaN, 1, 2]), values_tensor: T(FLOAT, [3], [7, 8, 9]), default_tensor: T(FLOAT, [1], [NaN]) }, FLOAT, FLOAT, [5], 4), { x: [FLOAT, [5], [NaN, 1, 2, 3, -0]] }, ['y'], { tol: 0 });
});

test('LabelEncoder: empty tables (the default everywhere), the default float -0.0, X of rank 0 to 3', async () => {
  await agree('empty ml2', encoder({ keys_int64s: [], values_int64s: [] }, INT64, INT64, [4], 2), { x: [INT64, [4], [1, 2, 3, 4]] }, ['y'], { tol: 0 });
  await agree('empty ml2 float', encoder({ keys_floats: Fs([]), values_floats: Fs([]), default_float: F(2.5) }, FLOAT, FLOAT, [3], 2), { x: [FLOAT, [3], [1, NaN, 3]] }, ['y'], { tol: 0 });
  await agree('empty tensors', encoder({ keys_tensor: T(INT64, [0], []), values_tensor: T(INT64, [0], []), default_int64: 3 }, INT64, INT64, [2, 2], 4), { x: [INT64, [2, 2], [1, 2, 3, 4]] }, ['y'], { tol: 0 });
  // onnxruntime's default float is -0.0: compared by sign
  const bytes = encoder({ keys_int64s: [1], values_floats: Fs([5]) }, INT64, FLOAT, [2], 2);
  const { rt } = await import('./ml-helpers.mjs');
  const h = rt.load(convert(bytes).holo);
  try {
    const y = h.run({ x: { data: BigInt64Array.from([1n, 2n]), shape: [2] } }).y.data;
    assert.ok(y[0] === 5 && Object.is(y[1], -0), `${[...y]}`);
  } finally { h.dispose(); }
  const keys = distinct(20, INT64), values = distinct(20, INT64);
  for (const dims of [[], [7], [3, 5], [2, 3, 4]]) {
    const n = dims.reduce((a, b) => a * b, 1);
    await agree(`rank ${dims.length}`, encoder(table(INT64, INT64, keys, values, 'attrs'), INT64, INT64, dims, 2), { x: [INT64, dims, probes(keys, INT64, n)] }, ['y'], { tol: 0 });
  }
});

test('LabelEncoder: a 4096-key table is a binary search (nodes grow with log2 of the table, the archive with the table)', () => {
  const M = 4096, keys = distinct(M, INT64), values = distinct(M, INT64);
  const { holo, report } = convert(encoder(table(INT64, INT64, keys, values, 'attrs'), INT64, INT64, ['N'], 2));
  assert.ok(report.nodes <= 4 * Math.log2(M) + 8, `${report.nodes} nodes`);
  assert.ok(holo.length < 2 * M * 8 + 16384, `${holo.length} bytes`);
});

test('LabelEncoder refusals by name: strings, double / int32 tensors, lengths, X dtype', () => {
  const re = /ai\.onnx\.ml\.LabelEncoder.*string keys\/values need string tensors \(issue 41\)/;
  refuses('keys_strings', encoder({ keys_strings: Ss(['a', 'b']), values_int64s: [1, 2] }, INT64, INT64, [2], 2), re);
  refuses('values_strings', encoder({ keys_int64s: [1, 2], values_strings: Ss(['a', 'b']) }, INT64, INT64, [2], 2), re);
  refuses('classes_strings', encoder({ classes_strings: Ss(['a', 'b']) }, INT64, INT64, [2], 1), re);
  refuses('double', encoder({ keys_tensor: T(DOUBLE, [2], [1, 2]), values_tensor: T(DOUBLE, [2], [3, 4]) }, DOUBLE, DOUBLE, [2], 4), /LabelEncoder.*keys_tensor of float64 is not supported/);
  refuses('lengths', encoder({ keys_int64s: [1, 2, 3], values_int64s: [1, 2] }, INT64, INT64, [2], 2), /LabelEncoder.*3 keys and 2 values/);
  refuses('X dtype', encoder({ keys_int64s: [1, 2], values_int64s: [1, 2] }, FLOAT, INT64, [2], 2), /LabelEncoder.*X is float32, the keys int64/);
  refuses('tensor at opset 2', encoder({ keys_tensor: T(INT64, [2], [1, 2]), values_int64s: [1, 2] }, INT64, INT64, [2], 2), /keys_tensor is ai\.onnx\.ml opset 4/);
});

test.run();
