// Runs an archive through the npm package and shows what content addressing
// does: the second execution with the same input is a memo hit.
import fs from 'node:fs';
import { load } from '../bindings-js/index.js';

const path = process.argv[2] ?? 'examples/default.holo';
const t0 = performance.now();
const session = await load(new Uint8Array(fs.readFileSync(path)));
const loadMs = performance.now() - t0;
console.log(`archive ${path}\nbackend ${session.backend}\nlabel ${session.archiveLabel}\nkernels ${session.kernelCount}`);
const inputs = session.inputs.map((p) => {
  const shape = p.shape.map((d) => (typeof d === 'number' ? d : 1));
  const n = shape.reduce((a, b) => a * b, 1);
  return { data: Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37)), shape };
});
const time = (f) => { const a = performance.now(); const r = f(); return [r, performance.now() - a]; };
const [out, ms] = time(() => session.execute(inputs));
for (const [i, o] of out.entries()) console.log(`output ${i} ${o.dtype} [${o.shape}] ${o.label}\n  ${Array.from(o.data.slice(0, 10), (v) => v.toFixed(5)).join(' ')}`);
const [, ms2] = time(() => session.execute(inputs));
console.log(`load_ms ${loadMs.toFixed(3)}  execute_ms ${ms.toFixed(3)}  repeat_ms ${ms2.toFixed(4)} (memo hit)`);
console.log('counters', JSON.stringify(session.counters));
session.dispose();
