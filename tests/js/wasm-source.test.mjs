// What `{ wasm }` / init(wasm) accepts and what a wrong one says: a URL,
// string (absolute URL, or in Node a path relative to the working directory),
// Response, bytes or WebAssembly.Module, honoured by the single-thread and the
// threaded module alike; an HTML page where the module should be (a dev
// server's index.html fallback) is named as such with the fix; a worker that
// fails to start says why (issue 25).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import http from 'node:http';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { init, load, HologramError } from '../../bindings-js/index.js';
import { workerErrorText } from '../../bindings-js/src/threads.js';
import { PKG, fixture } from './helpers.mjs';

const DIST = join(PKG, 'dist');
const file = (v) => join(DIST, `hologram-${v}.wasm`);
const X = new Float32Array(64).map((_, k) => Math.sin(k * 0.23));
const bytesOf = (a) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
const INDEX_HTML = '<!doctype html><html><head><title>app</title></head><body><script type="module" src="/main.js"></script></body></html>';

// A dev-server stand-in: the real module at /core.wasm, index.html for anything else.
let server, base;
test.before(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/core.wasm') { res.writeHead(200, { 'content-type': 'application/wasm' }); return res.end(fs.readFileSync(file('scalar'))); }
    if (req.url === '/untyped') { res.writeHead(200, { 'content-type': 'application/octet-stream' }); return res.end(INDEX_HTML); }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(INDEX_HTML);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});
test.after(() => new Promise((r) => server.close(r)));

async function mlpOut(options) {
  const s = await load(fixture('mlp'), options);
  const [y] = s.execute([X]);
  const r = { backend: s.backend, label: y.label, bytes: bytesOf(y.data) };
  s.dispose();
  return r;
}

test('every form of { wasm } runs the given single-thread module with the shipped one\'s bytes and labels', async () => {
  const want = await mlpOut({ variant: 'scalar' });
  const bytes = new Uint8Array(fs.readFileSync(file('scalar')));
  const forms = {
    URL: pathToFileURL(file('scalar')),
    'file: URL string': pathToFileURL(file('scalar')).href,
    'absolute path': file('scalar'),
    'path relative to the working directory': relative(process.cwd(), file('scalar')),
    'http URL string': `${base}/core.wasm`,
    Response: new Response(bytes, { headers: { 'content-type': 'application/wasm' } }),
    Uint8Array: bytes,
    ArrayBuffer: bytes.slice().buffer,
    'WebAssembly.Module': await WebAssembly.compile(bytes),
  };
  for (const [what, wasm] of Object.entries(forms)) {
    const got = await mlpOut({ wasm, variant: 'scalar' });
    assert.equal(got, want, what);
  }
});

test('{ wasm } is honoured by threads: the given threaded build runs 2 threads, same bytes as simd128', async () => {
  const want = await mlpOut({ variant: 'simd128' });
  const bytes = new Uint8Array(fs.readFileSync(file('simd128-threads')));
  for (const [what, wasm] of Object.entries({ path: file('simd128-threads'), URL: pathToFileURL(file('simd128-threads')), bytes, Response: new Response(bytes), Module: await WebAssembly.compile(bytes) })) {
    const rt = await init(wasm, { threads: 2 });
    assert.is(rt.threads, 2, `${what}: ${rt.threadsUnavailable}`);
    const s = rt.load(fixture('mlp'));
    assert.is(s.backend, 'simd128-threads', what);
    const [y] = s.execute([X]);
    assert.equal({ label: y.label, bytes: bytesOf(y.data) }, { label: want.label, bytes: want.bytes }, what);
    s.dispose();
    rt.dispose();
  }
  const s = await load(fixture('mlp'), { wasm: bytes, threads: 2 });
  assert.is(s.backend, 'simd128-threads');
  s.dispose();
});

test('a single-thread module given with threads runs on one thread and says why; named as the threaded variant it is an ARG error', async () => {
  const rt = await init(file('simd128'), { threads: 2 });
  assert.is(rt.threads, 1);
  assert.match(rt.threadsUnavailable, /not the threaded build \(hologram-simd128-threads\.wasm\)/);
  const s = rt.load(fixture('mlp'));
  assert.is(s.execute([X])[0].shape.join(), '1,10');
  s.dispose();
  try {
    await init(file('simd128'), { variant: 'simd128-threads', threads: 2 });
    assert.unreachable('accepted');
  } catch (e) {
    assert.instance(e, HologramError);
    assert.is(e.code, 'ARG');
  }
});

async function refusal(wasm) {
  try {
    await load(fixture('mlp'), { wasm });
  } catch (e) {
    assert.instance(e, HologramError);
    return e;
  }
  throw new Error('an HTML page was accepted as the core module');
}

