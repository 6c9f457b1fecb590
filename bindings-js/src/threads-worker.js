// One worker of a threaded Runtime (src/threads.js): instantiates the
// shared core module on the Runtime's shared memory, points this instance's
// stack at its own region, and enters holo_worker_main, which runs kernel
// tasks until the Runtime quits the pool. Node (worker_threads) and browsers
// (module Web Workers) alike.
const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);

function start({ module, memory, stackTop }, post) {
  const env = { memory };
  // Workers only ever run kernel tasks: any host import (warm store, ...)
  // is unreachable from them, so a stub that reports failure suffices.
  for (const imp of WebAssembly.Module.imports(module)) if (imp.kind === 'function') env[imp.name] = () => 1;
  const inst = new WebAssembly.Instance(module, { env });
  inst.exports.__stack_pointer.value = stackTop;
  post({ ready: true });
  inst.exports.holo_worker_main();
  post({ exited: true });
}

if (isNode) {
  const { parentPort, workerData } = await import('node:worker_threads');
  try {
    start(workerData, (m) => parentPort.postMessage(m));
  } catch (e) {
    parentPort.postMessage({ error: String((e && e.message) || e) });
  }
} else {
  self.onmessage = (ev) => {
    try {
      start(ev.data, (m) => self.postMessage(m));
    } catch (e) {
      self.postMessage({ error: String((e && e.message) || e) });
    }
  };
}
