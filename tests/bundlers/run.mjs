// The npm package as web developers use it: `npm pack` of bindings-js is
// installed into a small app (tests/bundlers/app: a page that imports
// `hologram-exec`, fetches an archive and runs one input, in the page or in a
// module Web Worker), the same app is built with Vite, webpack 5, esbuild,
// Rollup (+ @rollup/plugin-node-resolve, @web/rollup-plugin-import-meta-assets)
// and Parcel 2 with no configuration for the package, each build's warnings
// are captured (none may come from the package), each output is served on
// 127.0.0.1 (cross-origin isolated: COOP/COEP) and run in headless Chromium:
// page, worker, and threads: 2. Every output must equal Node's (the same
// tarball, the same variant) byte for byte and label for label. Then the Vite
// dev servers (8, 7 and 6) run the page, the worker and threads, and the README's
// Cloudflare Workers recipe is bundled as wrangler does and run by workerd.
// Offline: the bundlers are the root package.json's pinned devDependencies;
// Parcel's cache is a tmp dir.
//
//   node tests/bundlers/run.mjs [vite vite7 vite6 webpack esbuild rollup parcel vite-dev vite7-dev vite6-dev cloudflare]
//   last line: "bundlers: N passed, N failed"
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { spawn, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { ROOT, ISOLATION, assert, suite, startServer, launch, finish } from '../browser/harness.mjs';
import { GraphBuilder, DT } from '../../compiler/graph.js';
import { writeHolo } from '../../compiler/holo-writer.js';

const STEP_MS = 30_000;
const S = suite('bundlers', 290_000);
const APP = path.join(ROOT, 'tests/bundlers/app');
const BIN = path.join(ROOT, 'node_modules/.bin');
const ONLY = process.argv.slice(2);
const want = (name) => ONLY.length === 0 || ONLY.includes(name);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-bundlers-'));
const env = { ...process.env, npm_config_cache: path.join(tmp, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', PARCEL_WORKERS: '1', NO_COLOR: '1', FORCE_COLOR: '0' };
const sh = (cmd, args, cwd, timeout = 120_000) => spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout });
const PKG_DIR = path.join(APP, 'node_modules/hologram-exec');

// The threaded job: a MatMul large enough that the GEMM is split into tasks.
function matmulArchive() {
  let seed = 7;
  const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
  const g = new GraphBuilder();
  const a = g.input('a', DT.f32, [256, 192]);
  const w = g.constant('w', DT.f32, [192, 256], Float32Array.from({ length: 192 * 256 }, rnd));
  const [y] = g.node('MatMul', [a, w]);
  g.output(y);
  return writeHolo(g.toJSON());
}
const ARCHIVES = { 'mlp.holo': fs.readFileSync(path.join(ROOT, 'tests/fixtures/mlp.holo')), 'mm.holo': Buffer.from(matmulArchive()) };
for (const [f, b] of Object.entries(ARCHIVES)) fs.writeFileSync(path.join(tmp, f), b);

// Node's output for (archive, variant), from the installed tarball; relaxed
// SIMD needs the flag in Node 20. Cached: every bundler compares with it.
const expected = new Map();
function nodeOutput(archive, variant) {
  const key = `${archive}/${variant}`;
  if (!expected.has(key)) {
    const r = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', path.join(ROOT, 'tests/bundlers/expect.mjs'), PKG_DIR, path.join(tmp, archive), variant], { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`node ${variant} ${archive}: ${r.stderr}`);
    expected.set(key, JSON.parse(r.stdout));
  }
  return expected.get(key);
}

// --- the builds: each returns { dir, page, warnings } ------------------------

// A page for bundlers that take a JS entry (the app's index.html is Vite's and Parcel's).
const PAGE = (src, type) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>holo bundler app</title><body><script ${type ? `type="${type}" ` : ''}src="${src}"></script></body>`;

async function buildVite(dir, pkg = 'vite') {
  const { build, createLogger } = await import(pkg);
  const warnings = [];
  const logger = capture(createLogger('info', { allowClearScreen: false }), warnings);
  await build({ root: APP, configFile: false, publicDir: false, logLevel: 'info', customLogger: logger, build: { outDir: dir, emptyOutDir: true } });
  return { dir, page: 'index.html', warnings };
}

async function buildWebpack(dir, extra = {}) {
  const { default: webpack } = await import('webpack');
  const stats = await new Promise((resolve, reject) => {
    const c = webpack({ mode: 'production', context: APP, entry: './src/index.js', output: { path: dir, clean: true }, ...extra });
    c.run((err, st) => c.close(() => (err ? reject(err) : resolve(st))));
  });
  const j = stats.toJson({ all: false, warnings: true, errors: true });
  if (j.errors.length) throw new Error(`webpack errors:\n${j.errors.map((e) => e.message).join('\n')}`);
  fs.writeFileSync(path.join(dir, 'index.html'), PAGE('./main.js'));
  return { dir, page: 'index.html', warnings: j.warnings.map((w) => w.message) };
}

// esbuild emits no file that code names with new URL(…, import.meta.url)
// (evanw/esbuild#795): its one asset step is copying them where the bundle
// resolves them (README, "Using with a bundler").
async function buildEsbuild(dir) {
  const esbuild = await import('esbuild');
  const r = await esbuild.build({ absWorkingDir: APP, entryPoints: ['src/index.js', 'src/worker.js'], bundle: true, format: 'esm', outdir: path.join(dir, 'app'), logLevel: 'silent', minify: true });
  if (r.errors.length) throw new Error(`esbuild errors: ${JSON.stringify(r.errors)}`);
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  for (const f of fs.readdirSync(path.join(PKG_DIR, 'dist')).filter((n) => n.endsWith('.wasm'))) fs.copyFileSync(path.join(PKG_DIR, 'dist', f), path.join(dir, 'dist', f));
  for (const f of ['threads-supervisor.js', 'threads-worker.js']) fs.copyFileSync(path.join(PKG_DIR, 'src', f), path.join(dir, 'app', f));
  fs.writeFileSync(path.join(dir, 'index.html'), PAGE('./app/index.js', 'module'));
  return { dir, page: 'index.html', warnings: r.warnings.map((w) => esbuild.formatMessagesSync([w], { kind: 'warning', color: false }).join('')) };
}

// The app's own worker is its second entry (the asset plugin would copy it
// unbundled), so the plugin skips the app's index.js; everything else -
// the package included - goes through it as a Rollup user's config would.
async function buildRollup(dir) {
  const { rollup } = await import('rollup');
  const { nodeResolve } = await import('@rollup/plugin-node-resolve');
  const { importMetaAssets } = await import('@web/rollup-plugin-import-meta-assets');
  const warnings = [];
  const cwd = process.cwd();
  process.chdir(APP);
  try {
    const b = await rollup({ input: { index: 'src/index.js', worker: 'src/worker.js' }, plugins: [nodeResolve(), importMetaAssets({ exclude: ['src/index.js'] })], onwarn: (w) => warnings.push(w.message) });
    await b.write({ dir, format: 'es', entryFileNames: '[name].js' });
    await b.close();
  } finally {
    process.chdir(cwd);
  }
  fs.writeFileSync(path.join(dir, 'index.html'), PAGE('./index.js', 'module'));
  return { dir, page: 'index.html', warnings };
}

async function buildParcel(dir) {
  const r = sh(path.join(BIN, 'parcel'), ['build', 'index.html', '--dist-dir', dir, '--cache-dir', path.join(tmp, 'parcel-cache'), '--no-autoinstall', '--public-url', '/', '--log-level', 'warn'], APP, 180_000);
  const out = `${r.stdout}\n${r.stderr}`.trim();
  if (r.status !== 0) throw new Error(`parcel build exit ${r.status}:\n${out.slice(-1500)}`);
  return { dir, page: 'index.html', warnings: out ? [out] : [] };
}

// A Vite logger that also records warnings and errors.
function capture(logger, into) {
  for (const k of ['warn', 'warnOnce', 'error']) {
    const f = logger[k].bind(logger);
    logger[k] = (msg, o) => { into.push(String(msg)); f(msg, o); };
  }
  logger.info = () => {}; // the file list: not wanted in the test log
  return logger;
}

const freePort = () => new Promise((res) => { const t = http.createServer(); t.listen(0, '127.0.0.1', () => { const p = t.address().port; t.close(() => res(p)); }); });

// --- running an output in Chromium ---------------------------------------------

let browser = null;
const servers = [];

async function serve(dir) {
  const routes = {};
  for (const [f, b] of Object.entries(ARCHIVES)) routes[`/${f}`] = ['application/octet-stream', b];
  // Core modules at URLs of the page's choosing, for { wasm: '/…' }.
  for (const v of ['scalar', 'simd128-threads']) routes[`/core/${v}.wasm`] = ['application/wasm', fs.readFileSync(path.join(PKG_DIR, `dist/hologram-${v}.wasm`))];
  const srv = await startServer({ routes, mounts: [['/', dir]], headers: () => ISOLATION });
  servers.push(srv);
  return srv;
}

async function pageResult(url) {
  const { page, problems } = browser;
  problems.length = 0;
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => document.body && document.body.dataset.done === '1', null, { timeout: STEP_MS });
  return page.evaluate(() => globalThis.__holo);
}

async function runPage(url) {
  const { problems } = browser;
  const got = await pageResult(url);
  assert(got && got.ok, `app: ${got && got.error} (${got && got.code})`);
  assert(problems.length === 0, `page problems:\n${problems.join('\n')}`);
  return got;
}

function sameAsNode(got, archive, threads) {
  const variant = threads > 1 ? 'simd128' : got.backend; // the threaded module's bytes are simd128's
  const w = nodeOutput(archive, variant);
  assert(got.archiveLabel === w.archiveLabel, `archive label ${got.archiveLabel} != ${w.archiveLabel}`);
  assert(got.label === w.label, `label ${got.label} != Node's ${w.label}`);
  assert(JSON.stringify(got.shape) === JSON.stringify(w.shape), `shape ${got.shape} != ${w.shape}`);
  assert(JSON.stringify(got.bytes) === JSON.stringify(w.bytes), `output bytes differ from Node's (${variant})`);
  return `${got.backend}, ${got.label.slice(0, 19)}…`;
}

