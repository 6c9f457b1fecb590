// torch.jit.script exports with data-dependent control flow (issue 19
// target: "torch.jit.script exports with If (both branches) and Loop
// (n = 0, 1, 5) pass"). The models are tests/fixtures/scripted/*.onnx, made
// by scripted.py beside them (Debian's torch 1.13): an If on the sign of a
// sum (the converter may inline it as a select: both branches are shape-
// equal), an If whose branches return different shapes (it must stay a
// run-time construct), a Loop over a run-time count and a Loop whose carried
// value grows a block per iteration. Each is converted once and run against
// onnxruntime-node on both branches / n = 0, 1, 5, at two batch sizes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { load } from '../../bindings-js/index.js';

const model = (f) => fs.readFileSync(new URL(`../fixtures/scripted/${f}.op17.onnx`, import.meta.url));
const signed = (n, sign, k) => Float32Array.from({ length: n }, (_, i) => sign * (0.25 + ((i * 7 + k) % 11) / 11) * (i % 3 === 2 ? -0.5 : 1));

async function check(name, cases) {
  const onnx = model(name);
  const { holo } = convert(onnx);
  const hs = await load(holo);
  const os = await ort.InferenceSession.create(onnx, { logSeverityLevel: 3 }); // the export's declared loop shape is stale: ORT warns
  for (const [what, feeds] of cases) {
    const want = await os.run(Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, new ort.Tensor(v.type, v.data, v.shape)])));
    const got = hs.execute(os.inputNames.map((k) => ({ data: feeds[k].data, shape: feeds[k].shape })));
    os.outputNames.forEach((n, k) => {
      const w = want[n], g = got[k];
      assert.equal(g.shape, [...w.dims], `${name} ${what}: shape`);
      for (let i = 0; i < w.data.length; i++) {
        const tol = 1e-5 * Math.max(1, Math.abs(w.data[i]));
        if (!(Math.abs(g.data[i] - w.data[i]) <= tol)) assert.unreachable(`${name} ${what} [${i}]: ${g.data[i]} vs ${w.data[i]}`);
      }
    });
  }
  hs.dispose();
  return holo;
}

const x = (b, sign, k = 0) => ({ type: 'float32', data: signed(b * 8, sign, k), shape: [b, 8] });
const n = (v) => ({ type: 'int64', data: BigInt64Array.of(BigInt(v)), shape: [] });
const branches = [['then, batch 2', { x: x(2, 1) }], ['else, batch 2', { x: x(2, -1) }], ['then, batch 1', { x: x(1, 1, 3) }], ['else, batch 1', { x: x(1, -1, 5) }]];
const counts = [0, 1, 5].flatMap((v) => [[`n=${v}, batch 2`, { x: x(2, 1, v), n: n(v) }], [`n=${v}, batch 1`, { x: x(1, -1, v), n: n(v) }]]);

test('If on the sign of a sum: both branches', async () => { await check('scripted_if', branches); });
test('If with branches of different shapes stays a run-time construct: both branches', async () => {
  const holo = await check('scripted_if_shape', branches);
  const { holo: again } = convert(model('scripted_if_shape'));
  assert.equal(Buffer.compare(Buffer.from(holo), Buffer.from(again)), 0, 'conversion is deterministic');
});
test('Loop over a run-time count: n = 0, 1, 5', async () => { await check('scripted_loop', counts); });
test('Loop whose carried value grows each iteration: n = 0, 1, 5', async () => { await check('scripted_grow', counts); });

test.run();
