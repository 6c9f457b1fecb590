// The supervisor of a threaded Runtime's pool (docs/decisions.md 40). While
// a call runs, the calling thread is blocked inside it (Node: atomics.wait;
// a window spins), so it cannot receive a worker's 'exit' or 'error' event.
// This worker's event loop is free: it starts the pool workers
// (threads-worker.js), relays their start-up messages, and when one dies
// without quitting (an exit, an uncaught error, a terminate()) it marks the
// worker dead in shared memory and wakes the caller, which re-runs the dead
// worker's task (threads.c). It runs no wasm itself. No imports: this file
// is a worker entry on its own.
const isNode = typeof globalThis.process?.versions?.node === 'string';
const EXITED = 3; // threads.c: dead word kind of an exit the supervisor saw
// threads.js's workerErrorText for the bare Event a browser gives (this file has no imports).
const NOT_LOADED = 'the worker script threads-worker.js did not load or evaluate (the browser gives no reason: check that it is served, as JavaScript, ' +
  'from the URL the bundle asks for - the network panel shows it; on a cross-origin-isolated page it needs the same COEP-compatible headers)';

/** Marks worker `id` dead (once) and wakes the caller (threads.c: dead[], done). */
function markDead(memory, at, id, kind) {
  const a = new Int32Array(memory.buffer);
  if (Atomics.compareExchange(a, at.dead / 4 + id, 0, kind) !== 0) return;
  Atomics.add(a, at.dead / 4, 1);
  Atomics.notify(a, at.done / 4);
}

// workerUrl: threads-worker.js's URL, from threads.js (where bundlers see it).
function supervise({ module, memory, stacks, at, workerUrl }, Ctor, post) {
  let quitting = false;
  const pool = stacks.map((stackTop, i) => {
    const id = i + 1;
    const data = { module, memory, stackTop, id, at };
    const w = { id, worker: null, ready: false, exited: false, dead: false };
    w.worker = isNode ? new Ctor(new URL(workerUrl), { workerData: data }) : new Ctor(workerUrl, { type: 'module' });
    if (!isNode) w.worker.postMessage(data);
    // A worker that reached holo_worker_main and ends without quitting is
    // dead: mark it before anything else (the caller may be waiting on it).
    const die = (why) => {
      if (quitting || w.exited || w.dead) return;
      w.dead = true;
      if (!w.ready) return post({ id, error: why }); // it never started: the pool starts without it
      markDead(memory, at, id, EXITED);
      post({ id, died: why });
    };
    const onMessage = (d) => {
      if (!d) return;
      if (d.ready) { w.ready = true; post({ id, ready: true }); }
      else if (d.exited) w.exited = true;
      else if (d.error) { w.dead = true; post({ id, error: d.error }); }
      else if (d.died) { w.dead = true; post({ id, died: d.died }); }
      else if (d.terminateMe) kill(w, 'terminated (test fault)');
    };
    if (isNode) {
      w.worker.on('message', onMessage);
      w.worker.on('error', (e) => die(`error: ${(e && e.message) || e}`));
      w.worker.on('exit', (code) => die(`exited with code ${code}`));
    } else {
      w.worker.onmessage = (ev) => onMessage(ev.data);
      // A script that did not load is a bare Event (threads.js workerErrorText says more).
      w.worker.onerror = (e) => { e.preventDefault?.(); die(e && e.message ? e.message : NOT_LOADED); };
    }
    return w;
  });
  // Node reports the end of a terminated worker by its 'exit' event, after
  // its thread stopped; a browser reports nothing, so there the supervisor
  // marks the worker itself once terminate() returned.
  function kill(w, why) {
    if (w.dead || quitting) return;
    w.worker.terminate();
    if (!isNode) { w.dead = true; if (w.ready) markDead(memory, at, w.id, EXITED); post({ id: w.id, died: why }); }
  }
  return (m) => {
    if (!m) return;
    if (m.quit) {
      quitting = true;
      for (const w of pool) w.worker.terminate();
      if (isNode) globalThis.process.exit(0); else self.close();
    } else if (m.terminate !== undefined) {
      // Test faults only (Runtime[TEST_FAULT]): terminate worker `terminate` after afterMs.
      const w = pool[m.terminate - 1];
      if (w) setTimeout(() => kill(w, `terminated after ${m.afterMs} ms (test fault)`), m.afterMs);
    }
  };
}

if (isNode) {
  // No top-level await (bundlers emit this file as a worker entry or an
  // asset): process.getBuiltinModule where there is one, else an import.
  const get = globalThis.process.getBuiltinModule;
  const name = 'node:worker_threads';
  const wt = typeof get === 'function' ? get.call(globalThis.process, name) : null;
  (wt ? Promise.resolve(wt) : import(/* webpackIgnore: true */ /* @vite-ignore */ name)).then(({ parentPort, workerData, Worker }) => {
    parentPort.on('message', supervise(workerData, Worker, (m) => parentPort.postMessage(m)));
  });
} else {
  let handle = null;
  self.onmessage = (ev) => {
    if (!handle) handle = supervise(ev.data, Worker, (m) => self.postMessage(m));
    else handle(ev.data);
  };
}
