// `make bench-memo`, wasm half: memo-hit latency against graph size through
// the npm package (the copy in and out at the JS boundary is included and is
// the same for every graph size).
import fs from 'node:fs';
import { init } from '../bindings-js/index.js';

const dir = process.argv[2] ?? 'build/bench';
const rt = await init();
const median = (v) => v.sort((a, b) => a - b)[v.length >> 1];
const hits = {};
for (const n of [10, 1000, 10000]) {
  const s = rt.load(new Uint8Array(fs.readFileSync(`${dir}/chain-${n}.holo`)));
  const reps = n >= 10000 ? 5 : 21, full = [], hit = [];
  let x;
  for (let r = 0; r < reps; r++) {
    x = Float32Array.from({ length: 1024 }, (_, i) => ((i * 7 + r * 13) % 101) - 50);
    const a = performance.now(); s.executeAddressed([x]); full.push((performance.now() - a) * 1000);
  }
  for (let r = 0; r < 201; r++) {
    const a = performance.now(); s.executeAddressed([x]); hit.push((performance.now() - a) * 1000);
  }
  const c = s.counters;
  hits[n] = median(hit);
  console.log(JSON.stringify({ bench: 'memo', target: 'wasm', nodes: n, full_us: +median(full).toFixed(1), memo_hit_us: +hits[n].toFixed(2), dispatches: c.dispatches, memo_hits: c.memoHits, runs: reps }));
  s.dispose();
}
for (const n of [10, 1000, 10000]) console.log(`memo_hit_us n=${n} ${hits[n].toFixed(2)}`);
console.log(`memo_hit_ratio_10000_vs_10=${(hits[10000] / hits[10]).toFixed(3)}`);
