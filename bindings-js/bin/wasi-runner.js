// Runs holo.wasm -- the C `holo` (wasi/cli-*.c), shipped as dist/wasi/holo.wasm --
// under node:wasi, so that `npx holo VERB ...` and `wasmtime run holo.wasm
// VERB ...` are the same code (docs/cli.md, docs/decisions.md 31).
//
// The host it gives the program: `/` preopened and PWD set to the working
// directory, which holo.wasm chdirs to (wasi/cli-io.c, cli_host_cwd): relative,
// `../` and absolute paths then resolve as they do natively, and the paths the
// program prints are the ones the user typed. stdin, stdout and stderr are the
// process's own; the exit code is the program's (0..4).
//
// Node 20's node:wasi calls its imports as V8 fast API calls, which may start
// a GC where none is allowed and corrupt the heap (docs/decisions.md 19):
// every run needs NODE_WASI_FLAGS, which cannot be set once node runs, so
// runHolo re-executes node with them when they are missing.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The node flags every node:wasi run of holo.wasm needs. */
export const NODE_WASI_FLAGS = ['--no-turbo-fast-api-calls'];

/** The WASI program of this package. */
export const HOLO_WASM = fileURLToPath(new URL('../dist/wasi/holo.wasm', import.meta.url));

const HERE = fileURLToPath(import.meta.url);

/** The guest's view of `cwd`: `/` (its drive's root on Windows) preopened, PWD the guest path of cwd. */
export function wasiHost(cwd = process.cwd()) {
  const root = path.parse(cwd).root;
  const rel = path.relative(root, cwd).split(path.sep).filter(Boolean).join('/');
  return { preopens: { '/': root }, env: { PWD: `/${rel}` } };
}

const oneLine = (s) => String(s).replace(/[\r\n]+/g, ' ').trim();

/**
 * Runs holo.wasm with `args` in this process (which must run with
 * NODE_WASI_FLAGS); returns the exit code. Failures of the engine, not of the
 * program (holo.wasm reports its own and exits), are one stderr line too: a
 * missing or unloadable module exit 4, a trap exit 2 (4 when it is the
 * engine's memory or stack).
 */
export async function runWasm(args, { wasm = HOLO_WASM, cwd = process.cwd() } = {}) {
  let bytes;
  try {
    bytes = fs.readFileSync(wasm);
  } catch (e) {
    console.error(`holo: ${wasm}: cannot read the WASI program (${e.code ?? oneLine(e.message)}); in the repository, \`make build\` makes it`);
    return 4;
  }
  process.removeAllListeners('warning'); // node:wasi's ExperimentalWarning: stderr is the program's
  const { WASI } = await import('node:wasi');
  let inst, wasi;
  try {
    wasi = new WASI({ version: 'preview1', args: ['holo', ...args], ...wasiHost(cwd), returnOnExit: true });
    inst = await WebAssembly.instantiate(await WebAssembly.compile(bytes), wasi.getImportObject());
  } catch (e) {
    console.error(`holo: ${wasm}: cannot instantiate the WASI program: ${oneLine(e.message)}`);
    return 4;
  }
  try {
    return wasi.start(inst);
  } catch (e) {
    const resource = e instanceof RangeError;
    console.error(`holo: holo.wasm ${resource ? 'ran out of engine resources' : 'trapped'}: ${oneLine(e.message)}`);
    return resource ? 4 : 2;
  }
}

/** Runs holo.wasm with `args`, re-executing node with NODE_WASI_FLAGS if this process lacks them; returns the exit code. */
export async function runHolo(args, opts = {}) {
  if (NODE_WASI_FLAGS.every((f) => process.execArgv.includes(f))) return runWasm(args, opts);
  const r = spawnSync(process.execPath, [...process.execArgv, ...NODE_WASI_FLAGS, HERE, ...args], {
    stdio: 'inherit',
    cwd: opts.cwd,
    env: opts.wasm ? { ...process.env, HOLO_WASM: path.resolve(opts.wasm) } : process.env,
  });
  if (r.error) {
    console.error(`holo: cannot start node: ${oneLine(r.error.message)}`);
    return 4;
  }
  if (r.signal) {
    if (!['SIGINT', 'SIGTERM', 'SIGPIPE', 'SIGHUP'].includes(r.signal)) console.error(`holo: node died of ${r.signal} while running holo.wasm`);
    process.kill(process.pid, r.signal); // the same death, so that callers see it
  }
  return r.status ?? 4;
}

/** HOLO_WASM=path runs another build of the program (default: the package's dist/wasi/holo.wasm). */
export const holoOptions = () => (process.env.HOLO_WASM ? { wasm: process.env.HOLO_WASM } : {});

const isMain = process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(HERE);
if (isMain) process.exitCode = await runHolo(process.argv.slice(2), holoOptions());
