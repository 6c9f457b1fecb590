// The app's page: ?mode=page runs the job here, ?mode=worker in a module
// Web Worker (?archive=, ?threads=, ?wasm= a core module URL, ?variant=);
// the result lands in window.__holo for the test runner.
import { run } from './run.js';

const q = new URLSearchParams(location.search);
const job = { archive: q.get('archive') || 'mlp.holo', threads: Number(q.get('threads') || 1), wasm: q.get('wasm'), variant: q.get('variant') };

function inWorker() {
  const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  return new Promise((resolve) => {
    w.onmessage = (e) => { w.terminate(); resolve(e.data); };
    w.onerror = (e) => { w.terminate(); resolve({ ok: false, error: `the app's worker did not start: ${e.message || 'no message'}` }); };
    w.postMessage(job);
  });
}

(q.get('mode') === 'worker' ? inWorker() : run(job))
  .catch((e) => ({ ok: false, error: String((e && e.message) || e), code: e && e.code }))
  .then((r) => {
    globalThis.__holo = r;
    document.body.dataset.done = '1';
  });
