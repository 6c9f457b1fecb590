// Constants under a weight budget through the npm package (docs/decisions.md
// 60): load(bytes | { fd } | source, { weightBudget }) reads constants by
// range as nodes need them, verified against their labels. On
// tests/fixtures/mlp.holo (203,304 constant bytes, the largest 131,072):
//   - bounded sessions (bytes, fd, a custom source) give the labels and bytes
//     of the pinned load, evicting, the peak within the budget;
//   - a budget under the largest constant is a BUDGET error, the session
//     stays usable (another execute fails the same way, then dispose);
//   - a corrupt constant byte is a FORMAT error, never an output; a source
//     whose read throws is an IO error.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, openSync, closeSync } from 'node:fs';
import { load } from '../../bindings-js/index.js';

const PATH = new URL('../fixtures/mlp.holo', import.meta.url);
const bytes = new Uint8Array(readFileSync(PATH));
const input = (salt) => [{ data: Float32Array.from({ length: 64 }, (_, i) => (i % 7) * 0.25 - 0.8 + salt), shape: [1, 64] }];
const same = (a, b) => {
  assert.is(b.label, a.label);
  assert.equal(Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength), Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength));
};

const ref = await load(bytes);
const refOut = [0, 0.125, 0.25, 0.375].map((s) => ref.execute(input(s))[0]);

test('bounded bytes sessions match the pinned load, under the budget', async () => {
  for (const weightBudget of [150 << 10, 300 << 10, 0]) {
    const s = await load(bytes, { weightBudget });
    assert.is(s.archiveLabel, ref.archiveLabel);
    [0, 0.125, 0.25, 0.375].forEach((salt, r) => same(refOut[r], s.execute(input(salt))[0]));
    const c = s.counters;
    if (weightBudget) {
      assert.ok(c.weightPeakBytes <= weightBudget, `peak ${c.weightPeakBytes} <= ${weightBudget}`);
      assert.ok(c.weightEvictions > 0);
      assert.ok(c.weightBytesFetched > 203304);
    } else {
      assert.is(c.weightEvictions, 0);
      assert.is(c.weightBytesFetched, 203304);
    }
    assert.ok(c.weightStallNs > 0);
    s.dispose();
  }
});

test('a file descriptor and a custom source read the same', async () => {
  const fd = openSync(PATH, 'r');
  try {
    const s = await load({ fd }, { weightBudget: 150 << 10 });
    same(refOut[1], s.execute(input(0.125))[0]);
    assert.is(s.counters.weightFetches, 6); // one execution: each constant read once
    s.dispose();
  } finally {
    closeSync(fd);
  }
  let reads = 0;
  const src = { size: bytes.byteLength, read(dst, off) { reads++; dst.set(bytes.subarray(off, off + dst.byteLength)); } };
  const s = await load(src, {});
  same(refOut[2], s.execute(input(0.25))[0]);
  assert.ok(reads > 6);
  s.dispose();
});

test('a budget under the largest constant is an error value; the session survives', async () => {
  const s = await load(bytes, { weightBudget: 131071 });
  for (let r = 0; r < 2; r++) {
    try {
      s.execute(input(0));
      assert.unreachable('must refuse');
    } catch (e) {
      assert.is(e.code, 'BUDGET');
      assert.match(e.message, /weight budget exceeded: constant w1/);
    }
  }
  assert.is(s.inputs.length, 1);
  s.dispose();
});

test('a corrupt constant is FORMAT, a failing read IO: never an output', async () => {
  const bad = bytes.slice();
  bad[bad.length - 1] ^= 0x40; // the last DATA byte: inside the last constant
  const s = await load(bad, { weightBudget: 0 });
  try {
    s.execute(input(0));
    assert.unreachable('must refuse');
  } catch (e) {
    assert.is(e.code, 'FORMAT');
    assert.match(e.message, /do not match its label/);
  }
  s.dispose();
  let left = Infinity;
  const src = { size: bytes.byteLength, read(dst, off) { if (left-- <= 0) throw new Error('disk gone'); dst.set(bytes.subarray(off, off + dst.byteLength)); } };
  const t = await load(src, { weightBudget: 150 << 10 });
  left = 1;
  try {
    t.execute(input(0));
    assert.unreachable('must refuse');
  } catch (e) {
    assert.is(e.code, 'IO');
  }
  left = Infinity;
  same(refOut[0], t.execute(input(0))[0]);
  t.dispose();
});

test.run();