test('an HTML page where the module should be says so and names the fix', async () => {
  let e = await refusal(`${base}/node_modules/.vite/deps/hologram-simd128.wasm`);
  assert.is(e.code, 'UNSUPPORTED');
  assert.match(e.message, /got an HTML page \(content-type text\/html; charset=utf-8\), not WebAssembly/);
  assert.match(e.message, /index\.html/);
  assert.match(e.message, /serve node_modules\/hologram-exec\/dist\/\*\.wasm there, or pass \{ wasm \}/);
  assert.match(e.message, /Using with a bundler/);
  e = await refusal(`${base}/untyped`); // no text/html header: the bytes tell
  assert.match(e.message, /got an HTML page \(content-type application\/octet-stream\)/);
  e = await refusal(await fetch(`${base}/index.html`)); // a Response
  assert.match(e.message, /HTML page/);
  e = await refusal(new TextEncoder().encode(`\n  ${INDEX_HTML}`)); // bytes
  assert.match(e.message, /it is an HTML page, not WebAssembly: .*pass \{ wasm \}/);
  e = await refusal(new Uint8Array([1, 2, 3, 4])); // not HTML: the compiler's own reason
  assert.match(e.message, /^cannot compile the given bytes: /);
  assert.not.match(e.message, /HTML/);
});

test('a failed Response and a missing file are ARG errors naming what was given', async () => {
  let e = await refusal(new Response('gone', { status: 404 }));
  assert.is(e.code, 'ARG');
  assert.match(e.message, /HTTP 404/);
  e = await refusal(join(DIST, 'no-such.wasm'));
  assert.is(e.code, 'ARG');
  assert.match(e.message, /core module not found: .*no-such\.wasm/);
});

test('a worker that fails to start says why, whatever the error event carries', () => {
  // A browser's 'error' event for a worker script that did not load: a bare Event.
  assert.match(workerErrorText({ type: 'error' }), /threads-worker\.js did not load or evaluate .*served, as JavaScript/);
  assert.match(workerErrorText(undefined), /did not load or evaluate/);
  // An ErrorEvent from a script that threw: its message and where.
  assert.is(workerErrorText({ type: 'error', message: 'SyntaxError: Unexpected token', filename: 'http://h/w.js', lineno: 3 }), 'SyntaxError: Unexpected token (http://h/w.js:3)');
  // Node's worker 'error': an Error.
  assert.is(workerErrorText(new TypeError('x is not a function')), 'x is not a function');
  assert.is(workerErrorText(new Error('')), 'Error');
  assert.not.match(workerErrorText({}), /undefined/);
});

test('where threads cannot run (no SharedArrayBuffer: workerd, a page without isolation) a given single-thread module is still the one that runs', async () => {
  const script = `
    delete globalThis.SharedArrayBuffer;
    const { init } = await import(${JSON.stringify(pathToFileURL(join(PKG, 'index.js')).href)});
    const rt = await init(${JSON.stringify(file('scalar'))}, { threads: 2, variant: undefined });
    const s = rt.load(new Uint8Array((await import('node:fs')).readFileSync(${JSON.stringify(join(PKG, '..', 'tests', 'fixtures', 'mlp.holo'))})));
    const [y] = s.execute([new Float32Array(64).fill(0.5)]);
    console.log(JSON.stringify({ variant: rt.variant, threads: rt.threads, why: rt.threadsUnavailable, label: y.label }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60000 });
  assert.is(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout);
  assert.is(got.threads, 1);
  assert.match(got.why, /not the threaded build/);
  assert.is(got.variant, 'custom');
  const s = await load(fixture('mlp'), { variant: 'scalar' });
  assert.is(got.label, s.execute([new Float32Array(64).fill(0.5)])[0].label, 'the given scalar module ran');
  s.dispose();
});

test('without process.getBuiltinModule (Node < 20.16) the built-ins come by import(): dist/ is read and the threads start', () => {
  const script = `
    process.getBuiltinModule = undefined;
    const { load } = await import(${JSON.stringify(pathToFileURL(join(PKG, 'index.js')).href)});
    const b = new Uint8Array((await import('node:fs')).readFileSync(${JSON.stringify(join(PKG, '..', 'tests', 'fixtures', 'mlp.holo'))}));
    const out = {};
    for (const [k, o] of Object.entries({ one: { variant: 'simd128' }, two: { threads: 2 } })) {
      const s = await load(b, o);
      const [y] = s.execute([new Float32Array(64).fill(0.5)]);
      out[k] = { backend: s.backend, label: y.label };
      s.dispose();
    }
    console.log(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60000 });
  assert.is(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout);
  assert.is(got.one.backend, 'simd128');
  assert.is(got.two.backend, 'simd128-threads');
  assert.is(got.two.label, got.one.label);
});

test.run();