async function runAll(name, base) {
  await S.check(`${name}: { wasm: '/core/scalar.wasm' } (a string: page-relative) in the worker, same bytes as Node's scalar`, async () => {
    const got = await runPage(`${base}?mode=worker&wasm=/core/scalar.wasm&variant=scalar`);
    assert(got.backend === 'scalar', `backend ${got.backend}`);
    return sameAsNode(got, 'mlp.holo', 1);
  });
  await S.check(`${name}: { wasm: '/core/simd128-threads.wasm', threads: 2 } runs the given threaded build`, async () => {
    const got = await runPage(`${base}?mode=page&archive=mm.holo&threads=2&wasm=/core/simd128-threads.wasm`);
    assert(got.backend === 'simd128-threads' && got.threads === 2, `backend ${got.backend}, threads ${got.threads}: ${got.why}`);
    return sameAsNode(got, 'mm.holo', 2);
  });
  await S.check(`${name}: page runs mlp.holo, same bytes and label as Node`, async () => {
    const got = await runPage(`${base}?mode=page`);
    assert(!got.inWorker, 'ran in a worker');
    return sameAsNode(got, 'mlp.holo', 1);
  });
  await S.check(`${name}: module Web Worker runs mlp.holo, same bytes and label as Node`, async () => {
    const got = await runPage(`${base}?mode=worker`);
    assert(got.inWorker, 'did not run in a worker');
    return sameAsNode(got, 'mlp.holo', 1);
  });
  await S.check(`${name}: threads: 2 on the cross-origin-isolated page, workers take tasks, same bytes as Node`, async () => {
    const got = await runPage(`${base}?mode=page&archive=mm.holo&threads=2`);
    assert(got.isolated, 'page not cross-origin isolated');
    assert(got.backend === 'simd128-threads' && got.threads === 2, `backend ${got.backend}, threads ${got.threads}: ${got.why}`);
    assert(got.pool && got.pool.workerTasks > 0, `the worker ran no task: ${JSON.stringify(got.pool)}`);
    return `${sameAsNode(got, 'mm.holo', 2)}, worker tasks ${got.pool.workerTasks}`;
  });
}

