// Input labelling throughput: the execute-time cost of content-labelling one
// input, per core variant, with the host's SHA-256 (node:crypto) and without
// (hostHash: false: what browsers and workerd get), in Node and in headless
// Chromium. The graph is Flatten over the input (an alias: no kernel runs);
// each run perturbs the input (no memo hit), and the labelling time is the
// median execute time minus that of a 256-byte input.
//   node bench/label.mjs [--pkg DIR[,DIR2]] [--browser] [--sizes 602112,4194304] [--rounds 8]
// (two packages: before/after builds, interleaved in one process / page)
// Prints one JSON line per case and `label_mbps_<where>_<variant>_<host>_<size>=…`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { GraphBuilder, DT } from '../compiler/graph.js';
import { writeHolo } from '../compiler/holo-writer.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); return i < 0 ? d : args[i + 1]; };
const PKGS = opt('--pkg', path.join(ROOT, 'bindings-js')).split(',').map((p) => path.resolve(p));
const SIZES = opt('--sizes', '602112,4194304').split(',').map(Number);
const ROUNDS = Number(opt('--rounds', '8'));

const g = new GraphBuilder();
const x = g.input('x', DT.f32, [1, 'n']);
const [y] = g.node('Flatten', [x], { name: 'flat', attrs: { axis: 1 } });
g.output(y);
const HOLO = writeHolo(g.toJSON());

// One function for both hosts: runs in Node or in the page. pkgs: [tag,
// init]; every (package, case) runs a block of 5 per size in turn, `rounds`
// times, so a loaded machine slows all of them alike.
async function measure(pkgs, holo, cases, sizes, rounds) {
  const median = (a) => { const s = [...a].sort((p, q) => p - q); return s[s.length >> 1]; };
  const all = [256, ...sizes], runs = [], out = [];
  for (const [tag, init] of pkgs) {
    for (const c of cases) {
      let rt;
      try { rt = await init(undefined, c.opts); } catch (e) { out.push({ pkg: tag, ...c, error: String(e) }); continue; }
      if (c.opts.threads && rt.threads !== c.opts.threads) { out.push({ pkg: tag, ...c, error: 'threads unavailable' }); continue; }
      const data = Object.fromEntries(all.map((b) => [b, Float32Array.from({ length: b / 4 }, (_, i) => (i % 97) / 7)]));
      runs.push({ tag, c, rt, s: rt.load(holo), data, t: Object.fromEntries(all.map((b) => [b, []])) });
    }
  }
  for (let r = 0; r < rounds; r++) {
    for (const x of runs) {
      for (const bytes of all) {
        const d = x.data[bytes], n = d.length;
        for (let k = 0; k < 5; k++) {
          d[(r * 5 + k) % n] += 1; // a new content each run
          const h0 = x.s.counters.bytesHashed, a = performance.now();
          x.s.executeAddressed([{ data: d, shape: [1, n] }]);
          const t = performance.now() - a;
          if (x.s.counters.bytesHashed - h0 < bytes) throw new Error('input not hashed');
          if (r > 0) x.t[bytes].push(t);
        }
      }
    }
  }
  for (const x of runs) {
    const base = median(x.t[256]);
    for (const bytes of sizes) {
      const t = median(x.t[bytes]) - base;
      out.push({ pkg: x.tag, where: x.c.where, variant: x.rt.variant, threads: x.rt.threads ?? 1, host: x.rt.hostHash ? 'host' : 'core', bytes, label_ms: +t.toFixed(3), mbps: Math.round(bytes / 1e3 / t) });
    }
    x.s.dispose();
    x.rt.dispose?.();
  }
  return out;
}

const rows = [];
const pkgs = [];
for (const [i, p] of PKGS.entries()) pkgs.push([PKGS.length > 1 ? `pkg${i}` : 'pkg', (await import(pathToFileURL(path.join(p, 'index.js')).href)).init]);
const nodeCases = [
  { where: 'node', opts: { variant: 'simd128', hostHash: false } },
  { where: 'node', opts: { variant: 'scalar', hostHash: false } },
  { where: 'node', opts: { threads: 2, hostHash: false } },
  { where: 'node', opts: { variant: 'simd128' } },
];
rows.push(...(await measure(pkgs, HOLO, nodeCases, SIZES, ROUNDS)));

if (args.includes('--browser')) {
  const { startServer, launch, ISOLATION } = await import('../tests/browser/harness.mjs');
  const server = await startServer({
    routes: { '/': ['text/html; charset=utf-8', '<!doctype html><meta charset="utf-8"><body>label bench</body>'], '/m.holo': ['application/octet-stream', Buffer.from(HOLO)] },
    mounts: PKGS.map((p, i) => [`/pkg${i}/`, p]),
    headers: () => ISOLATION,
  });
  const browser = await launch(600_000);
  try {
    await browser.page.goto(server.url, { waitUntil: 'load' });
    const r = await browser.page.evaluate(async ([src, sizes, rounds, n]) => {
      const pkgs = [];
      for (let i = 0; i < n; i++) pkgs.push([n > 1 ? `pkg${i}` : 'pkg', (await import(`/pkg${i}/index.js`)).init]);
      const holo = new Uint8Array(await (await fetch('/m.holo')).arrayBuffer());
      const measure = eval(`(${src})`);
      const cases = [{ where: 'chromium', opts: { variant: 'simd128' } }, { where: 'chromium', opts: { variant: 'scalar' } }, { where: 'chromium', opts: { threads: 2 } }];
      return measure(pkgs, holo, cases, sizes, rounds);
    }, [measure.toString(), SIZES, ROUNDS, PKGS.length]);
    rows.push(...r);
  } finally {
    try { await Promise.race([browser.context.close(), new Promise((res) => setTimeout(res, 5000))]); } catch { /* closing */ }
    fs.rmSync(browser.profile, { recursive: true, force: true });
    await server.close();
  }
}
for (const r of rows) console.log(JSON.stringify(r));
for (const r of rows) if (!r.error) console.log(`label_mbps_${r.pkg === 'pkg' ? '' : `${r.pkg}_`}${r.where}_${r.variant}${r.threads > 1 ? `_${r.threads}t` : ''}_${r.host}_${r.bytes}=${r.mbps}`);
process.exit(0);
