// The package's session API over the fixtures: the three execution forms
// agree, content addressing shows in the counters, and every failure is a
// HologramError with a stable code.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { load, init, HologramError } from '../../bindings-js/index.js';
import { fixture, inputsFor } from './helpers.mjs';

const throwsCode = (fn, code, re) => {
  try {
    fn();
  } catch (e) {
    assert.instance(e, HologramError, `expected a HologramError, got ${e}`);
    assert.is(e.code, code, `code of: ${e.message}`);
    if (re) assert.match(e.message, re);
    return e;
  }
  assert.unreachable(`expected HologramError ${code}`);
};
const rejectsCode = async (p, code, re) => {
  try {
    await p;
  } catch (e) {
    assert.instance(e, HologramError);
    assert.is(e.code, code, e.message);
    if (re) assert.match(e.message, re);
    return e;
  }
  assert.unreachable(`expected HologramError ${code}`);
};

test('execute, run and executeAddressed agree (every fixture)', async () => {
  for (const name of ['mlp', 'cse', 'shared', 'cone', 'symbolic', 'cnn']) {
    const s = await load(fixture(name));
    const ins = inputsFor(s);
    const a = s.execute(ins);
    const feeds = Object.fromEntries(s.inputs.map((p, i) => [p.name, ins[i]]));
    const b = s.run(feeds);
    const c = s.executeAddressed(ins);
    assert.equal(Object.keys(b), s.outputs.map((p) => p.name), name);
    s.outputs.forEach((p, k) => {
      assert.ok(a[k].data instanceof Float32Array, name);
      assert.match(a[k].label, /^sha256:[0-9a-f]{64}$/);
      assert.is(b[p.name].label, a[k].label, name);
      assert.is(c[k].label, a[k].label, name);
      assert.equal(Array.from(c[k].data), Array.from(a[k].data), name);
      assert.equal(b[p.name].data, a[k].data, name);
      assert.equal(c[k].shape, a[k].shape);
    });
    assert.ok(a[0].data.every(Number.isFinite), name);
    s.dispose();
  }
});

test('executeAddressed returns views into wasm memory; execute returns owned copies', async () => {
  const s = await load(fixture('mlp'));
  const ins = inputsFor(s);
  const [v] = s.executeAddressed(ins);
  const [o] = s.execute(ins);
  assert.is(v.data.buffer.byteLength > 64 * 1024, true, 'a view of linear memory');
  assert.is(o.data.buffer.byteLength, o.data.byteLength, 'an owned copy');
  assert.is(o.data.length, 10);
  assert.equal(o.shape, [1, 10]);
});

test('memo hit on repeat: no new dispatches; new input dispatches again', async () => {
  const s = await load(fixture('mlp'));
  const ins = inputsFor(s);
  const [y1] = s.execute(ins);
  const c1 = s.counters;
  assert.ok(c1.dispatches > 0);
  const [y2] = s.execute(inputsFor(s));
  const c2 = s.counters;
  assert.is(c2.memoHits, c1.memoHits + 1);
  assert.is(c2.dispatches, c1.dispatches);
  assert.is(y2.label, y1.label);
  assert.equal(y2.data, y1.data);
  s.execute(inputsFor(s, 2));
  assert.ok(s.counters.dispatches > c2.dispatches);
  assert.is(s.counters.executions, 3);
});

test('CSE: the cse fixture dispatches 2 kernels and elides 1', async () => {
  const s = await load(fixture('cse'));
  const x = new Float32Array(32).map((_, i) => i - 16);
  const [y] = s.execute([x]);
  assert.is(s.counters.dispatches, 2);
  assert.is(s.counters.elided, 1);
  assert.equal(Array.from(y.data), Array.from(x, (v) => 2 * Math.max(v, 0)));
});

