// `make zoo`: the real-model zoo (issue 18). For every model of
// build/zoo/manifest.json (+ the two trained ISNet models):
//   1. check (bench/zoo/check.mjs, a child process per model, so a crash or
//      a runaway model costs one row): convert with the converter's defaults
//      (run shapes fixed only where the symbolic conversion is refused), run
//      on seeded inputs, compare with onnxruntime-node; pass / wrong / refused
//      (message + covering issue) / error;
//   2. speed, every passing model (bench/zoo/race.mjs, one child per model and
//      thread count, both engines in that one process): hologram vs
//      onnxruntime-web at 1 and 2 threads; load time; peak memory (RSS growth,
//      a child per engine).
// Prints the table and ends with
//   zoo_pass=N/M zoo_wrong=K zoo_ratio_geomean_1t=.. zoo_ratio_max_1t=.. zoo_ratio_geomean_2t=.. zoo_ratio_max_2t=..
// (M: models built; an export the torch exporter refused is listed, not counted).
//   node bench/zoo/run.mjs [DIR] [--models a,b@17] [--no-speed] [--no-mem] [--ms 1000] [--threads 1,2]
//       [--timeout-s 1800] [--json FILE]
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadManifest, selectModels } from './manifest.mjs';
import { printReport } from './report.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); if (i < 0) return d; const v = args[i + 1]; args.splice(i, 2); return v; };
const flag = (k) => { const i = args.indexOf(k); if (i < 0) return false; args.splice(i, 1); return true; };
const list = (opt('--models', process.env.ZOO ?? '') || '').split(',').map((s) => s.trim()).filter(Boolean);
const noSpeed = flag('--no-speed');
const noMem = flag('--no-mem');
const budgetMs = opt('--ms', '1000');
const threadList = opt('--threads', '1,2').split(',').map(Number);
const timeoutMs = Number(opt('--timeout-s', '1800')) * 1000;
const dir = path.resolve(args[0] ?? 'build/zoo');
const jsonOut = opt('--json', path.join(dir, 'results.json'));

/** Runs a zoo script in a child; the last stdout line parsed as JSON, or { error }. */
function child(script, argv, { gc = false } = {}) {
  const r = spawnSync(process.execPath, [...(gc ? ['--expose-gc'] : []), path.join(HERE, script), ...argv],
    { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
  const last = (r.stdout ?? '').trim().split('\n').filter((l) => l.startsWith('{')).pop();
  if (last) { try { return JSON.parse(last); } catch { /* fall through */ } }
  const why = r.error?.code === 'ETIMEDOUT' ? `timed out after ${timeoutMs / 1000} s`
    : `exit ${r.status ?? r.signal}: ${(r.stderr ?? '').trim().split('\n').slice(-2).join(' | ').slice(0, 300)}`;
  return { error: `${script} ${why}` };
}

let entries;
try {
  entries = selectModels(loadManifest(dir), list);
} catch (e) {
  console.error(e.message);
  process.exit(2);
}
const results = [];
const save = () => fs.writeFileSync(jsonOut, JSON.stringify({ when: new Date().toISOString(), results }, null, 1));
for (const e of entries) {
  if (e.error) {
    results.push({ key: e.key, name: e.name, opset: e.opset, kind: e.kind, status: 'unbuilt', message: e.error });
    console.log(JSON.stringify(results.at(-1)));
    continue;
  }
  const t0 = performance.now();
  let row = child('check.mjs', [dir, e.key, '--holo-out', path.join(dir, 'holo')]);
  if (row.error && !row.status) row = { key: e.key, name: e.name, opset: e.opset, kind: e.kind, status: 'error', message: row.error };
  if (row.status === 'pass' && !noSpeed) {
    row.speed = {};
    for (const T of threadList) row.speed[T] = child('race.mjs', [dir, e.key, '--threads', String(T), '--ms', budgetMs]);
    if (!noMem) {
      const m = (engine) => child('race.mjs', [dir, e.key, '--mem', engine], { gc: true }).rss_delta;
      row.rss_delta_mib = { holo: +(m('holo') / 2 ** 20).toFixed(1), ort_web: +(m('web') / 2 ** 20).toFixed(1) };
    }
  }
  row.wall_s = +((performance.now() - t0) / 1000).toFixed(1);
  results.push(row);
  console.log(JSON.stringify(row));
  save();
}
save();
printReport(results, threadList, { speed: !noSpeed });
process.exit(0);
