// `make zoo`: the real-model zoo (issue 18). For every model of
// build/zoo/manifest.json (+ the two trained ISNet models):
//   1. check (bench/zoo/check.mjs, a child process per model, so a crash or
//      a runaway model costs one row): convert with the converter's defaults
//      (run shapes fixed only where the symbolic conversion is refused), run
//      on seeded inputs, compare with onnxruntime-node; pass / wrong / refused
//      (message + covering issue) / error;
//   2. speed, every passing model (bench/zoo/race.mjs, one child per model and
//      thread count, both engines in that one process): hologram vs
//      onnxruntime-web at 1 and 2 threads; load time; peak memory (RSS growth
//      per engine).
// Prints the table and ends with
//   zoo_pass=N/M zoo_wrong=K zoo_ratio_geomean_1t=.. zoo_ratio_max_1t=.. zoo_ratio_geomean_2t=.. zoo_ratio_max_2t=..
// (M: models built; an export the torch exporter refused is listed, not counted).
//   node bench/zoo/run.mjs [DIR] [--models a,b@17] [--no-speed] [--ms 500] [--cap-s 10]
//       [--threads 1,2] [--timeout-s 1800] [--json FILE] [--merge] [--jobs 2] [--holo-dir DIR/holo]
//       [--ref-cache DIR/ref-cache] [--mem-children] [--pipeline] [--checks-from A.json,B.json]
// --cap-s: the race's wall cap per model and thread count (bench/zoo/timing.mjs);
// --merge: keep the rows of FILE for the models not run this time (a subset
// re-run updates the full table instead of replacing it); --jobs: checks run
// at once (phase 1; the races of phase 2 run one at a time); --holo-dir: where
// the checks write the archives the races load (each race checks the digest);
// --ref-cache: onnxruntime-node's outputs per model (bench/zoo/check.mjs);
// --mem-children: RSS growth of each engine alone, in a child of its own (two
// more loads per model; by default the race child's per-engine RSS growth);
// --pipeline: race each model as soon as its check passes, beside the other checks.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadManifest, selectModels } from './manifest.mjs';
import { printReport } from './report.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); if (i < 0) return d; const v = args[i + 1]; args.splice(i, 2); return v; };
const flag = (k) => { const i = args.indexOf(k); if (i < 0) return false; args.splice(i, 1); return true; };
const list = (opt('--models', process.env.ZOO ?? '') || '').split(',').map((s) => s.trim()).filter(Boolean);
const noSpeed = flag('--no-speed');
const memChildren = flag('--mem-children');
flag('--no-mem'); // the old flag: memory now comes from the race child itself
const budgetMs = opt('--ms', '500');
const capS = opt('--cap-s', '10');
const merge = flag('--merge');
const jobs = Number(opt('--jobs', '2'));
const pipeline = flag('--pipeline');
const holoDirOpt = opt('--holo-dir', null);
const refCacheOpt = opt('--ref-cache', null);
const checksFrom = opt('--checks-from', null);
const threadList = opt('--threads', '1,2').split(',').map(Number);
const timeoutMs = Number(opt('--timeout-s', '1800')) * 1000;
const dir = path.resolve(args[0] ?? 'build/zoo');
const jsonOut = opt('--json', path.join(dir, 'results.json'));
const holoDir = path.resolve(holoDirOpt ?? path.join(dir, 'holo'));
const refCache = path.resolve(refCacheOpt ?? path.join(dir, 'ref-cache'));

/** Runs a zoo script in a child; resolves to its last JSON stdout line, or { error }. */
function child(script, argv, { gc = false } = {}) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [...(gc ? ['--expose-gc'] : []), path.join(HERE, script), ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '', timedOut = false;
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err = (err + d).slice(-4000); });
    const timer = setTimeout(() => { timedOut = true; p.kill('SIGKILL'); }, timeoutMs);
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').filter((l) => l.startsWith('{')).pop();
      if (last && !timedOut) { try { return resolve(JSON.parse(last)); } catch { /* fall through */ } }
      const why = timedOut ? `timed out after ${timeoutMs / 1000} s`
        : `exit ${code ?? signal}: ${err.trim().split('\n').slice(-2).join(' | ').slice(0, 300)}`;
      resolve({ error: `${script} ${why}` });
    });
  });
}

let entries;
try {
  entries = selectModels(loadManifest(dir), list);
} catch (e) {
  console.error(e.message);
  process.exit(2);
}
const results = [];
const kept = merge && fs.existsSync(jsonOut) ? JSON.parse(fs.readFileSync(jsonOut, 'utf8')).results.filter((r) => !entries.some((e) => e.key === r.key)) : [];
const order = new Map(loadManifest(dir).map((e, i) => [e.key, i]));
// --checks-from A.json,B.json: the check rows of earlier runs (the same
// holo-dir) stand for this run's checks, so a race-only run on a quiet
// machine does not convert again; each race still verifies the archive's
// sha256 against the row, so a row whose archive was rewritten since fails.
const priorChecks = new Map();
for (const f of checksFrom ? checksFrom.split(',') : [])
  for (const r of JSON.parse(fs.readFileSync(f, 'utf8')).results) if (r.status) priorChecks.set(r.key, { ...r, check_from: path.basename(f) });
