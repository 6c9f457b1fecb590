// Weight budget on one model (docs/decisions.md 60): the same inputs through a
// pinned load and a load({ fd }, { weightBudget }), outputs' labels and bytes
// compared, median wall and CPU time of N executions each (distinct inputs:
// no memo hit), and the weight counters. Usage:
//   node bench/weights-budget.mjs MODEL.holo [BUDGET_MIB=32] [N=5]
import { readFileSync, openSync, closeSync } from 'node:fs';
import { load } from '../bindings-js/index.js';

const [file, mib = '32', reps = '5'] = process.argv.slice(2);
const budget = Number(mib) * 1024 * 1024, n = Number(reps);
const median = (a) => { const b = [...a].sort((x, y) => x - y); return (b[(b.length - 1) >> 1] + b[b.length >> 1]) / 2; };

async function timed(session, inputs) {
  const wall = [], cpu = [], outs = [];
  for (const ins of inputs) {
    const t0 = performance.now(), c0 = process.cpuUsage();
    outs.push(session.execute(ins));
    const c = process.cpuUsage(c0);
    wall.push(performance.now() - t0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu), outs };
}

const bytes = new Uint8Array(readFileSync(file));
const ref = await load(bytes);
const shape = ref.inputs[0].shape.map((d) => (typeof d === 'number' && d > 0 ? d : 1));
const numel = shape.reduce((a, b) => a * b, 1);
const inputs = Array.from({ length: n }, (_, r) => [{ data: Float32Array.from({ length: numel }, (_, i) => Math.sin(i * 0.37 + r)), shape }]);
const a = await timed(ref, inputs);
const fd = openSync(file, 'r');
const t0 = performance.now();
const s = await load({ fd }, { weightBudget: budget });
const loadMs = performance.now() - t0;
const b = await timed(s, inputs);
let same = true;
for (let r = 0; r < n; r++)
  for (let k = 0; k < a.outs[r].length; k++) {
    const x = a.outs[r][k], y = b.outs[r][k];
    if (x.label !== y.label || Buffer.compare(Buffer.from(x.data.buffer, x.data.byteOffset, x.data.byteLength), Buffer.from(y.data.buffer, y.data.byteOffset, y.data.byteLength)) !== 0) same = false;
  }
const c = s.counters;
console.log(JSON.stringify({ file, n, budget, identical: same, archiveLabelSame: s.archiveLabel === ref.archiveLabel,
  unbounded: { wallMs: +a.wall.toFixed(1), cpuMs: +a.cpu.toFixed(1), residentBytes: ref.residentBytes },
  bounded: { loadMs: +loadMs.toFixed(1), wallMs: +b.wall.toFixed(1), cpuMs: +b.cpu.toFixed(1), residentBytes: s.residentBytes,
    weightFetches: c.weightFetches, weightEvictions: c.weightEvictions, weightBytesFetched: c.weightBytesFetched,
    weightPeakBytes: c.weightPeakBytes, weightStallMsTotal: +(c.weightStallNs / 1e6).toFixed(1) },
  slowdownWall: +(b.wall / a.wall).toFixed(3), slowdownCpu: +(b.cpu / a.cpu).toFixed(3) }));
s.dispose();
closeSync(fd);
ref.dispose();
