// Worker side of replay.mjs: runs the oracle on each input it is sent.
import { parentPort } from 'node:worker_threads';
import { checkConvert } from './oracle.mjs';

parentPort.on('message', ({ id, bytes }) => {
  const t0 = performance.now();
  const r = checkConvert(new Uint8Array(bytes));
  parentPort.postMessage({ id, r: { ok: r.ok, outcome: r.outcome, message: r.message, finding: r.finding, stack: r.stack }, ms: performance.now() - t0 });
});
parentPort.postMessage({ ready: true });