test('symbolic shapes: the batch dim binds from the input shape', async () => {
  const s = await load(fixture('symbolic'));
  assert.equal(s.inputs[0].shape, ['batch', 4]);
  for (const batch of [1, 3, 7]) {
    const [y] = s.execute([{ data: new Float32Array(batch * 4).fill(1), shape: [batch, 4] }]);
    assert.equal(y.shape, [batch, 3]);
    assert.is(y.data.length, batch * 3);
  }
  assert.equal(s.run({ x: { data: new Float32Array(8), dims: [2n, 4n] } })['relu:out'].shape, [2, 3]);
  throwsCode(() => s.execute([new Float32Array(8)]), 'INPUT', /symbolic/);
  throwsCode(() => s.execute([{ data: new Float32Array(8), shape: [2, 5] }]), 'INPUT');
  throwsCode(() => s.execute([{ data: new Float32Array(8), shape: [2, -4] }]), 'INPUT', /invalid dimension/);
});

test('metadata and accessors', async () => {
  const s = await load(fixture('shared'));
  assert.equal(s.inputs.map((p) => [p.name, p.dtype, p.shape]), [['x', 'float32', [16]], ['z', 'float32', [16]]]);
  assert.is(s.outputs.length, 1);
  assert.is(s.inputCount, 2);
  assert.is(s.outputCount, 1);
  assert.is(s.kernelCount, 3);
  assert.match(s.archiveLabel, /^sha256:[0-9a-f]{64}$/);
  assert.ok(['relaxed', 'simd128', 'scalar'].includes(s.backend));
  assert.type(s.backendIdentity, 'string');
  s.execute(inputsFor(s));
  assert.ok(s.residentCount > 0);
  assert.ok(s.residentBytes > 0);
  assert.type(s.contentStoreLen, 'number');
  assert.equal(Object.keys(s.counters), ['executions', 'dispatches', 'elided', 'memoHits', 'storeHits', 'storeMisses', 'storeCorrupt', 'storePuts', 'bytesHashed', 'evictions', 'peakLiveBytes', 'peakResidentBytes', 'weightFetches', 'weightEvictions', 'weightBytesFetched', 'weightPeakBytes', 'weightStallNs', 'spills', 'promotions']);
  assert.is(s.verify(), true);
});

test('input forms: raw bytes, ArrayBuffer, plain arrays, explicit dtype', async () => {
  const s = await load(fixture('cse'));
  const x = Float32Array.from({ length: 32 }, (_, i) => i * 0.5 - 4);
  const ref = s.execute([x])[0].label;
  assert.is(s.execute([new Uint8Array(x.buffer)])[0].label, ref);
  assert.is(s.execute([x.buffer])[0].label, ref);
  assert.is(s.execute([Array.from(x)])[0].label, ref);
  assert.is(s.execute([{ data: x, dtype: 'float32', shape: [4, 8] }])[0].label, ref);
  assert.is(s.execute({ x })[0].label, ref, 'named feeds to execute');
});

test('bad archive -> FORMAT with a message; non-bytes -> ARG', async () => {
  await rejectsCode(load(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), 'FORMAT', /truncated|magic/);
  const bad = fixture('mlp');
  bad[0] ^= 0xff;
  await rejectsCode(load(bad), 'FORMAT', /./);
  const trunc = fixture('mlp').slice(0, 200);
  await rejectsCode(load(trunc), 'FORMAT', /./);
  await rejectsCode(load('not bytes'), 'ARG', /bytes/);
  await rejectsCode(load(fixture('mlp'), { memoryBudjet: 1 }), 'ARG', /unknown option 'memoryBudjet'/);
  await rejectsCode(load(fixture('mlp'), { warmStore: {} }), 'ARG', /get\(label\)/);
  await rejectsCode(load(fixture('mlp'), { variant: 'avx' }), 'ARG', /unknown variant/);
});

