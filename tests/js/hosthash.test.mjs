// Host hashing (docs/decisions.md, host SHA-256): with hostHash on, the host's
// SHA-256 (node:crypto) labels execute-time inputs of >= 4 KiB; off, the
// core's own. Labels and bytesHashed must be identical either way, at every
// dtype, rank and size (0 bytes, rank 0, either side of the threshold), and
// a failing host hash must fall back to the core's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { init, Runtime, HologramError } from '../../bindings-js/index.js';
import { GraphBuilder, DT } from '../../compiler/graph.js';
import { writeHolo } from '../../compiler/holo-writer.js';
import { PKG } from './helpers.mjs';
import { contentLabel, CHUNK } from './label-content.mjs';

const THRESHOLD = 2048; // HOLO_HASHER_MIN_BYTES
const ELEM = { [DT.f32]: 4, [DT.u8]: 1, [DT.i64]: 8, [DT.f64]: 8, [DT.f16]: 2, [DT.bool]: 1, [DT.i16]: 2 };

// Each input is also an output (its label is then the content label itself)
// and feeds a computed node (a computed label over it).
function archive() {
  const g = new GraphBuilder();
  const a = g.input('a', DT.f32, ['a0', 'a1']);
  const b = g.input('b', DT.u8, ['b0']);
  const c = g.input('c', DT.f64, []);
  const d = g.input('d', DT.i64, ['d0', 'd1', 'd2']);
  const e = g.input('e', DT.f16, ['e0']);
  const f = g.input('f', DT.bool, ['f0', 'f1', 'f2', 'f3']);
  const h = g.input('h', DT.i16, ['h0']);
  for (const x of [a, b, c, d, e, f, h]) g.output(x);
  const [fa] = g.node('Flatten', [a], { name: 'flat', attrs: { axis: 1 } });
  const [r] = g.node('Relu', [a], { name: 'relu' });
  g.output(fa);
  g.output(r);
  return writeHolo(g.toJSON());
}
const DTS = [DT.f32, DT.u8, DT.f64, DT.i64, DT.f16, DT.bool, DT.i16];

let seed = 7;
const rnd = () => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return seed >>> 0; };
function tensor(dtype, shape) {
  const n = shape.reduce((p, q) => p * q, 1);
  const bytes = new Uint8Array(n * ELEM[dtype]);
  for (let i = 0; i < bytes.length; i++) bytes[i] = dtype === DT.bool ? rnd() & 1 : rnd() & 255;
  if (dtype === DT.f32) for (let i = 3; i < bytes.length; i += 4) bytes[i] &= 0x3f; // finite floats
  return { data: bytes, shape };
}
// Shapes whose byte sizes straddle the threshold: 0, tiny, T-1, T, T+1, large.
const near = (bytes, elem) => Math.max(0, Math.floor(bytes / elem));
function feeds(k) {
  const T = THRESHOLD;
  const sizes = [0, 1, T - 8, T, T + 8, 3 * T + 40, 1 << 20];
  const s = sizes[k % sizes.length];
  return [
    tensor(DT.f32, [2, near(s, 8)]),
    tensor(DT.u8, [[0, 1, T - 1, T, T + 1, 5 * T, 70000][k % 7]]),
    tensor(DT.f64, []),
    tensor(DT.i64, [1, 2, near(s, 16)]),
    tensor(DT.f16, [near(s, 2)]),
    tensor(DT.bool, [1, 1, 4, near(s, 4)]),
    tensor(DT.i16, [near(s + 2, 2)]),
  ];
}

// The content label as docs/holo-format.md §5 defines it (flat, or the tree
// form over one 64 KiB chunk), computed independently in label-content.mjs.
const holo = archive();
const rtOn = await init(undefined, { variant: 'simd128' });
const rtOff = await init(undefined, { variant: 'simd128', hostHash: false });

test('Node has a host SHA-256; hostHash: false turns it off; a non-boolean is refused', async () => {
  assert.is(rtOn.hostHash, true);
  assert.is(rtOff.hostHash, false);
  try {
    await init(undefined, { hostHash: 'yes' });
    assert.unreachable('accepted hostHash: "yes"');
  } catch (e) {
    assert.instance(e, HologramError);
    assert.is(e.code, 'ARG');
  }
});

