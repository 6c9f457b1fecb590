// One worker of a threaded Runtime (src/threads.js): instantiates the
// shared core module on the Runtime's shared memory, points this instance's
// stack at its own region, and enters holo_worker_main, which runs kernel
// tasks until the Runtime quits the pool. Node (worker_threads) and browsers
// (module Web Workers) alike; started and watched by threads-supervisor.js.
//
// A trap or an exception inside a task ends holo_worker_main by unwinding:
// this worker then marks itself dead in shared memory (the caller, blocked
// in the call, re-runs its task: threads.c) and exits. No imports and no
// top-level await: bundlers emit this file as a worker entry or a plain
// asset, and both must run it.
const isNode = typeof globalThis.process?.versions?.node === 'string';
const TRAP = 1, THROW = 2, TERMINATE = 3; // threads.c's FAULT_* (dead word kinds)

/** Marks worker `id` dead (once) and wakes the caller (threads.c: dead[], done). */
function markDead(memory, at, id, kind) {
  const a = new Int32Array(memory.buffer);
  if (Atomics.compareExchange(a, at.dead / 4 + id, 0, kind) !== 0) return;
  Atomics.add(a, at.dead / 4, 1);
  Atomics.notify(a, at.done / 4);
}

function start({ module, memory, stackTop, id, at }, post) {
  const env = { memory };
  // Workers only ever run kernel tasks: any host import (warm store, ...)
  // is unreachable from them, so a stub that reports failure suffices.
  for (const imp of WebAssembly.Module.imports(module)) if (imp.kind === 'function') env[imp.name] = () => 1;
  // Test faults only (Runtime[Symbol.for('hologram.testFault')]): throw
  // through the task, or ask the supervisor to terminate this worker while
  // it holds the task.
  env.holo_pool_signal = (k, kind) => {
    if (kind === THROW) throw new Error(`test fault: worker ${k} throws inside a task`);
    if (kind === TERMINATE) post({ terminateMe: true });
  };
  const inst = new WebAssembly.Instance(module, { env });
  inst.exports.__stack_pointer.value = stackTop;
  post({ ready: true });
  try {
    inst.exports.holo_worker_main(id);
  } catch (e) {
    const trap = e instanceof WebAssembly.RuntimeError;
    markDead(memory, at, id, trap ? TRAP : THROW);
    post({ died: `${trap ? 'trapped' : 'threw'}: ${(e && e.message) || e}` });
    return false;
  }
  post({ exited: true });
  return true;
}

function run(data, post, exit) {
  try {
    if (!start(data, post)) exit();
  } catch (e) {
    post({ error: String((e && e.message) || e) });
  }
}

if (isNode) {
  // process.getBuiltinModule: Node >= 20.16; older Node imports it (a
  // specifier no bundler follows: src/builtin.js says why).
  const get = globalThis.process.getBuiltinModule;
  const name = 'node:worker_threads';
  const wt = typeof get === 'function' ? get.call(globalThis.process, name) : null;
  (wt ? Promise.resolve(wt) : import(/* webpackIgnore: true */ /* @vite-ignore */ name)).then(({ parentPort, workerData }) => {
    run(workerData, (m) => parentPort.postMessage(m), () => globalThis.process.exit(1));
  });
} else {
  self.onmessage = (ev) => run(ev.data, (m) => self.postMessage(m), () => self.close());
}