test('wrong input byte length, dtype or count -> INPUT naming the port', async () => {
  const s = await load(fixture('shared'));
  const ok = inputsFor(s);
  throwsCode(() => s.execute([ok[0], { data: new Float32Array(15) }]), 'INPUT', /input 1 \(z\).*60 bytes, expected 64/);
  throwsCode(() => s.execute([ok[0], new Int32Array(16)]), 'INPUT', /input 1 \(z\): a Int32Array does not match dtype float32/);
  throwsCode(() => s.execute([new Float64Array(16), ok[1]]), 'INPUT', /input 0 \(x\).*Float64Array/);
  throwsCode(() => s.execute([{ data: ok[0].data, dtype: 'int32' }, ok[1]]), 'INPUT', /input 0 \(x\): dtype 'int32'/);
  throwsCode(() => s.execute([ok[0]]), 'INPUT', /expected 2 inputs \(x, z\), got 1/);
  throwsCode(() => s.execute([ok[0], ok[1], ok[1]]), 'INPUT', /got 3/);
  throwsCode(() => s.execute([ok[0], null]), 'INPUT', /input 1 \(z\): missing/);
  throwsCode(() => s.execute([ok[0], 'z']), 'INPUT', /input 1 \(z\)/);
  throwsCode(() => s.run({ x: ok[0] }), 'INPUT', /missing feed for input 'z'/);
  throwsCode(() => s.run({ x: ok[0], z: ok[1], w: ok[1] }), 'INPUT', /unknown input 'w'/);
  throwsCode(() => s.execute(42), 'INPUT');
  // the session is fine after every refused call
  assert.is(s.execute(ok).length, 1);
});

test('disposed -> DISPOSED; dispose is idempotent', async () => {
  const s = await load(fixture('mlp'));
  const ins = inputsFor(s);
  s.execute(ins);
  s.dispose();
  s.dispose();
  assert.is(s.disposed, true);
  throwsCode(() => s.execute(ins), 'DISPOSED');
  throwsCode(() => s.run({ x: ins[0] }), 'DISPOSED');
  throwsCode(() => s.executeAddressed(ins), 'DISPOSED');
  throwsCode(() => s.refine({ passBudget: 1 }, ins), 'DISPOSED');
  throwsCode(() => s.counters, 'DISPOSED');
  throwsCode(() => s.kernelCount, 'DISPOSED');
  throwsCode(() => s.setMemoryBudget(0), 'DISPOSED');
  assert.is(s.inputs[0].name, 'x', 'metadata stays readable');
});

test('memoryBudget too small -> BUDGET naming bytes and bound; the session recovers', async () => {
  const s = await load(fixture('mlp'), { memoryBudget: 256 });
  assert.is(s.memoryBudget, 256);
  const ins = inputsFor(s);
  throwsCode(() => s.execute(ins), 'BUDGET', /needs 1024 bytes, the transient bound is 256 bytes/);
  throwsCode(() => s.execute(ins), 'BUDGET', /bound is 256/);
  s.memoryBudget = 4096;
  const [y] = s.execute(ins);
  const ref = await load(fixture('mlp'));
  assert.is(y.label, ref.execute(ins)[0].label);
  assert.equal(y.data, ref.execute(ins)[0].data);
  throwsCode(() => s.setMemoryBudget(-1), 'ARG');
  const big = await load(fixture('mlp'), { memoryBudget: 10n ** 12n });
  assert.is(big.execute(ins)[0].label, y.label);
});

test('a trap becomes HologramError TRAP and retires only its module instance', async () => {
  const rt = await init();
  const a = rt.load(fixture('cse'));
  const b = rt.load(fixture('cse'));
  const other = await load(fixture('cse'));
  const x = new Float32Array(32);
  a.execute([x]);
  // Provoke a trap in the core: free a pointer outside linear memory.
  const e = throwsCode(() => rt.x.holo_free(0xfffffff0), 'TRAP', /wasm trap in holo_free/);
  assert.ok(e.cause instanceof WebAssembly.RuntimeError);
  assert.ok(rt.poisoned);
  throwsCode(() => a.execute([x]), 'TRAP', /load the archive again/);
  throwsCode(() => b.counters, 'TRAP');
  throwsCode(() => rt.load(fixture('cse')), 'TRAP');
  a.dispose(); // allowed, frees nothing
  assert.is(other.execute([x]).length, 1, 'a separate load() has its own instance');
});

test('sessions on one Runtime share an instance and stay independent', async () => {
  const rt = await init();
  const s1 = rt.load(fixture('mlp'));
  const s2 = rt.load(fixture('cnn'));
  const y1 = s1.execute(inputsFor(s1))[0].label;
  const y2 = s2.execute(inputsFor(s2))[0].label;
  s1.dispose();
  assert.is(s2.execute(inputsFor(s2))[0].label, y2);
  const s3 = rt.load(fixture('mlp'));
  assert.is(s3.execute(inputsFor(s3))[0].label, y1);
});

test.run();
