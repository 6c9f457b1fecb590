// Runs build/wasm/holo.wasm under node:wasi with the current directory
// preopened, forwarding arguments and the exit code.
//
// Node 20's node:wasi calls its C++ imports through V8 fast API calls, and a
// fast call may not allocate on the JS heap; the WASI memory manager reports
// external memory from inside it (AdjustAmountOfExternalAllocatedMemory),
// which can start a GC there, and the heap is left corrupt: `holo generate`
// on the char-LM died with SIGSEGV/SIGTRAP in 18 of 20 runs, after printing
// its output (nodejs/node#46777, #53087). Without fast API calls the same
// imports go through ordinary callbacks, where a GC is allowed: 0 crashes
// (docs/decisions.md 19). V8 flags cannot be set safely once the
// isolate runs, so this script re-executes node with them.
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The node flags every node:wasi run of holo.wasm needs (tests spawn node with them too). */
export const NODE_WASI_FLAGS = ['--no-turbo-fast-api-calls'];

/** Runs holo.wasm with `args` in this process; returns the exit code. */
export async function runHolo(args, { wasm = new URL('../build/wasm/holo.wasm', import.meta.url), preopens = { '.': '.' } } = {}) {
  const { WASI } = await import('node:wasi'); // lazily: importers that only want the flags get no ExperimentalWarning
  const wasi = new WASI({ version: 'preview1', args: ['holo', ...args], env: {}, preopens, returnOnExit: true });
  const mod = await WebAssembly.compile(fs.readFileSync(wasm));
  const inst = await WebAssembly.instantiate(mod, wasi.getImportObject());
  return wasi.start(inst);
}

const main = process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (main && NODE_WASI_FLAGS.every((f) => process.execArgv.includes(f))) {
  process.removeAllListeners('warning'); // node:wasi's ExperimentalWarning
  process.exitCode = await runHolo(process.argv.slice(2));
} else if (main) {
  const r = spawnSync(process.execPath, [...process.execArgv, ...NODE_WASI_FLAGS, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.error) {
    console.error(`holo: cannot start node: ${r.error.message}`);
    process.exitCode = 1;
  } else if (r.signal) {
    process.kill(process.pid, r.signal); // the same death the child died, so callers see it
  } else {
    process.exitCode = r.status;
  }
}
