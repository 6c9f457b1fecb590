// Tree content labels (docs/holo-format.md §5, §7): the normative vectors,
// and the same label from every path that computes one -- the core's lanes
// on each module variant (simd128, scalar; relaxed where the engine has it), its threads, the host's
// node:crypto per leaf, the converter's constant digests -- against the spec
// computed independently (label-content.mjs), for random sizes around the
// chunk boundaries.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, features } from '../../bindings-js/index.js';
import { GraphBuilder, DT } from '../../compiler/graph.js';
import { writeHolo, constantDigest } from '../../compiler/holo-writer.js';
import { contentLabel, CHUNK } from './label-content.mjs';

const VECTORS = [
  [DT.u8, [65536], 'eb80ed9917ba1851b2430c9ea137668a3933e2ee23685896fc37b450fab7c26d'],
  [DT.u8, [65537], 'ad17fe63a39f1f91bc5a2c433e10d08adb9dccb33bd888a985a0ee170fcd680c'],
  [DT.u8, [229376], '503879ab2357176d950bb224b2bca662b5fd304ae1d27ceb47923eaf9fe272ce'],
  [DT.f32, [512, 512], '8d7786d2a805666d98d7c8270af8c67e542e450bc237a052adb6e69a563e43f8'],
];
const pattern = (n) => Uint8Array.from({ length: n }, (_, i) => i % 251);
const size = (dt, shape) => shape.reduce((a, b) => a * b, 1) * (dt === DT.f32 ? 4 : 1);

// Each input is also an output: its label is the input's content label.
function echo(dtype, rank) {
  const g = new GraphBuilder();
  const x = g.input('x', dtype, Array.from({ length: rank }, (_, i) => `d${i}`));
  g.output(x);
  return writeHolo(g.toJSON());
}

const runtimes = {
  'simd128 core': await init(undefined, { variant: 'simd128', hostHash: false }),
  'scalar core': await init(undefined, { variant: 'scalar', hostHash: false }),
  'threads 2 core': await init(undefined, { threads: 2, hostHash: false }),
  'simd128 host': await init(undefined, { variant: 'simd128' }),
};
// relaxed SIMD needs a flag in Node 20 (run.mjs's relaxed child has it)
if (features().relaxedSimd) runtimes['relaxed core'] = await init(undefined, { variant: 'relaxed', hostHash: false });

test('the normative vectors: the spec, the converter and every core path', () => {
  for (const [dt, shape, hex] of VECTORS) {
    const bytes = pattern(size(dt, shape));
    assert.is(contentLabel(dt, shape, bytes), `sha256:${hex}`, `spec ${shape}`);
    assert.is(constantDigest(dt, shape, bytes), hex, `converter ${shape}`);
    const holo = echo(dt, shape.length);
    const data = dt === DT.f32 ? new Float32Array(bytes.buffer) : bytes;
    for (const [name, rt] of Object.entries(runtimes)) {
      const s = rt.load(holo);
      const [y] = s.executeAddressed([{ data, shape }]);
      assert.is(y.label, `sha256:${hex}`, `${name} ${shape}`);
      s.dispose();
    }
  }
});

test('random sizes around chunk boundaries: every path gives the spec label', () => {
  let seed = 99;
  const rnd = () => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return seed >>> 0; };
  const holo = echo(DT.u8, 1);
  const sessions = Object.entries(runtimes).map(([n, rt]) => [n, rt.load(holo)]);
  const big = Uint8Array.from({ length: 9 * CHUNK + 200 }, () => rnd() & 255);
  let cases = 0;
  for (let k = 1; k <= 9; k++) {
    for (const d of [-1, 0, 1, (rnd() % 129) - 64, (rnd() % 4097) - 2048]) {
      const n = k * CHUNK + d, off = rnd() % 100, data = big.slice(off, off + n);
      const want = contentLabel(DT.u8, [n], data);
      assert.is(`sha256:${constantDigest(DT.u8, [n], data)}`, want, `converter ${n}`);
      for (const [name, s] of sessions) assert.is(s.executeAddressed([{ data, shape: [n] }])[0].label, want, `${name}, ${n} bytes`);
      cases++;
    }
  }
  assert.ok(cases >= 45);
  for (const [, s] of sessions) s.dispose();
});

test('a constant over one chunk: the converter digest verifies in the core; it shares the input label', () => {
  const bytes = pattern(3 * CHUNK + 5);
  const g = new GraphBuilder();
  const c = g.constant('w', DT.u8, [bytes.length], bytes);
  g.output(c);
  const holo = writeHolo(g.toJSON());
  for (const [name, rt] of Object.entries(runtimes)) {
    const s = rt.load(holo, { verifyConstants: true });
    const [y] = s.executeAddressed([]);
    assert.is(y.label, contentLabel(DT.u8, [bytes.length], bytes), name);
    s.dispose();
  }
});

test.after(() => { for (const rt of Object.values(runtimes)) rt.dispose?.(); });
test.run();
