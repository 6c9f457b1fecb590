// The zoo's tables and its final line, from bench/zoo/run.mjs's rows (also
// re-printable from a results file: node bench/zoo/report.mjs build/zoo/results.json).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifyRefusal } from './refusals.mjs';

const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
const f2 = (x) => (x === undefined || x === null || Number.isNaN(x) ? '-' : x.toFixed(2));

/** { pass, built, wrong, refused, error, ratios: { T: [..] } } */
export function summarize(results, threadList) {
  const built = results.filter((r) => r.status !== 'unbuilt');
  const by = (s) => built.filter((r) => r.status === s).length;
  const ratios = {};
  for (const T of threadList) ratios[T] = built.filter((r) => r.speed?.[T]?.ratio > 0).map((r) => r.speed[T].ratio);
  return { pass: by('pass'), built: built.length, wrong: by('wrong'), refused: by('refused'), error: by('error'), ratios };
}

export function finalLine(results, threadList, { speed = true } = {}) {
  const s = summarize(results, threadList);
  const parts = [`zoo_pass=${s.pass}/${s.built}`, `zoo_wrong=${s.wrong}`];
  for (const T of threadList) {
    const r = s.ratios[T];
    const ok = speed && r.length > 0;
    parts.push(`zoo_ratio_geomean_${T}t=${ok ? geomean(r).toFixed(2) : 'n/a'}`, `zoo_ratio_max_${T}t=${ok ? Math.max(...r).toFixed(2) : 'n/a'}`);
  }
  return parts.join(' ');
}

/**
 * The tables and the final line. manifest: the model list (bench/zoo/manifest.mjs);
 * a listed model without a row is shown as "not run" and counted in M.
 */
export function printReport(results, threadList, { speed = true, manifest = null } = {}) {
  results = [...results];
  for (const e of manifest ?? []) {
    if (!results.some((r) => r.key === e.key)) {
      results.push(e.error ? { key: e.key, name: e.name, opset: e.opset, status: 'unbuilt', message: e.error }
        : { key: e.key, name: e.name, opset: e.opset, status: 'not run', message: 'no row in this results file (the run stopped before it, or it was not selected)' });
    }
  }
  // the covering issue from today's table, so a table edit re-labels old results
  for (const r of results) if (r.status === 'refused') Object.assign(r, classifyRefusal(r.message ?? ''));
  console.log('\n| model | opset | status | ' + threadList.map((T) => `holo ms ${T}t | ORT-web ms ${T}t | ratio ${T}t`).join(' | ') +
    ' | load ms holo / web | holo peak resident MiB | RSS Δ MiB holo / web | max rel diff vs ORT-node | load avg |');
  console.log('|---|--:|---|' + threadList.map(() => '--:|--:|--:|').join('') + '--:|--:|--:|--:|--:|');
  for (const r of results.filter((x) => x.status === 'pass')) {
    const sp = r.speed ?? {};
    const cells = threadList.map((T) => {
      const x = sp[T];
      if (!x) return '- | - | -';
      if (x.error) return `error: ${x.error.slice(0, 60)} | - | -`;
      const ci = x.ratio_ci95 ? ` [${f2(x.ratio_ci95[0])}–${f2(x.ratio_ci95[1])}]` : '';
      return `${x.holo_ms.toFixed(2)} | ${x.ort_web_ms.toFixed(2)} | ${f2(x.ratio)}${ci}${x.capped ? ' (capped)' : ''}`;
    });
    const s1 = sp[threadList[0]] ?? {};
    const load = s1.holo_load_ms !== undefined ? `${s1.holo_load_ms.toFixed(0)} / ${s1.ort_web_load_ms.toFixed(0)}` : '-';
    const rss = r.rss_delta_mib ? `${r.rss_delta_mib.holo} / ${r.rss_delta_mib.ort_web}` : '-';
    console.log(`| ${r.name} | ${r.opset} | pass${r.shapes_fixed ? ' (shapes fixed)' : ''} | ${cells.join(' | ')} | ${load} | ${s1.holo_peak_resident_mib ?? '-'} | ${rss} | ${r.max_diff_rel ?? '-'} | ${threadList.map((T) => sp[T]?.loadavg?.[0] ?? '-').join(' / ')} |`);
  }
  const others = results.filter((x) => x.status !== 'pass');
  if (others.length) {
    console.log('\n| model | opset | status | issue | reason |');
    console.log('|---|--:|---|--:|---|');
    for (const r of others) {
      const issue = r.status === 'refused' ? (r.issue ? `#${r.issue} (${r.what})` : 'UNMAPPED') : '-';
      const why = (r.message ?? '').replace(/\|/g, '\\|').slice(0, 220);
      console.log(`| ${r.name} | ${r.opset} | ${r.status} | ${issue} | ${why}${r.shapes_fixed ? ' [after fixing the run shapes; symbolic: ' + (r.symbolic_refusal ?? '').slice(0, 80) + ']' : ''} |`);
    }
  }
  const s = summarize(results, threadList);
  const unmapped = results.filter((r) => r.status === 'refused' && !r.issue).length;
  const capped = results.filter((r) => threadList.some((T) => r.speed?.[T]?.capped)).length;
  if (capped) console.log(`\nzoo: ${capped} models' races hit the wall cap (fewer runs; their 95% intervals are in brackets)`);
  const notRun = results.filter((r) => r.status === 'not run').length;
  if (notRun) console.log(`\nzoo: ${notRun} models have no row (not run): the line below is not a full zoo`);
  console.log(`\nzoo: ${s.pass} pass, ${s.wrong} wrong, ${s.refused} refused${unmapped ? ` (${unmapped} UNMAPPED)` : ''}, ${s.error} error, ${results.length - s.built} not built`);
  console.log(finalLine(results, threadList, { speed }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? 'build/zoo/results.json';
  const { results } = JSON.parse(fs.readFileSync(file, 'utf8'));
  const ts = [...new Set(results.flatMap((r) => Object.keys(r.speed ?? {}).map(Number)))];
  const { loadManifest } = await import('./manifest.mjs');
  printReport(results, ts.length ? ts : [1, 2], { speed: ts.length > 0, manifest: loadManifest(path.dirname(path.resolve(file))) });
}
