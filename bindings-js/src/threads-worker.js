// One worker of a threaded Runtime (src/threads.js): instantiates the
// shared core module on the Runtime's shared memory, points this instance's
// stack at its own region, and enters holo_worker_main, which runs kernel
// tasks until the Runtime quits the pool. Node (worker_threads) and browsers
// (module Web Workers) alike. No imports and no top-level await: bundlers
// emit this file as a worker entry or a plain asset, and both must run it.
const isNode = typeof globalThis.process?.versions?.node === 'string';

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

function run(data, post) {
  try {
    start(data, post);
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
    run(workerData, (m) => parentPort.postMessage(m));
  });
} else {
  self.onmessage = (ev) => run(ev.data, (m) => self.postMessage(m));
}
