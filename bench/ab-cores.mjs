// Two builds of the core module raced in one process on the fixed-cost
// ladder's archives (bench/overhead.mjs writes them to build/bench-overhead):
// alternating executes, a changed input element each run (no memo hit),
// medians. For a change to the core whose effect is a few per cent, which
// two separate runs on a shared machine cannot resolve.
//   node bench/ab-cores.mjs OLD.wasm NEW.wasm [rung ...] [--ms 4000]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../bindings-js/index.js';

const args = process.argv.slice(2);
const at = args.indexOf('--ms');
const ms = at >= 0 ? +args.splice(at, 2)[1] : 4000;
const [a, b, ...rungs] = args;
if (!a || !b) { console.error('usage: node bench/ab-cores.mjs OLD.wasm NEW.wasm [rung ...] [--ms 4000]'); process.exit(2); }
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'build', 'bench-overhead');
const rts = [await init(fs.readFileSync(a), { variant: 'simd128' }), await init(fs.readFileSync(b), { variant: 'simd128' })];
const median = (v) => { const s = [...v].sort((x, y) => x - y); return s[s.length >> 1]; };

for (const name of rungs.length ? rungs : ['ew16_64', 'ew256_64', 'gemm16_64', 'head15_96']) {
  const file = path.join(dir, `${name}.holo`);
  if (!fs.existsSync(file)) { console.log(`${name}: no ${file} (run node bench/overhead.mjs first)`); continue; }
  const ss = rts.map((rt) => rt.load(fs.readFileSync(file)));
  const ins = ss[0].inputs;
  if (ins.some((p) => p.dtype !== 'float32')) { console.log(`${name}: skipped (an input is not float32)`); continue; }
  const feeds = ins.map((p) => {
    const shape = p.shape.map((d) => (typeof d === 'number' && d > 0 ? d : 1));
    const data = new Float32Array(shape.reduce((x, y) => x * y, 1)).map((_, i) => Math.sin(i));
    return { data, shape };
  });
  const t = [[], []];
  let k = 0;
  for (const end = performance.now() + ms; performance.now() < end;) {
    for (let j = 0; j < 2; j++) {
      feeds[0].data[0] = ++k;
      const t0 = performance.now();
      ss[j].execute(feeds);
      t[j].push(performance.now() - t0);
    }
  }
  const [ma, mb] = t.map(median);
  console.log(`${name}: old ${(ma * 1000).toFixed(1)} us, new ${(mb * 1000).toFixed(1)} us, new/old ${(mb / ma).toFixed(3)} (${t[0].length} runs each)`);
  for (const s of ss) s.dispose();
}
