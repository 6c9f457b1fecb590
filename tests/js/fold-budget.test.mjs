// The fold budget (docs/converter.md, "Fold budget"; the converter fuzzer's
// Range / ConstantOfShape timeouts): a fold whose output would exceed 4x its
// inputs + 64 KiB, or take the conversion's folds past 8x the file + 16 MiB,
// is not folded, and the decision is taken before the kernel runs; the node
// stays and the runtime computes it at load under the session's memory budget
// (BUDGET, not a hang); convert()'s trial load of its own archive is bounded.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { convert } from '../../compiler/convert.js';
import { foldNode, foldBudget, outputBytes, nodeWork } from '../../compiler/rewrites/fold-constants.js';
import { IR, DT, i64Bytes } from '../../compiler/ir.js';
import { init, load } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64 } from './onnx-build.mjs';

const rtScalar = await init(undefined, { variant: 'scalar' });
const MiB = 2 ** 20;

/** A fold runtime that records every load (and refuses it, so nothing is computed). */
function spyRuntime() {
  const loads = [];
  return { loads, rt: { load(bytes, opts) { loads.push(opts); const e = new Error('spy: refused'); e.code = 'KERNEL'; throw e; } } };
}

function rangeIR(start, limit, delta, dtype = DT.i64) {
  const ir = new IR();
  const put = (n, v) => ir.addConst(n, dtype, [], dtype === DT.i64 ? i64Bytes([v]) : new Uint8Array(new Float32Array([v]).buffer));
  put('a', start); put('l', limit); put('d', delta);
  ir.addValue({ name: 'y', dtype, shape: null, kind: 'node' }); // ir.js infers no Range shape
  return { ir, node: { op: 'Range', name: 'r', inputs: ['a', 'l', 'd'], outputs: ['y'], attrs: {} } };
}

function expandIR(dims, shapeKnown = true) {
  const ir = new IR();
  ir.addConst('one', DT.f32, [], new Uint8Array(new Float32Array([1]).buffer));
  ir.addConst('s', DT.i64, [dims.length], i64Bytes(dims));
  ir.addValue({ name: 'y', dtype: DT.f32, shape: shapeKnown ? dims : null, kind: 'node' });
  return { ir, node: { op: 'Expand', name: 'e', inputs: ['one', 's'], outputs: ['y'], attrs: {} } };
}

test('Range(0, 4e9, 33): the size comes from its operands and the fold is refused without running the kernel', () => {
  const { ir, node } = rangeIR(0, 4e9, 33);
  assert.is(outputBytes(ir, node), Math.ceil(4e9 / 33) * 8);
  const spy = spyRuntime();
  assert.is(foldNode(ir, node, spy), false);
  assert.is(spy.loads.length, 0, 'no fold archive was loaded');
  assert.equal(ir.foldStats.overBudget, { Range: 1 });
  assert.is(ir.get('y').kind, 'node');
  // a small Range still folds, through the kernel
  const small = rangeIR(0, 10, 3);
  assert.is(outputBytes(small.ir, small.node), 4 * 8);
  assert.is(foldNode(small.ir, small.node, { rt: rtScalar }), 'const');
  assert.equal([...new BigInt64Array(small.ir.get('y').bytes.slice().buffer)], [0n, 3n, 6n, 9n]);
  // an f32 Range is sized the same way; a zero delta has no size (the kernel decides)
  assert.is(outputBytes(...Object.values(rangeIR(0, 1e9, 0.5, DT.f32))), 2e9 * 4);
  assert.is(outputBytes(...Object.values(rangeIR(0, 5, 0))), null);
});

test('Expand to [24, 2^20] (ConstantOfShape): refused from the inferred shape, nothing loaded', () => {
  const { ir, node } = expandIR([24, 1048576]);
  assert.is(outputBytes(ir, node), 24 * MiB * 4);
  assert.ok(outputBytes(ir, node) > foldBudget(ir, node));
  const spy = spyRuntime();
  assert.is(foldNode(ir, node, spy), false);
  assert.is(spy.loads.length, 0);
});

test('an output the inference cannot size: the fold archive loads under memoryBudget = the node budget, and BUDGET refuses it before it is allocated', () => {
  const { ir, node } = expandIR([24, 1048576], false);
  assert.is(outputBytes(ir, node), null);
  const spy = spyRuntime();
  foldNode(ir, node, spy);
  assert.equal(spy.loads, [{ memoryBudget: foldBudget(ir, node) }]);
  // the real core: refused, counted, and its memory did not grow by the 96 MiB asked for
  const before = rtScalar.mem.byteLength, t0 = performance.now();
  const r2 = expandIR([24, 1048576], false);
  assert.is(foldNode(r2.ir, r2.node, { rt: rtScalar }), false);
  assert.equal(r2.ir.foldStats.overBudget, { Expand: 1 });
  assert.ok(rtScalar.mem.byteLength - before < 8 * MiB, `fold core memory grew by ${rtScalar.mem.byteLength - before} bytes`);
  assert.ok(performance.now() - t0 < 2000);
  // the same node within budget folds
  const r3 = expandIR([4, 4], false);
  assert.is(foldNode(r3.ir, r3.node, { rt: rtScalar }), 'const');
  assert.equal(r3.ir.get('y').shape, [4, 4]);
});

