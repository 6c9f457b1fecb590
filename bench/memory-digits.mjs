// Issue 24's Node figure: the digit model (web-demo/model/digits.holo, the
// archive `make run` uses), N executions with distinct inputs in one Node
// process with the default options; every 1,000: resident values
// (session.residentBytes), the module's linear memory and process RSS.
//   node bench/memory-digits.mjs [N=20000] [archive]
//   HOLO_ENV=workerd node bench/memory-digits.mjs   (workerd's defaults, in Node)
import fs from 'node:fs';
import { init } from '../bindings-js/index.js';

const n = Number(process.argv[2] ?? 20000);
const path = process.argv[3] ?? 'web-demo/model/digits.holo';
const MiB = (b) => +(b / 1048576).toFixed(1);
const rt = await init();
const env = process.env.HOLO_ENV; // e.g. workerd: that environment's defaults
const s = rt.load(new Uint8Array(fs.readFileSync(path)), env ? { environment: env } : {});
const x = new Float32Array(28 * 28);
const t0 = performance.now();
const rows = [];
for (let i = 1; i <= n; i++) {
  for (let k = 0; k < 8; k++) x[(i * 8 + k) % x.length] = ((i * 2654435761 + k) >>> 0) / 2 ** 32; // distinct
  x[0] = i;
  s.execute([{ data: x, shape: [1, 1, 28, 28] }]);
  if (i % 1000 === 0) rows.push({ executions: i, residentMiB: MiB(s.residentBytes), linearMiB: MiB(rt.x.memory.buffer.byteLength), rssMiB: MiB(process.memoryUsage().rss) });
}
const c = s.counters;
console.table(rows);
console.log(JSON.stringify({ n, ms: Math.round(performance.now() - t0), memoHits: c.memoHits, evictions: c.evictions, limits: s.limits ?? null,
  maxResidentMiB: Math.max(...rows.map((r) => r.residentMiB)), maxLinearMiB: Math.max(...rows.map((r) => r.linearMiB)), maxRssMiB: Math.max(...rows.map((r) => r.rssMiB)) }));
