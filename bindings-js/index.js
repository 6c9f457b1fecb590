// hologram-exec: the JS shim over the core wasm module. ESM, no dependencies,
// no platform APIs at module evaluation (Node, browsers, Web Workers, workerd).
// Execution is synchronous; only obtaining and compiling the module is a promise.
//
// The package's public entry. The modules behind it, one job each (src/):
//   init.js       init() and load(): variant choice, instantiation
//   variants.js   the core module variants, feature probes, compiling modules
//   runtime.js    Runtime: one module instance, guarded exports, its memory
//   host.js       the env imports: warm-store get/put, host SHA-256
//   layout.js     struct fields by name (offsets generated into dist/layout.js)
//   session.js    Session: execute, run, refine, counters, budgets
//   tensors.js    marshalling inputs, outputs and ports
//   refine.js     refinement plans and reports
//   generator.js  the generation step API; generate.js the generate() loop
//   prompt-cache.js  a session's prompt cache
//   threads.js    the threaded module's worker pool (threads-supervisor.js starts and watches threads-worker.js)
//   errors.js, args.js, handle.js, layout-rows.js: what they share
export { HologramError } from './src/errors.js';
export { VARIANTS, THREADED_VARIANT, features } from './src/variants.js';
export { init, load } from './src/init.js';
export { Runtime } from './src/runtime.js';
export { TokenDomain } from './src/token-domain.js';
