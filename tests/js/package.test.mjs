// bindings-js as the published package: manifest, packed files, exports map,
// the core module's imports, variant selection.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { spawnSync } from 'node:child_process';
import { load, init, features, VARIANTS, HologramError } from '../../bindings-js/index.js';
import { PKG, fixture, inputsFor } from './helpers.mjs';

const pkg = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8'));
const shipped = readdirSync(join(PKG, 'dist')).filter((f) => f.endsWith('.wasm'));

test('package.json: name, ESM, exports with types, no runtime dependencies', () => {
  assert.is(pkg.name, 'hologram-exec');
  assert.is(pkg.type, 'module');
  assert.is(pkg.exports['.'].types, './index.d.ts');
  assert.is(pkg.exports['.'].default, './index.js');
  for (const s of ['memory', 'node-dir', 'browser', 'cloudflare-kv', 'cloudflare-r2']) assert.is(pkg.exports[`./stores/${s}`].types, `./stores/${s}.d.ts`);
  assert.is(pkg.dependencies, undefined);
  assert.ok(pkg.files.includes('dist/*.wasm'));
});

test('npm pack ships the shim, types, stores and every dist/*.wasm, and no C', () => {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PKG, encoding: 'utf8', timeout: 60000 });
  assert.is(r.status, 0, r.stderr);
  const files = JSON.parse(r.stdout)[0].files.map((f) => f.path).sort();
  for (const f of ['index.js', 'index.d.ts', 'package.json', 'README.md', 'stores/memory.js', 'stores/node-dir.js', 'stores/browser.js', 'stores/label.js', 'stores/listed.js', 'stores/cloudflare-kv.js', 'stores/cloudflare-r2.js', 'stores/memory.d.ts', 'src/threads.js', 'src/threads-worker.js', 'src/threads-supervisor.js', 'dist/layout.js']) assert.ok(files.includes(f), `${f} missing from ${files}`);
  // The shim is shipped as it is (no build step): each src/*.js, and every file index.js reaches by relative imports.
  for (const f of readdirSync(join(PKG, 'src')).filter((n) => n.endsWith('.js'))) assert.ok(files.includes(`src/${f}`), `src/${f} missing from ${files}`);
  const seen = new Set(), todo = ['index.js'];
  while (todo.length) {
    const f = todo.pop();
    if (seen.has(f)) continue;
    seen.add(f);
    assert.ok(files.includes(f), `${f} (imported) missing from the package`);
    const text = readFileSync(join(PKG, f), 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\(\s*)'(\.{1,2}\/[^']+)'/g)) todo.push(posix.normalize(posix.join(posix.dirname(f), m[1])));
  }
  assert.ok(seen.has('src/session.js') && seen.has('dist/layout.js') && seen.has('src/threads.js'), [...seen].join(' '));
  for (const w of shipped) assert.ok(files.includes(`dist/${w}`), w);
  assert.not.ok(files.some((f) => f.startsWith('src-c/') || f.endsWith('.c')), 'C sources are not shipped');
});

test('the package resolves itself through its exports map', async () => {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `
    import { load } from 'hologram-exec'; import { MemoryWarmStore } from 'hologram-exec/stores/memory';
    import { NodeDirWarmStore } from 'hologram-exec/stores/node-dir'; import { openBrowserStore } from 'hologram-exec/stores/browser';
    console.log(typeof load, typeof MemoryWarmStore, typeof NodeDirWarmStore, typeof openBrowserStore);`], { cwd: PKG, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout.trim(), 'function function function function');
});

