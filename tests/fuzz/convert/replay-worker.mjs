// Worker side of replay.mjs: runs the oracle on each input it is sent.
import { parentPort } from 'node:worker_threads';
import { checkConvert } from './oracle.mjs';

// ms is the process's CPU time over the check, not wall time: the main thread
// only waits meanwhile, and on a loaded machine (make test beside other
// builds) wall time measures the neighbours; an input that must be fast
// (expect.json maxMs: no exponential fold chain) must be cheap in CPU.
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
parentPort.on('message', ({ id, bytes }) => {
  const t0 = cpuMs();
  const r = checkConvert(new Uint8Array(bytes));
  parentPort.postMessage({ id, r: { ok: r.ok, outcome: r.outcome, message: r.message, finding: r.finding, stack: r.stack }, ms: cpuMs() - t0 });
});
parentPort.postMessage({ ready: true });