// The classic deployment faults, in a built app: the server answers the
// core module's URL with its index.html; the threads worker script does not load.
async function faults(name, base) {
  const { page } = browser;
  await S.check(`${name}: a core module URL answered with index.html is an error that says so and names the fix`, async () => {
    await page.route('**/*.wasm', (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html><body><div id="app"></div></body></html>' }));
    try {
      const got = await pageResult(`${base}?mode=page`);
      assert(got && !got.ok && got.code === 'UNSUPPORTED', `got ${JSON.stringify(got).slice(0, 200)}`);
      assert(/got an HTML page \(content-type text\/html\), not WebAssembly/.test(got.error) && /Using with a bundler/.test(got.error), got.error);
      return got.error.slice(0, 90) + '…';
    } finally {
      await page.unroute('**/*.wasm');
    }
  });
  await S.check(`${name}: a threads worker script that does not load: one thread, and the reason`, async () => {
    // Both pool scripts (threads-supervisor.js, a worker entry; threads-worker.js, an asset that Vite
    // inlines as a data: URL below its assetsInlineLimit, so there only the supervisor is requested).
    for (const f of POOL_SCRIPTS) await page.route(f, (r) => r.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
    try {
      const got = await pageResult(`${base}?mode=page&archive=mm.holo&threads=2`);
      assert(got && got.ok, `app: ${got && got.error}`);
      assert(got.threads === 1 && /1 of 1 workers did not start: (the pool supervisor did not start: )?the worker script threads-(supervisor|worker)\.js did not load/.test(got.why ?? ''), `threads ${got.threads}, why: ${got.why}`);
      sameAsNode(got, 'mm.holo', 2);
      return got.why.slice(0, 90) + '…';
    } finally {
      for (const f of POOL_SCRIPTS) await page.unroute(f);
    }
  });
}

const POOL_SCRIPTS = ['**/threads-supervisor*.js', '**/threads-worker*.js'];
const BUILDS = { vite: buildVite, vite7: (d) => buildVite(d, 'vite7'), vite6: (d) => buildVite(d, 'vite6'), webpack: buildWebpack, esbuild: buildEsbuild, rollup: buildRollup, parcel: buildParcel };

// webpack's performance hint names every emitted file over 244 KiB: the
// core modules are several hundred KiB each. It is reported (README: how to
// set the limit, checked below), not counted as a package fault; every
// other warning is one.
const isSizeHint = (name, w) => name === 'webpack' && /^(asset|entrypoint) size limit: .*\n(.*\n)*?Assets: \n(\s+\S+\.wasm \(\d+ KiB\)\n?)+$/.test(w.trim() + '\n');

async function main() {
  const t0 = Date.now();
  let tgz;
  await S.check('npm pack of bindings-js installs into tests/bundlers/app (offline)', () => {
    const r = sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], path.join(ROOT, 'bindings-js'));
    assert(r.status === 0, r.stderr);
    const p = JSON.parse(r.stdout)[0];
    tgz = path.join(tmp, p.filename);
    fs.rmSync(path.join(APP, 'node_modules'), { recursive: true, force: true });
    const i = sh('npm', ['install', tgz, '--no-save', '--no-package-lock', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], APP);
    assert(i.status === 0, i.stderr);
    assert(fs.existsSync(path.join(PKG_DIR, 'dist/hologram-simd128-threads.wasm')), 'the tarball lacks dist/hologram-simd128-threads.wasm');
    return `${p.filename}: ${p.size} bytes packed, ${p.unpackedSize} unpacked`;
  });
  browser = await launch(STEP_MS);

  for (const [name, build] of Object.entries(BUILDS)) {
    if (!want(name)) continue;
    let out = null;
    await S.check(`${name}: builds the app with no errors and no warnings from the package`, async () => {
      const t = Date.now();
      out = await build(path.join(tmp, `out-${name}`));
      const hints = out.warnings.filter((w) => isSizeHint(name, w));
      const bad = out.warnings.filter((w) => !isSizeHint(name, w));
      assert(bad.length === 0, `${bad.length} warning(s):\n${bad.join('\n---\n').slice(0, 3000)}`);
      assert(fs.existsSync(path.join(out.dir, out.page)), `no ${out.page} in the output`);
      const wasm = fs.readdirSync(out.dir, { recursive: true }).filter((f) => String(f).endsWith('.wasm'));
      assert(wasm.length >= 4, `${wasm.length} .wasm files emitted`);
      return `${((Date.now() - t) / 1000).toFixed(1)} s, ${wasm.length} wasm files${hints.length ? `; webpack's size hint on the .wasm files (${hints.length})` : ''}`;
    });
    if (!out) continue;
    if (name === 'webpack') {
      await S.check("webpack with the README's performance.maxAssetSize (1 MiB): no warnings at all", async () => {
        const w = (await buildWebpack(path.join(tmp, 'out-webpack-limit'), { performance: { maxAssetSize: 1024 * 1024 } })).warnings;
        assert(w.length === 0, w.join('\n---\n').slice(0, 2000));
      });
    }
    const srv = await serve(out.dir);
    await runAll(name, srv.url + out.page);
    if (name === 'vite') await faults(name, srv.url + out.page);
  }

  if (want('vite-dev')) await viteDev('vite-dev', 'vite');
  // Vite 7 and 6 (npm aliases vite7, vite6): their esbuild dependency optimizer leaves the
  // package's URLs pointing into node_modules/.vite/deps/ (src/variants.js).
  if (want('vite7-dev')) await viteDev('vite7-dev', 'vite7');
  if (want('vite6-dev')) await viteDev('vite6-dev', 'vite6');
  if (want('cloudflare')) await cloudflare();
  console.log(`# ${((Date.now() - t0) / 1000).toFixed(1)} s in all`);
}

// The Vite dev server: dependency pre-bundling moves the package's code into
// node_modules/.vite/deps/ without its assets; the page, the worker and the
// threads worker must still find their files.
async function viteDev(name, pkg) {
  const { createServer, createLogger } = await import(pkg);
  const warnings = [];
  const publicDir = path.join(tmp, 'public');
  fs.mkdirSync(publicDir, { recursive: true });
  for (const [f, b] of Object.entries(ARCHIVES)) fs.writeFileSync(path.join(publicDir, f), b);
  fs.rmSync(path.join(APP, 'node_modules/.vite'), { recursive: true, force: true });
  let server = null;
  try {
    server = await createServer({ root: APP, configFile: false, publicDir, logLevel: 'info', customLogger: capture(createLogger('info', { allowClearScreen: false }), warnings), server: { host: '127.0.0.1', port: await freePort(), strictPort: true, headers: ISOLATION, hmr: false, watch: null } });
    await server.listen();
    const base = server.resolvedUrls.local[0];
    // A dev server optimizes dependencies on the first request and may
    // reload the page once when it finds more (aborting that load's
    // requests): a user's first load, not the package's; checked from the next.
    await pageResult(`${base}?mode=page`).catch(() => {});
    await S.check(`${name}: page runs mlp.holo, same bytes and label as Node`, async () => sameAsNode(await runPage(`${base}?mode=page`), 'mlp.holo', 1));
    await S.check(`${name}: module Web Worker runs mlp.holo, same bytes and label as Node`, async () => {
      const got = await runPage(`${base}?mode=worker`);
      assert(got.inWorker, 'did not run in a worker');
      return sameAsNode(got, 'mlp.holo', 1);
    });
    await S.check(`${name}: threads: 2, same bytes as Node`, async () => {
      const got = await runPage(`${base}?mode=page&archive=mm.holo&threads=2`);
      assert(got.backend === 'simd128-threads' && got.threads === 2, `backend ${got.backend}, threads ${got.threads}: ${got.why}`);
      return sameAsNode(got, 'mm.holo', 2);
    });
    await S.check(`${name}: no warnings from the dev server`, () => assert(warnings.length === 0, warnings.join('\n')));
  } finally {
    if (server) await server.close();
  }
}

// The README's Cloudflare Workers recipe (tests/bundlers/app/cloudflare/
// worker.js, the README's code verbatim), bundled by esbuild the way
// wrangler bundles (conditions workerd/worker/browser; .wasm and .holo
// imports left as modules the config provides), served by workerd.
async function cloudflare() {
  const WORKERD = path.join(ROOT, 'node_modules/@cloudflare/workerd-linux-64/bin/workerd');
  const src = fs.readFileSync(path.join(APP, 'cloudflare/worker.js'), 'utf8');
  await S.check('cloudflare: the README recipe is tests/bundlers/app/cloudflare/worker.js verbatim', () => {
    assert(fs.readFileSync(path.join(ROOT, 'bindings-js/README.md'), 'utf8').includes('```js\n' + src + '```'), 'README and the tested worker differ');
  });
  await S.check('cloudflare: bundled as wrangler does, the worker runs under workerd with Node\'s bytes', async () => {
    assert(fs.existsSync(WORKERD), `workerd missing at ${WORKERD}`);
    const esbuild = await import('esbuild');
    const dir = path.join(tmp, 'out-cloudflare');
    const asModules = { name: 'modules', setup(b) { b.onResolve({ filter: /\.(wasm|holo)$/ }, (a) => ({ path: path.basename(a.path), external: true })); } };
    const r = await esbuild.build({ absWorkingDir: APP, entryPoints: ['cloudflare/worker.js'], bundle: true, format: 'esm', platform: 'neutral', conditions: ['workerd', 'worker', 'browser'], mainFields: ['browser', 'module', 'main'], outfile: path.join(dir, 'worker.js'), plugins: [asModules], logLevel: 'silent' });
    assert(r.warnings.length === 0, `esbuild warnings: ${JSON.stringify(r.warnings).slice(0, 500)}`);
    fs.copyFileSync(path.join(PKG_DIR, 'dist/hologram-simd128.wasm'), path.join(dir, 'hologram-simd128.wasm'));
    fs.writeFileSync(path.join(dir, 'model.holo'), ARCHIVES['mlp.holo']);
    const port = await freePort();
    fs.writeFileSync(path.join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const w :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "hologram-simd128.wasm", wasm = embed "hologram-simd128.wasm"),
    (name = "model.holo", data = embed "model.holo"),
  ],
  compatibilityDate = "2025-01-01",
);
`);
    const child = spawn(WORKERD, ['serve', path.join(dir, 'config.capnp')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (d) => { log += d; });
    child.stderr.on('data', (d) => { log += d; });
    try {
      let res = null;
      for (const t = Date.now(); !res && Date.now() - t < 20_000 && child.exitCode === null;) {
        res = await fetch(`http://127.0.0.1:${port}/`).catch(() => null);
        if (!res) await new Promise((r) => setTimeout(r, 100));
      }
      assert(res, `workerd did not serve (exit ${child.exitCode}):\n${log}`);
      const body = await res.json();
      assert(res.status === 200 && body.label, `worker: ${JSON.stringify(body)}\n${log}`);
      const { load } = await import(pathToFileURL(path.join(PKG_DIR, 'index.js')).href);
      const s = await load(ARCHIVES['mlp.holo'], { variant: 'simd128' });
      const [y] = s.execute([new Float32Array(64)]);
      assert(body.label === y.label && JSON.stringify(body.y) === JSON.stringify(Array.from(y.data)), `label ${body.label} != ${y.label}`);
      s.dispose();
      return `${body.label.slice(0, 19)}…, bundle ${fs.statSync(path.join(dir, 'worker.js')).size} bytes`;
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
    }
  });
}

try {
  await main();
} catch (e) {
  S.failed++;
  console.log(`FAIL setup: ${e && e.message ? e.message.split('\n').slice(0, 4).join('\n     ') : e}`);
}
for (const s of servers) await s.close().catch(() => {});
await finish(S, { browser });
fs.rmSync(tmp, { recursive: true, force: true });
fs.rmSync(path.join(APP, 'node_modules'), { recursive: true, force: true });
process.exit(process.exitCode ?? 0);