// Node 20 compiles relaxed SIMD only behind a flag: inspect in a child that has it.
function inspect(file) {
  const code = `const fs = await import('node:fs'); const m = new WebAssembly.Module(fs.readFileSync(${JSON.stringify(file)}));
    console.log(JSON.stringify({ imports: WebAssembly.Module.imports(m), exports: WebAssembly.Module.exports(m) }));`;
  const r = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', '--input-type=module', '-e', code], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('every core module imports only env.holo_host_sha256 / holo_host_store_get / holo_host_store_put / holo_host_source_read / holo_host_clock_ms (+ its memory and holo_pool_signal, threaded)', () => {
  assert.ok(shipped.includes('hologram-simd128.wasm'));
  for (const w of shipped) {
    const { imports, exports } = inspect(join(PKG, 'dist', w));
    // The threaded module imports its (shared) memory instead of exporting one,
    // and the pool's test-fault signal (threads.c; only worker instances call it).
    const threaded = w.includes('-threads');
    const want = ['env.holo_host_sha256:function', 'env.holo_host_store_get:function', 'env.holo_host_store_put:function', 'env.holo_host_source_read:function', 'env.holo_host_clock_ms:function', ...(threaded ? ['env.memory:memory', 'env.holo_pool_signal:function'] : [])].sort();
    assert.equal(imports.map((i) => `${i.module}.${i.name}:${i.kind}`).sort(), want, w);
    assert.is(exports.some((e) => e.name === 'memory' && e.kind === 'memory'), !threaded, w);
    if (threaded) for (const e of ['holo_worker_main', 'holo_pool_quit', '__stack_pointer']) assert.ok(exports.some((x) => x.name === e), `${w} exports ${e}`);
  }
});

test('with relaxed SIMD available (node --experimental-wasm-relaxed-simd), load() picks relaxed when shipped', () => {
  const code = `import { load, features } from ${JSON.stringify(join(PKG, 'index.js'))}; import fs from 'node:fs';
    const s = await load(fs.readFileSync(${JSON.stringify(join(PKG, '..', 'tests', 'fixtures', 'mlp.holo'))}));
    const y = s.execute([new Float32Array(64).fill(0.5)])[0];
    console.log(JSON.stringify({ f: features(), backend: s.backend, y: Array.from(y.data) }));`;
  const r = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', '--input-type=module', '-e', code], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.is(out.f.relaxedSimd, true);
  assert.is(out.backend, shipped.includes('hologram-relaxed.wasm') ? 'relaxed' : 'simd128');
  assert.is(out.y.length, 10);
  assert.ok(out.y.every(Number.isFinite));
});

test('variant selection: the best shipped variant this engine runs; override with { variant }', async () => {
  const f = features();
  assert.type(f.simd, 'boolean');
  assert.type(f.relaxedSimd, 'boolean');
  assert.equal(VARIANTS, ['relaxed', 'simd128', 'scalar']);
  const file = { relaxed: 'hologram-relaxed.wasm', simd128: 'hologram-simd128.wasm', scalar: 'hologram-scalar.wasm' };
  const ok = (v) => v === 'scalar' || (v === 'simd128' && f.simd) || (v === 'relaxed' && f.relaxedSimd);
  const expected = VARIANTS.find((v) => ok(v) && shipped.includes(file[v]));
  const s = await load(fixture('cse'));
  assert.is(s.backend, expected);
  const ref = s.execute(inputsFor(s))[0];
  for (const v of VARIANTS) {
    if (!shipped.includes(file[v])) {
      try { await load(fixture('cse'), { variant: v }); assert.unreachable(v); } catch (e) { assert.instance(e, HologramError); assert.ok(['ARG', 'UNSUPPORTED'].includes(e.code), e.message); }
      continue;
    }
    if (!ok(v)) continue;
    const t = await load(fixture('cse'), { variant: v });
    assert.is(t.backend, v);
    const y = t.execute(inputsFor(t))[0];
    assert.equal(Array.from(y.data), Array.from(ref.data), v); // Relu + Add: exact in every variant
  }
});

test('init from bytes, a URL and a precompiled WebAssembly.Module', async () => {
  const bytes = readFileSync(join(PKG, 'dist', 'hologram-simd128.wasm'));
  const url = new URL('../../bindings-js/dist/hologram-simd128.wasm', import.meta.url);
  const mod = new WebAssembly.Module(bytes);
  const labels = [];
  for (const src of [bytes, url, url.href, mod]) {
    const rt = await init(src, { variant: 'simd128' });
    assert.is(rt.variant, 'simd128');
    const s = rt.load(fixture('cse'));
    labels.push(s.execute(inputsFor(s))[0].label);
  }
  assert.is(new Set(labels).size, 1);
  assert.is((await load(fixture('cse'), { wasm: mod })).backend, 'custom');
  try { await init(new Uint8Array([0, 97, 115, 109, 9, 9])); assert.unreachable(); } catch (e) { assert.is(e.code, 'UNSUPPORTED'); }
  try { await init(new URL('./nope.wasm', url)); assert.unreachable(); } catch (e) { assert.is(e.code, 'ARG'); }
});

test.run();