test("the conversion's folds together: ir.foldLimit stops a fold that would pass it", () => {
  const { ir, node } = expandIR([64, 64]); // 16 KiB, within the node budget
  ir.foldLimit = { total: 20000, used: 8000 };
  assert.is(foldNode(ir, node, { rt: rtScalar }), false);
  assert.is(ir.foldLimit.used, 8000);
  const b = expandIR([64, 64]);
  b.ir.foldLimit = { total: 20000, used: 0 };
  assert.is(foldNode(b.ir, b.node, { rt: rtScalar }), 'const');
  assert.is(b.ir.foldLimit.used, 16384);
});

test('a MatMul of more than 2^26 multiply-adds is not folded (its work outgrows its bytes)', () => {
  const ir = new IR();
  const n = 512;
  ir.addConst('a', DT.f32, [n, n], new Uint8Array(n * n * 4));
  ir.addValue({ name: 'y', dtype: DT.f32, shape: [n, n], kind: 'node' });
  const node = { op: 'MatMul', name: 'm', inputs: ['a', 'a'], outputs: ['y'], attrs: {} };
  assert.is(nodeWork(ir, node), n ** 3);
  const spy = spyRuntime();
  assert.is(foldNode(ir, node, spy), false);
  assert.is(spy.loads.length, 0);
});

function rangeModel(step) {
  const b = new OnnxBuilder(13);
  b.init('a', INT64, [], [0]).init('l', INT64, [], [4e9]).init('d', INT64, [], [step]);
  b.node('Range', ['a', 'l', 'd'], ['y']);
  b.output('y', INT64, null);
  return b.bytes();
}

test('convert(): Range(0, 4e9, 33) is a 1 KiB archive in well under a second; its trial load was refused BUDGET (will need the memory at load)', () => {
  // CPU time, not wall time: the bound must hold on a loaded CI box (the
  // unbounded fold took 58 s; a 3 s wall bound once failed under load).
  const c0 = process.cpuUsage();
  const r = convert(rangeModel(33));
  const c = process.cpuUsage(c0), ms = (c.user + c.system) / 1000;
  assert.ok(ms < 3000, `${ms} CPU ms`);
  assert.ok(r.holo.length < 4096, `${r.holo.length} bytes`);
  assert.equal(r.report.opsOut, { Range: 1 });
  assert.equal(r.report.folded.overBudget, { Range: 1 });
  assert.is(r.report.trialLoad.memoryBudget, 64 * MiB + 2 * r.holo.length);
  assert.is(r.report.trialLoad.warmCone, true);
  assert.match(r.report.loadNeedsMemory, /a value needs 969696976 bytes/);
});

test('the npm package: load() of the huge constant-cone node is a BUDGET error under memoryBudget, at once; without the cone, execute is', async () => {
  const { holo } = convert(rangeModel(33));
  const t0 = performance.now();
  try {
    await load(holo, { memoryBudget: 64 * MiB });
    assert.unreachable('loaded');
  } catch (e) {
    assert.is(e.name, 'HologramError');
    assert.is(e.code, 'BUDGET');
    assert.match(e.message, /a value needs 969696976 bytes, the bound is 67108864 bytes/);
  }
  const s = await load(holo, { memoryBudget: 64 * MiB, warmCone: false });
  try {
    s.execute([]);
    assert.unreachable('executed');
  } catch (e) {
    assert.is(e.code, 'BUDGET');
  } finally {
    s.dispose();
  }
  assert.ok(performance.now() - t0 < 2000);
});

test("convert(): a cone whose values fit the trial budget one by one but not together is trial-loaded without computing it", () => {
  const b = new OnnxBuilder(13);
  b.init('s', INT64, [1], [15 * MiB]);
  for (let k = 0; k < 8; k++) { b.node('ConstantOfShape', ['s'], [`y${k}`]); b.output(`y${k}`, FLOAT, null); }
  const r = convert(b.bytes());
  assert.is(r.report.trialLoad.warmCone, false);
  assert.is(r.report.trialLoad.coneBytes, 8 * 60 * MiB);
  assert.ok(r.holo.length < 16384);
  // two of them fit: the trial load computes the cone (120 MiB > 64 MiB: no; one: yes)
  const one = new OnnxBuilder(13);
  one.init('s', INT64, [1], [15 * MiB]).node('ConstantOfShape', ['s'], ['y']).output('y', FLOAT, null);
  const r1 = convert(one.bytes());
  assert.is(r1.report.trialLoad.warmCone, true);
  assert.is(r1.report.trialLoad.coneBytes, 60 * MiB);
  assert.is(r1.report.loadNeedsMemory, undefined);
});

test('convert(): a chain of Tiles x4 folds until the conversion limit (8x the file + 16 MiB), then stays', () => {
  const b = new OnnxBuilder(13);
  b.init('t0', FLOAT, [256], Array.from({ length: 256 }, (_, i) => i)).init('r', INT64, [1], [4]);
  for (let k = 0; k < 10; k++) b.node('Tile', [`t${k}`, 'r'], [`t${k + 1}`]);
  b.output('t10', FLOAT, null);
  const bytes = b.bytes();
  const r = convert(bytes);
  assert.equal(r.report.folded.runtime, { Tile: 6 }); // 4 KiB .. 4 MiB; the 16 MiB one would pass 16 MiB + 8x the file
  assert.ok(r.holo.length < 4 * MiB + 65536, `${r.holo.length} bytes`);
  assert.is(r.report.trialLoad.warmCone, false);
});

test.run();
