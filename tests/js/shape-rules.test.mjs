// The converter's shape inference (compiler/ir.js, compiler/shape-rules.js)
// against the reference outputs of the ONNX node suite: a shape it tells
// must be the shape onnx's reference implementation computed. A wrong shape
// would fold a wrong Shape/Size/Reshape constant downstream -- a wrong
// answer -- so every node test the converter maps is checked, with its
// small integer inputs (split sizes, starts/ends, axes, k, repeats ...) and
// one-element inputs made initializers, as exporters write them, so that the rules that need
// constants are exercised.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { convert } from '../../compiler/convert.js';
import { onnx, readTensor } from '../../compiler/onnx-reader.js';
import { MORE_SHAPE_RULES } from '../../compiler/shape-rules.js';

const DATA = process.env.HOLO_ONNX_DATA ?? '/usr/share/libonnx-testdata/data/node';
const INT_TYPES = new Set([6, 7]); // int32, int64
const have = fs.existsSync(DATA);

/** The model with its small integer inputs turned into initializers holding the test's values. */
function withConstInts(dir) {
  const mp = onnx.ModelProto.decode(fs.readFileSync(path.join(dir, 'model.onnx')));
  const g = mp.graph;
  const sets = fs.readdirSync(dir).filter((f) => f.startsWith('test_data_set_')).sort();
  if (!sets.length) return null;
  const set = path.join(dir, sets[0]);
  const inits = new Set((g.initializer ?? []).map((t) => t.name));
  const feeds = g.input.filter((i) => !inits.has(i.name));
  feeds.forEach((inp, k) => {
    const f = path.join(set, `input_${k}.pb`);
    if (!fs.existsSync(f)) return;
    const tp = onnx.TensorProto.decode(fs.readFileSync(f));
    const n = (tp.dims ?? []).reduce((a, d) => a * Number(String(d)), 1);
    // integer inputs up to 64 elements, and one-element inputs of any type (OneHot's depth, Range's bounds)
    if (!(INT_TYPES.has(tp.dataType) && n <= 64) && n !== 1) return;
    tp.name = inp.name;
    g.initializer.push(tp);
  });
  const outputs = g.output.map((o, k) => {
    const f = path.join(set, `output_${k}.pb`);
    return fs.existsSync(f) ? { name: o.name, dims: readTensor(fs.readFileSync(f)).dims.map(Number) } : null;
  });
  return { bytes: onnx.ModelProto.encode(mp).finish(), outputs, op: g.node.length === 1 ? g.node[0].opType : null };
}

/** Every node test: [told, wrong[], ruled ops seen]. */
function survey() {
  const wrong = [], ruled = new Set();
  let told = 0;
  for (const name of fs.readdirSync(DATA).sort()) {
    const dir = path.join(DATA, name);
    let m;
    try {
      m = withConstInts(dir);
    } catch {
      continue; // a model protobufjs cannot round-trip is the conformance suite's business
    }
    if (!m) continue;
    let report;
    try {
      ({ report } = convert(m.bytes, { runtime: null, checkBackend: false, fold: false }));
    } catch {
      continue; // refused: nothing inferred
    }
    for (const ref of m.outputs) {
      const got = report.outputs.find((o) => o.name === ref?.name)?.shape;
      if (!ref || !got || !got.every((d) => typeof d === 'number')) continue;
      told++;
      if (m.op && MORE_SHAPE_RULES.has(m.op)) ruled.add(m.op);
      if (got.join() !== ref.dims.join()) wrong.push(`${name} ${ref.name}: inferred [${got}], reference [${ref.dims}]`);
    }
  }
  return { told, wrong, ruled };
}

test('every output shape the converter infers for the ONNX node suite is the reference shape', () => {
  if (!have) {
    console.log(`  (skipped: no ONNX node suite at ${DATA}; make setup installs libonnx-testdata)`);
    return;
  }
  const { told, wrong, ruled } = survey();
  assert.equal(wrong, [], wrong.join('\n'));
  // the survey must have looked at something, and at the new rules in particular
  console.log(`  ${told} shapes told; ruled ops: ${[...ruled].sort().join(", ")}`);
  assert.ok(told > 400, `only ${told} shapes told`);
  for (const op of ['Split', 'Slice', 'TopK', 'Einsum', 'GatherElements', 'DepthToSpace', 'SpaceToDepth', 'Range', 'Trilu', 'OneHot', 'Resize'])
    assert.ok(ruled.has(op), `no ${op} test had its shape told (ruled: ${[...ruled].sort().join(', ')})`);
});

test.run();
