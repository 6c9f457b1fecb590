// Child of tests/js/threads.test.mjs (not a test file itself): runs fault
// trials on the threaded module in its own process, so that a hang cannot
// block the test runner (the parent kills it on a per-trial timeout). One
// JSON line per trial on stdout.
//   node threads-fault-child.mjs <kind>:<trials>[:<threads>] ...
//   kind: trap | throw | terminate (at the worker's first task: mid-task)
//         | timed (terminate() after 0..180 ms: any moment of the call)
//         | mixed (odd trials terminate, even trials timed)
import { init } from '../../bindings-js/index.js';
import { GraphBuilder, DT } from '../../compiler/graph.js';
import { writeHolo } from '../../compiler/holo-writer.js';

const TEST_FAULT = Symbol.for('hologram.testFault');
const plan = process.argv.slice(2).map((a) => { const [kind, n, th] = a.split(':'); return { kind, trials: Number(n), threads: Number(th ?? 2) }; });
let seed = 0x9e3779b9;
const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
const randf = (n) => Float32Array.from({ length: n }, rnd);
const bytes = (t) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);

// A 3x3 Conv of 64 -> 64 channels at 212x212: ~1.7 G multiply-adds, about
// 200-400 ms here with threads: 2 (measured in the trial lines: normalMs).
const C = 64, H = 212;
const g = new GraphBuilder();
const x = g.input('x', DT.f32, [1, C, H, H]);
const w = g.constant('w', DT.f32, [C, C, 3, 3], randf(C * C * 9));
const [y] = g.node('Conv', [x, w], { attrs: { pads: [1, 1, 1, 1] } });
g.output(y);
const holo = writeHolo(g.toJSON());
const X = randf(C * H * H), Y = randf(C * H * H);
const rt1 = await init(undefined, { variant: 'simd128' });
const s1 = rt1.load(holo);
const refX = Buffer.from(bytes(s1.execute([X])[0])), refY = Buffer.from(bytes(s1.execute([Y])[0]));
s1.dispose();
{
  // The Conv's time on a healthy pool of 2 (the header line).
  const rt = await init(undefined, { threads: 2 });
  const s = rt.load(holo);
  const ms = [X, Y].map((v) => { const t0 = performance.now(); s.execute([v]); return Math.round(performance.now() - t0); });
  s.dispose();
  rt.dispose();
  process.stdout.write(JSON.stringify({ header: true, healthy2Ms: ms }) + '\n');
}

const attempt = (s, input) => {
  const t0 = performance.now();
  try {
    const out = s.execute([input])[0];
    return { ms: performance.now() - t0, out: Buffer.from(bytes(out)) };
  } catch (e) {
    return { ms: performance.now() - t0, code: e.code, message: e.message };
  }
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let n = 0;
for (const { kind, trials, threads } of plan) for (let t = 0; t < trials; t++, n++) {
  const t0 = performance.now();
  const rt = await init(undefined, { threads });
  const s = rt.load(holo);
  const line = { trial: n, kind, threads: rt.threads };
  const k = 1 + (t % (threads - 1)); // the worker that dies
  const timed = kind === 'timed' || (kind === 'mixed' && t % 2 === 0);
  line.startMs = Math.round(performance.now() - t0);
  if (timed) {
    line.afterMs = (n * 37) % 181;
    rt[TEST_FAULT](k, 'terminate', { afterMs: line.afterMs });
  } else rt[TEST_FAULT](k, kind === 'mixed' || kind === 'terminate3' ? 'terminate' : kind, { atTask: 1 });
  const first = attempt(s, X);
  line.ms = Math.round(first.ms);
  line.code = first.code ?? 'OK';
  line.message = first.message;
  if (first.out) {
    // terminate() landed after the call: it still must be reported, once, by a later call.
    line.okBytes = first.out.equals(refX);
    for (let i = 0; i < 400 && rt.poolStats.dead === 0; i++) await sleep(5);
    const second = attempt(s, X);
    line.laterCode = second.code ?? 'OK';
  }
  line.dead = rt.poolStats.dead;
  line.rerun = rt.poolStats.rerun;
  line.threadsAfter = rt.threads;
  // Usable afterwards: the same input (the failed call's values, re-run
  // tasks included) and, every 10th trial, a new one on the pool left.
  if (n % 5 === 0 || threads > 2) {
    const again = attempt(s, X);
    line.againCode = again.code ?? 'OK';
    line.againBytes = again.out ? again.out.equals(refX) : false;
  }
  if (n % 10 === 0 || threads > 2) {
    const other = attempt(s, Y);
    line.otherBytes = other.out ? other.out.equals(refY) : false;
    line.normalMs = Math.round(other.ms);
  }
  line.workerTasks = rt.poolStats.workerTasks;
  s.dispose();
  rt.dispose();
  line.trialMs = Math.round(performance.now() - t0);
  process.stdout.write(JSON.stringify(line) + '\n');
}
rt1.dispose();
