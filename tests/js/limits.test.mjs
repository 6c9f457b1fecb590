// Limits and determinism under the wasm build (docs/bad-inputs.md,
// docs/fuzzing.md): size_t is 32-bit in wasm32, so shape products and
// offsets that fit natively must overflow into an error value (LIMIT or
// FORMAT), never a trap or a wrapped allocation; and the wasm builds of the
// scalar byte class give the native goldens of tests/c/test_determinism.c.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { load, features, HologramError } from '../../bindings-js/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, ROOT } from './helpers.mjs';

const VARIANTS = ['scalar', ...(features().simd ? ['simd128'] : [])];

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
    assert.instance(e, HologramError, `expected a HologramError, got ${e}`);
    assert.is(e.code, code, e.message);
    if (re) assert.match(e.message, re);
    return e;
  }
  assert.unreachable(`expected HologramError ${code}`);
};

// Section table entry of `id` in an archive (docs/holo-format.md §2).
function section(bytes, id) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = dv.getUint32(12, true);
  for (let i = 0; i < n; i++) {
    const e = 32 + 24 * i;
    if (String.fromCharCode(...bytes.subarray(e, e + 4)) === id) return { dv, off: Number(dv.getBigUint64(e + 8, true)) };
  }
  throw new Error(`no section ${id}`);
}
const valueRec = (bytes, v) => section(bytes, 'VALS').off + 4 + 80 * v;

for (const variant of VARIANTS) {
  test(`[${variant}] symbolic dims bound past 2^32 bytes: LIMIT, not a trap; the session stays usable`, async () => {
    const s = await load(fixture('symbolic'), { variant }); // x f32[batch, 4]
    const x = new Float32Array(8);
    for (const batch of [2 ** 31, 2 ** 28, 2 ** 32, 2 ** 53 - 1, 2n ** 62n, 2n ** 63n - 1n]) {
      throwsCode(() => s.execute([{ data: x, shape: [batch, 4] }]), 'LIMIT', /overflows/);
    }
    // 2^26 x 4 x 4 = 2^30 bytes fits a 32-bit size_t: the byte length is wrong instead
    throwsCode(() => s.execute([{ data: x, shape: [2 ** 26, 4] }]), 'INPUT', /32 bytes, expected 1073741824/);
    const [y] = s.execute([{ data: x, shape: [2, 4] }]);
    assert.equal(y.shape, [2, 3]);
    // zero-sized: batch 0
    const [z] = s.execute([{ data: new Float32Array(0), shape: [0, 4] }]);
    assert.equal(z.shape, [0, 3]);
    assert.is(z.data.length, 0);
  });

  test(`[${variant}] a constant whose byte size overflows 32 bits: FORMAT at load`, async () => {
    for (const [d0, d1] of [[1n << 16n, 1n << 16n], [1n << 31n, 2n], [1n << 40n, 1n << 40n]]) {
      const b = fixture('cone');
      const v = valueRec(b, 1); // w1 f32[8,8]
      const dv = new DataView(b.buffer);
      dv.setBigInt64(v + 16, d0, true);
      dv.setBigInt64(v + 24, d1, true);
      await rejectsCode(load(b, { variant }), 'FORMAT', /constant (size overflows|length does not match)/);
    }
  });

  test(`[${variant}] Conv pads making the output exceed 4 GiB: an error value, not a trap`, async () => {
    // cnn.holo's Conv has pads [1,1,1,1] (INTS payload in STRS): widen the last one.
    const b = fixture('cnn');
    const strs = section(b, 'STRS');
    const text = Buffer.from(b.subarray(strs.off, strs.off + 200)).toString('latin1');
    const at = strs.off + text.indexOf('pads') + 4; // payload follows the name
    const dv = new DataView(b.buffer);
    assert.is(dv.getBigInt64(at + 24, true), 1n, 'located the pads payload');
    const s = await load(b, { variant, memoryBudget: 1 << 20 });
    const x = { data: new Float32Array(3 * 12 * 12), shape: [1, 3, 12, 12] };
    for (const pad of [1n << 31n, 1n << 40n, (1n << 62n)]) {
      dv.setBigInt64(at + 24, pad, true);
      const t = await load(b, { variant, memoryBudget: 1 << 20 });
      let e;
      try {
        t.execute([x]);
      } catch (err) {
        e = err;
      }
      assert.instance(e, HologramError, `pads ${pad}: expected a HologramError, got ${e}`);
      assert.ok(['LIMIT', 'KERNEL', 'BUDGET'].includes(e.code), `pads ${pad}: ${e.code} ${e.message}`);
      t.dispose();
    }
    assert.is(s.execute([x]).length, 1);
  });

  test(`[${variant}] labels and bytes equal the native goldens (tests/c/test_determinism.c)`, async () => {
    // the native suite's table itself: one set of goldens, not two copies to drift apart
    const src = readFileSync(join(ROOT, 'tests', 'c', 'test_determinism.c'), 'utf8');
    const table = src.slice(src.indexOf('static const golden GOLDEN[]'), src.indexOf('};', src.indexOf('static const golden GOLDEN[]')));
    const GOLDEN = Object.fromEntries([...table.matchAll(/\{"(\w+)",\s*"(sha256:[0-9a-f]{64})",\s*"(sha256:[0-9a-f]{64})",\s*"(sha256:[0-9a-f]{64})"\}/g)].map((m) => [m[1], m.slice(2, 5)]));
    assert.equal(Object.keys(GOLDEN), ['mlp', 'cnn', 'cone', 'shared', 'symbolic'], 'the goldens parsed from test_determinism.c');
    const { createHash } = await import('node:crypto');
    for (const [name, [archive, label, content]] of Object.entries(GOLDEN)) {
      const s = await load(fixture(name), { variant });
      assert.is(s.backendIdentity, 'hologram-cpu/scalar/1');
      const ins = s.inputs.map((p, i) => {
        const shape = p.shape.map((d) => (typeof d === 'number' ? d : 3));
        const n = shape.reduce((a, b) => a * b, 1);
        return { data: Float32Array.from({ length: n }, (_, k) => (((k * 37 + i) % 101) - 50) / 64), shape };
      });
      const [y] = s.execute(ins);
      assert.is(s.archiveLabel, archive, `${name} archive label`);
      assert.is(y.label, label, `${name} output label`);
      // content label: holo/content/v1\0 | u32 dtype | u32 rank | i64 dims | bytes
      const head = new DataView(new ArrayBuffer(8 + 8 * y.shape.length));
      head.setUint32(0, 1, true);
      head.setUint32(4, y.shape.length, true);
      y.shape.forEach((d, k) => head.setBigInt64(8 + 8 * k, BigInt(d), true));
      const h = createHash('sha256');
      h.update(Buffer.from('holo/content/v1\0', 'latin1'));
      h.update(new Uint8Array(head.buffer));
      h.update(new Uint8Array(y.data.buffer, y.data.byteOffset, y.data.byteLength));
      assert.is(`sha256:${h.digest('hex')}`, content, `${name} output bytes (${variant})`);
      s.dispose();
    }
  });
}

test.run();
