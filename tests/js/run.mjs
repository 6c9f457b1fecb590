// Runs every tests/js/*.test.mjs (or those whose name contains an argument)
// in its own `node` process with uvu's reporter, then prints one line
//   js: N passed, N failed
// counting individual uvu tests; exit code 1 if any failed. A file that
// crashes, exits nonzero without reporting a failure, or reports zero tests
// counts as one failure; so does a filter that matches no file.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(HERE)
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

let passed = 0, failed = 0;
for (const f of files) {
  process.stdout.write(`\n# ${f}\n`);
  const r = spawnSync(process.execPath, [join(HERE, f)], {
    encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, maxBuffer: 1 << 28, timeout: 600000,
  });
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  const out = (r.stdout ?? '').replace(/\x1b\[[0-9;]*m/g, '');
  const num = (k) => { const m = out.match(new RegExp(`^\\s*${k}:\\s+(\\d+)\\s*$`, 'm')); return m ? Number(m[1]) : null; };
  const total = num('Total'), ok = num('Passed');
  if (total === null || ok === null) {
    failed += 1;
    console.log(`# ${f}: no uvu summary (exit ${r.status}${r.signal ? ', ' + r.signal : ''}) — counted as 1 failure`);
    continue;
  }
  if (total === 0) {
    // A file whose tests all returned before registering (a missing
    // prerequisite, an empty loop) checked nothing: that is not a pass.
    failed += 1;
    console.log(`# ${f}: reports zero tests — counted as 1 failure`);
    continue;
  }
  passed += ok;
  let bad = total - ok;
  if (bad === 0 && r.status !== 0) {
    bad = 1;
    console.log(`# ${f}: exit ${r.status} with no failed test — counted as 1 failure`);
  }
  failed += bad;
}
if (files.length === 0) { failed += 1; console.log('# no test files found'); }
console.log(`js: ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
