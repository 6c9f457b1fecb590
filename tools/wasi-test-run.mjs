// Runs one wasm32-wasi C test suite (tests/wasm-tests.mk) under node:wasi and
// prints cmocka's summary over the whole suite:
//   node tools/wasi-test-run.mjs build/wasm-test/simd128/test_session.wasm
// A failed assertion exits the wasm process (no setjmp in WASI, see
// tests/c/util/cmocka-wasi.h); a trap throws here. Either way the test that
// was running is counted failed and a fresh instance resumes at the next
// test (HOLO_CM_FIRST), so a failure never hides the tests after it.
// Exit status: 0 only when every test ran and passed and at least one did.
//
// Node flags: tools/wasi-run.mjs's NODE_WASI_FLAGS (node:wasi's fast API
// calls can corrupt the heap, docs/decisions.md 19), --single-threaded-gc
// (the other flag that measured 0 crashes there; kept as a second guard, it
// costs these short runs nothing measurable) and, for relaxed-SIMD modules,
// --experimental-wasm-relaxed-simd. The runner re-executes itself with them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { NODE_WASI_FLAGS } from './wasi-run.mjs';

const FLAGS = [...new Set([...NODE_WASI_FLAGS, '--single-threaded-gc', '--experimental-wasm-relaxed-simd'])];
if (!FLAGS.every((f) => process.execArgv.includes(f))) {
  const r = spawnSync(process.execPath, [...FLAGS, ...process.execArgv, process.argv[1], ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(r.status ?? 1);
}
process.removeAllListeners('warning'); // node:wasi's ExperimentalWarning
const { WASI } = await import('node:wasi');

const file = process.argv[2];
if (!file) {
  console.error('usage: node tools/wasi-test-run.mjs <suite.wasm>');
  process.exit(2);
}
const suite = path.basename(file, '.wasm');
let mod;
try {
  mod = await WebAssembly.compile(fs.readFileSync(file));
} catch (e) {
  console.log(`[  ERROR   ] --- ${suite}: cannot load ${file}: ${e.message}`);
  console.log('[  FAILED  ] 1 test(s), listed below:');
  console.log(`[  FAILED  ] ${suite} (module)`);
  process.exit(1);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `holo-wasm-${suite}-`));
const out = path.join(tmp, 'out.txt');

/** One instance from test index `first`; returns its output and how it ended. */
function runFrom(first) {
  const fd = fs.openSync(out, 'w');
  let status, trap = null;
  try {
    const wasi = new WASI({
      version: 'preview1',
      args: [suite],
      env: { HOLO_CM_FIRST: String(first) },
      preopens: { '.': '.', '/tmp': tmp },
      stdout: fd,
      stderr: fd,
      returnOnExit: true,
    });
    const inst = new WebAssembly.Instance(mod, wasi.getImportObject());
    status = wasi.start(inst);
  } catch (e) {
    trap = e;
  } finally {
    fs.closeSync(fd);
  }
  return { text: fs.readFileSync(out, 'utf8'), status, trap };
}

let first = 0, total = null, passed = 0, skipped = 0;
const failed = [];
for (;;) {
  const { text, status, trap } = runFrom(first);
  process.stdout.write(text);
  const m = /\[==========\] \S+: Running (\d+) test\(s\)\./.exec(text);
  if (total === null && m) total = Number(m[1]);
  const lines = text.split('\n');
  const ran = lines.filter((l) => l.startsWith('[ RUN      ] ')).map((l) => l.slice(13));
  const ok = lines.filter((l) => l.startsWith('[       OK ] ')).length;
  passed += ok;
  skipped += lines.filter((l) => l.startsWith('[  SKIPPED ] ') && !/ test\(s\)$/.test(l)).length;
  if (!trap && status === 0 && ok === ran.length) break; // ran to the end
  // The instance ended inside the test after the last one that finished.
  const name = ran.length > ok ? ran[ran.length - 1] : `(before a test, exit ${status})`;
  if (trap) console.log(`[  ERROR   ] --- trap: ${trap.message}\n[  FAILED  ] ${name}`);
  else if (status === 0) console.log(`[  ERROR   ] --- exited 0 inside a test\n[  FAILED  ] ${name}`);
  failed.push(name);
  if (ran.length === ok) break; // failed outside any test (setup, skip list): nothing to resume
  // tests of this instance: skipped ones + ran ones; resume after the failed one
  const done = lines.filter((l) => l.startsWith('[  SKIPPED ] ') || l.startsWith('[ RUN      ] ')).length;
  first += done;
  if (total !== null && first >= total) break;
}
fs.rmSync(tmp, { recursive: true, force: true });

console.log(`[==========] ${suite}: ${passed + failed.length} test(s) run.`);
console.log(`[  PASSED  ] ${passed} test(s).`);
if (skipped) console.log(`[  SKIPPED ] ${skipped} test(s) (cannot run under WASI: tests/wasm-tests.mk)`);
if (failed.length) {
  console.log(`[  FAILED  ] ${failed.length} test(s), listed below:`);
  for (const f of failed) console.log(`[  FAILED  ] ${f}`);
}
process.exit(failed.length === 0 && passed > 0 ? 0 : 1);