const all = () => [...kept, ...results].sort((a, b) => (order.get(a.key) ?? 1e9) - (order.get(b.key) ?? 1e9));
const started = new Date().toISOString();
let speedS = 0, checkS = 0;
const save = () => fs.writeFileSync(jsonOut, JSON.stringify({ when: new Date().toISOString(), started, check_s: +checkS.toFixed(1), speed_s: +speedS.toFixed(1),
  loadavg: os.loadavg().map((x) => +x.toFixed(2)), args: { budgetMs: Number(budgetMs), capS: Number(capS), threads: threadList, jobs, pipeline }, results: all() }, null, 1));

// The races: one at a time; after all the checks (phase 2), or with
// --pipeline as each check passes, beside the remaining checks (on a box
// already loaded by others this costs the races a share of CPU, recorded in
// each row's load average, and saves the check phase's wall time).
async function raceOne(e, row) {
  const ts = performance.now();
  row.speed = {};
  for (const T of threadList) row.speed[T] = await child('race.mjs', [dir, e.key, '--threads', String(T), '--ms', budgetMs, '--cap-s', capS, '--holo-dir', holoDir, '--holo-sha256', row.holo_sha256]);
  row.rss_delta_mib = row.speed[threadList[0]]?.rss_delta_mib;
  if (memChildren) {
    const m = (engine) => child('race.mjs', [dir, e.key, '--mem', engine, '--holo-dir', holoDir, '--holo-sha256', row.holo_sha256], { gc: true }).then((x) => +((x.rss_delta ?? NaN) / 2 ** 20).toFixed(1));
    const [holo, web] = await Promise.all([m('holo'), m('web')]);
    row.rss_delta_mib = { holo, ort_web: web };
  }
  row.speed_s = +((performance.now() - ts) / 1000).toFixed(1);
  if (pipeline) row.raced_beside_checks = checksLeft > 0;
  speedS += row.speed_s;
  console.log(JSON.stringify({ key: e.key, speed: row.speed, rss_delta_mib: row.rss_delta_mib, speed_s: row.speed_s }));
  save();
}
const raceQ = [];
let wake = null, checksLeft = entries.length;
async function raceWorker() {
  for (;;) {
    if (raceQ.length) { await raceOne(...raceQ.shift()); continue; }
    if (checksLeft === 0) return;
    await new Promise((r) => { wake = r; });
  }
}

// Phase 1, the checks: nothing in them is timed against a peer, so `--jobs`
// of them run at once (one child each: a crash or a runaway costs one row).
const t1 = performance.now();
const queue = [...entries];
const rows = new Map();
async function worker() {
  for (let e = queue.shift(); e; e = queue.shift()) {
    const t0 = performance.now();
    let row;
    if (e.error) row = { key: e.key, name: e.name, opset: e.opset, kind: e.kind, status: 'unbuilt', message: e.error };
    else if (priorChecks.has(e.key)) row = { ...priorChecks.get(e.key), speed: undefined };
    else {
      row = await child('check.mjs', [dir, e.key, '--holo-out', holoDir, '--ref-cache', refCache]);
      if (row.error && !row.status) row = { key: e.key, name: e.name, opset: e.opset, kind: e.kind, status: 'error', message: row.error };
    }
    if (!row.check_from) row.check_s = +((performance.now() - t0) / 1000).toFixed(1);
    rows.set(e.key, row);
    results.push(row);
    console.log(JSON.stringify(row));
    checksLeft--;
    if (pipeline && !noSpeed && row.status === 'pass') raceQ.push([e, row]);
    if (wake) { const w = wake; wake = null; w(); }
    save();
  }
}
const racing = pipeline && !noSpeed ? raceWorker() : null;
await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
checkS = (performance.now() - t1) / 1000;
if (racing) await racing;
else if (!noSpeed) for (const e of entries) if (rows.get(e.key)?.status === 'pass') await raceOne(e, rows.get(e.key));
save();
console.log(`zoo: this run ${((Date.now() - Date.parse(started)) / 60000).toFixed(1)} min: checks ${(checkS / 60).toFixed(1)} min (${jobs} at a time), races ${(speedS / 60).toFixed(1)} min${pipeline ? ' (pipelined: races beside the checks)' : ''}`);
printReport(all(), threadList, { speed: !noSpeed, manifest: loadManifest(dir) });
process.exit(0);
