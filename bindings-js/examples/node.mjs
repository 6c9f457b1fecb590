// node bindings-js/examples/node.mjs [model.holo] [warm-store-dir]
// Loads an archive with a directory warm store (shared with `holo --warm-store DIR`),
// runs it three ways and shows what content addressing saved.
import { readFileSync } from 'node:fs';
import { load, HologramError } from '../index.js';
import { NodeDirWarmStore } from '../stores/node-dir.js';

const [path = new URL('../../tests/fixtures/cnn.holo', import.meta.url), dir = '.holo-warm'] = process.argv.slice(2);
const session = await load(readFileSync(path), { warmStore: new NodeDirWarmStore(dir), memoryBudget: 64 << 20 });
console.log(`backend ${session.backend} (${session.backendIdentity}), ${session.kernelCount} kernels`);
console.log('inputs ', session.inputs.map((p) => `${p.name}: ${p.dtype}[${p.shape}]`).join(', '));
console.log('at load', JSON.stringify(session.counters)); // storeHits 1 / dispatches 0 on a warm start

// Feeds by name, as with ONNX Runtime; symbolic dims take 1 here.
const feeds = Object.fromEntries(session.inputs.map((p) => {
  const shape = p.shape.map((d) => (typeof d === 'number' ? d : 1));
  return [p.name, { data: new Float32Array(shape.reduce((a, b) => a * b, 1)).fill(0.5), shape }];
}));
for (const [name, t] of Object.entries(session.run(feeds))) console.log(`${name} ${t.dtype}[${t.shape}] ${t.label}`, Array.from(t.data.slice(0, 5), (v) => v.toFixed(4)).join(' '));

// The same inputs again: a memo hit, no kernel runs. Addressed: labels and views, no copy.
const [view] = session.executeAddressed(Object.values(feeds));
const kept = view.data.slice(); // a view is valid only until the next call into the session
console.log('repeat', session.counters.memoHits, 'memo hit(s),', kept.length, 'values');

try {
  session.execute([new Int32Array(3)]);
} catch (e) {
  if (!(e instanceof HologramError)) throw e;
  console.log(`refused: ${e.code}: ${e.message}`);
}
session.dispose();
