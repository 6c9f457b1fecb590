// Convert time of a model that folds a lot (docs/decisions.md 18): a
// torch-export-like graph, per layer Shape->Gather->Concat->Reshape chains, a
// Transpose'd constant weight, a Range->Gather position table and a Cast'd
// constant mask, all with concrete shapes so every fold runs through the
// kernels. Prints the CPU time (user+sys) median of N conversions.
//   node tests/js/fold-bench.mjs [layers=48] [channels=256] [tokens=64] [runs=7]
import { OnnxBuilder } from './onnx-build.mjs';
import { onnx } from '../../compiler/onnx-reader.js';
import { convert } from '../../compiler/convert.js';

const [L, C, T, N] = [48, 256, 64, 7].map((d, i) => Number(process.argv[2 + i] ?? d));
const H = 8;
const b = new OnnxBuilder(17);
b.input('x', 1, [4, T, C]);
const raw = (name, dt, dims, arr) => b.inits.push(onnx.TensorProto.create({ name, dataType: dt, dims, rawData: new Uint8Array(arr.buffer) }));
const i64 = (name, v) => raw(name, 7, [v.length], BigInt64Array.from(v.map(BigInt)));
let seed = 1;
const rnd = (n) => Float32Array.from({ length: n }, () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32 - 0.5) * 0.1);
i64('c0', [0]); i64('c1', [1]); i64('cH', [H]); i64('cD', [C / H]); i64('cC', [C]); i64('ax0', [0]);
raw('pos', 1, [T * 2, C], rnd(T * 2 * C));
raw('r0', 7, [], BigInt64Array.of(0n)); raw('r1', 7, [], BigInt64Array.of(1n));
let x = 'x';
for (let l = 0; l < L; l++) {
  const p = `l${l}_`;
  b.node('Shape', [x], [p + 's']);
  b.node('Gather', [p + 's', 'c0'], [p + 'b'], { axis: 0 });
  b.node('Gather', [p + 's', 'c1'], [p + 't'], { axis: 0 });
  b.node('Concat', [p + 'b', p + 't', 'cH', 'cD'], [p + 'shp'], { axis: 0 });
  b.node('Reshape', [x, p + 'shp'], [p + 'r']);
  b.node('Transpose', [p + 'r'], [p + 'tr'], { perm: [0, 2, 1, 3] });
  b.node('Transpose', [p + 'tr'], [p + 'tr2'], { perm: [0, 2, 1, 3] });
  b.node('Concat', [p + 'b', p + 't', 'cC'], [p + 'shp2'], { axis: 0 });
  b.node('Reshape', [p + 'tr2', p + 'shp2'], [p + 'x2']);
  raw(p + 'wt', 1, [C, C], rnd(C * C));
  b.node('Transpose', [p + 'wt'], [p + 'w'], { perm: [1, 0] });
  b.node('MatMul', [p + 'x2', p + 'w'], [p + 'm']);
  b.node('Squeeze', [p + 't', 'ax0'], [p + 'ts']);
  b.node('Range', ['r0', p + 'ts', 'r1'], [p + 'idx']);
  b.node('Gather', ['pos', p + 'idx'], [p + 'pe'], { axis: 0 });
  raw(p + 'mask', 9, [C], Uint8Array.from({ length: C }, (_, i) => (i % 3 ? 1 : 0)));
  b.node('Cast', [p + 'mask'], [p + 'mf'], { to: 1 });
  b.node('Mul', [p + 'm', p + 'mf'], [p + 'mm']);
  b.node('Add', [p + 'mm', p + 'pe'], [p + 'y']);
  x = p + 'y';
}
b.output(x, 1, [4, T, C]);
const bytes = b.bytes();
const cpu = [];
let r;
for (let i = 0; i < N; i++) {
  const c0 = process.cpuUsage();
  r = convert(bytes);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
}
cpu.sort((a, z) => a - z);
console.log(`fold-bench: ${L} layers, C=${C}, T=${T}: ${bytes.length} bytes ONNX -> ${r.holo.length} bytes, ${r.report.nodes} nodes`);
console.log(`  folded ${JSON.stringify(r.report.folded)}`);
console.log(`  convert CPU median ${cpu[N >> 1].toFixed(1)} ms (min ${cpu[0].toFixed(1)}, ${N} runs)`);