test('labels and bytesHashed are identical with hostHash on and off, across dtypes, ranks and sizes', () => {
  const on = rtOn.load(holo), off = rtOff.load(holo);
  let hostSized = 0;
  for (let k = 0; k < 14; k++) {
    const ins = feeds(k);
    const c0 = [on.counters.bytesHashed, off.counters.bytesHashed];
    const a = on.executeAddressed(ins).map((o) => o.label);
    const b = off.executeAddressed(ins).map((o) => o.label);
    assert.equal(a, b, `case ${k}`);
    assert.is(on.counters.bytesHashed - c0[0], off.counters.bytesHashed - c0[1], `bytesHashed, case ${k}`);
    assert.is(on.counters.bytesHashed - c0[0], ins.reduce((p, t) => p + t.data.byteLength, 0));
    ins.forEach((t, i) => {
      assert.is(a[i], contentLabel(DTS[i], t.shape, t.data), `input ${i} of case ${k} (${t.data.byteLength} bytes)`);
      if (t.data.byteLength >= THRESHOLD) hostSized++;
    });
    // execute (owned outputs) and run (named feeds) label the same way
    assert.equal(on.execute(ins).map((o) => o.label), a);
    const named = Object.fromEntries(on.inputs.map((p, i) => [p.name, ins[i]]));
    assert.equal(Object.values(off.run(named)).map((o) => o.label), a);
  }
  assert.ok(hostSized > 20, `only ${hostSized} inputs were over the threshold`);
  on.dispose();
  off.dispose();
});

test('a repeat is a memo hit in either mode, with the same labels; sessions of both modes interleave', () => {
  const on = rtOn.load(holo), off = rtOff.load(holo);
  const ins = feeds(6); // 1 MiB-sized inputs: hashed by the host when on
  const first = [on.executeAddressed(ins).map((o) => o.label), off.executeAddressed(ins).map((o) => o.label)];
  assert.equal(first[0], first[1]);
  for (const s of [on, off, on, off]) {
    const m = s.counters.memoHits, d = s.counters.dispatches;
    assert.equal(s.executeAddressed(ins).map((o) => o.label), first[0]);
    assert.is(s.counters.memoHits, m + 1);
    assert.is(s.counters.dispatches, d);
  }
  // a copy of the inputs (other memory, same bytes) is the same key
  const copy = ins.map((t) => ({ data: t.data.slice(), shape: t.shape }));
  const m = on.counters.memoHits;
  assert.equal(on.executeAddressed(copy).map((o) => o.label), first[0]);
  assert.is(on.counters.memoHits, m + 1);
  on.dispose();
  off.dispose();
});

test('refinement state is labelled the same way in either mode', () => {
  const g = new GraphBuilder();
  const s = g.input('s', DT.f32, [64, 64]); // 16 KiB: over the threshold
  const [r] = g.node('Relu', [s], { name: 'relu' });
  g.output(r);
  const h = writeHolo(g.toJSON());
  const st = () => ({ s: Float32Array.from({ length: 4096 }, (_, i) => Math.sin(i)) });
  const plan = { passBudget: 4, validators: ['stableLabels'], contract: { inputs: ['s'], outputs: ['relu:out'] } };
  const [a, b] = [rtOn, rtOff].map((rt) => {
    const x = rt.load(h);
    const rep = x.refine(plan, st());
    const out = { status: rep.status, passes: rep.passes, labels: rep.stateLabels, bytesHashed: x.counters.bytesHashed };
    x.dispose();
    return out;
  });
  assert.is(a.status, 'converged');
  assert.equal(a, b);
});

test('a host hash that throws, returns a short digest or is absent falls back to the core: same labels', async () => {
  const module = await WebAssembly.compile(readFileSync(join(PKG, 'dist', 'hologram-simd128.wasm')));
  let calls = 0;
  const failing = new Runtime(module, 'simd128', { sha256: () => { calls++; throw new Error('no hash today'); } });
  assert.is(failing.hostHash, true);
  const wrongLen = new Runtime(module, 'simd128', { sha256: (alg) => { calls++; return { update() {}, digest: () => new Uint8Array(3) }; } });
  // counts digests: one per host call (a leaf continues a copy() of the leaf block's hash)
  const counted = (h) => ({ update(b) { h.update(b); return this; }, digest() { calls++; return h.digest(); }, copy() { return counted(h.copy()); } });
  const counting = new Runtime(module, 'simd128', { sha256: (alg) => counted(createHash(alg)) });
  const none = new Runtime(module, 'simd128');
  assert.is(none.hostHash, false);
  const ins = feeds(6);
  const want = rtOff.load(holo).executeAddressed(ins).map((o) => o.label);
  for (const rt of [failing, wrongLen, none, counting]) {
    const before = calls;
    const s = rt.load(holo);
    assert.equal(s.executeAddressed(ins).map((o) => o.label), want);
    // one host call per large input, one per leaf (64 KiB chunk) of a tree-labelled one
    const leafCalls = ins.reduce((n, t) => n + (t.data.byteLength < THRESHOLD ? 0 : t.data.byteLength > CHUNK ? Math.ceil(t.data.byteLength / CHUNK) : 1), 0);
    // (the failing fakes are also asked once for the leaf block's base hash)
    if (rt === counting) assert.is(calls - before, leafCalls, 'host calls');
    else if (rt !== none) assert.ok(calls - before >= leafCalls && calls - before <= leafCalls + 1, `host calls: ${calls - before}`);
    s.dispose();
  }
});

test.run();
