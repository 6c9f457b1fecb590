// Runs every tests/js/*.test.mjs (or those whose name contains an argument)
// in its own `node` process with uvu's reporter, then prints one line
//   js: N passed, N failed
// counting individual uvu tests; exit code 1 if any failed. A file that
// crashes, exits nonzero without reporting a failure, or reports zero tests
// counts as one failure; so does a filter that matches no file.
import { readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const jobsAt = filters.indexOf('--jobs');
const jobsOpt = jobsAt >= 0 ? filters.splice(jobsAt, 2)[1] : undefined;
const files = readdirSync(HERE)
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

// JOBS files at once (--jobs N or HOLO_TEST_JOBS; make test runs 2: its
// budget is 20 minutes on 2 cores); each file's report is printed whole, in
// name order, whatever order they finish in.
let jobs = Number(jobsOpt ?? process.env.HOLO_TEST_JOBS ?? 1);
if (!(jobs >= 1)) jobs = 1;

function runFile(f) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [join(HERE, f)], { env: { ...process.env, FORCE_COLOR: '0' } });
    let stdout = '', stderr = '', killed = false;
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { killed = true; child.kill('SIGKILL'); }, 600000);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, status, signal: killed ? 'timeout (600 s)' : signal, secs: (Date.now() - t0) / 1000 });
    });
  });
}

const results = new Array(files.length);
let next = 0;
await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, async () => {
  while (next < files.length) { const i = next++; results[i] = await runFile(files[i]); }
}));

let passed = 0, failed = 0;
files.forEach((f, i) => {
  const r = results[i];
  process.stdout.write(`\n# ${f} (${r.secs.toFixed(1)} s)\n`);
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  const out = (r.stdout ?? '').replace(/\x1b\[[0-9;]*m/g, '');
  const num = (k) => { const m = out.match(new RegExp(`^\\s*${k}:\\s+(\\d+)\\s*$`, 'm')); return m ? Number(m[1]) : null; };
  const total = num('Total'), ok = num('Passed');
  if (total === null || ok === null) {
    failed += 1;
    console.log(`# ${f}: no uvu summary (exit ${r.status}${r.signal ? ', ' + r.signal : ''}) — counted as 1 failure`);
    return;
  }
  if (total === 0) {
    // A file whose tests all returned before registering (a missing
    // prerequisite, an empty loop) checked nothing: that is not a pass.
    failed += 1;
    console.log(`# ${f}: reports zero tests — counted as 1 failure`);
    return;
  }
  passed += ok;
  let bad = total - ok;
  if (bad === 0 && r.status !== 0) {
    bad = 1;
    console.log(`# ${f}: exit ${r.status} with no failed test — counted as 1 failure`);
  }
  failed += bad;
});
if (files.length === 0) { failed += 1; console.log('# no test files found'); }
console.log(`js: ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
