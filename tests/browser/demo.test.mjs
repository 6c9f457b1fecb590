// Browser test of the web demo: starts web-demo/server.mjs on a free port,
// drives Debian's chromium headless (playwright-core, fresh profile), draws
// on the canvas and checks the prediction, then runs a .holo fixture in the
// second panel. Screenshot: tests/artifacts/demo.png.
//
//   node tests/browser/demo.test.mjs      last line: "browser: N passed, N failed"
//
// Needs web-demo/model/digits.holo (`make`). Bounded: every wait has a
// timeout and a watchdog ends the run after WATCHDOG_MS; exit code 1 on any failure.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT, assert, suite, launch, finish } from './harness.mjs';

const STEP_MS = 15_000;
const SHOT = path.join(ROOT, 'tests/artifacts/demo.png');
const S = suite('browser', 55_000);
const check = S.check;
let server = null, browser = null;

function rawStatus(base, rawPath) {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: u.hostname, port: u.port, path: rawPath, timeout: 5000 }, (res) => { res.resume(); resolve(res.statusCode); });
    req.on('timeout', () => req.destroy(new Error(`GET ${rawPath}: timeout`)));
    req.on('error', reject);
  });
}

async function main() {
  const { start } = await import('../../web-demo/server.mjs');
  const model = path.join(ROOT, 'web-demo/model/digits.holo');
  if (!fs.existsSync(model)) throw new Error('web-demo/model/digits.holo is missing: run `make` first');

  server = await start({ port: 0 });
  const url = server.url;

  await check('server: COOP/COEP headers, wasm MIME type, no traversal', async () => {
    const r = await fetch(url);
    assert(r.status === 200, `GET / -> ${r.status}`);
    assert(r.headers.get('cross-origin-opener-policy') === 'same-origin', 'no COOP: same-origin');
    assert(r.headers.get('cross-origin-embedder-policy') === 'require-corp', 'no COEP: require-corp');
    const w = await fetch(new URL('/bindings-js/dist/hologram-simd128.wasm', url));
    assert(w.status === 200 && w.headers.get('content-type') === 'application/wasm', `wasm: ${w.status} ${w.headers.get('content-type')}`);
    await w.arrayBuffer();
    for (const bad of ['/../Makefile', '/%2e%2e/Makefile', '/bindings-js/..%2f..%2fMakefile', '/bindings-js/../../Makefile', '/.gitignore']) {
      const status = await rawStatus(url, bad); // fetch() would normalise the path
      assert(status === 404, `${bad} -> ${status}`);
    }
  });

  browser = await launch(STEP_MS, { viewport: { width: 1100, height: 1000 } });
  const { page, problems } = browser;

  const ready = await check('page loads the model through the npm package', async () => {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: STEP_MS });
    const state = await page.evaluate(() => ({ ready: document.body.dataset.ready, status: document.getElementById('status').textContent, iso: globalThis.crossOriginIsolated }));
    assert(state.ready === '1', `not ready: ${state.status}`);
    assert(state.iso === true, 'the page is not cross-origin isolated');
    return state.status.slice(0, 90);
  });
  if (!ready) return;

  const variant = await page.$eval('#variant', (e) => e.dataset.variant);
  await check('the variant in use is shown', async () => {
    assert(['relaxed', 'simd128', 'scalar'].includes(variant), `variant: ${variant}`);
    return variant;
  });

  const box = await page.$eval('#pad', (e) => { const r = e.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; });
  const drawStroke = async (points) => {
    const p = (k) => [box.x + points[k][0] * box.w, box.y + points[k][1] * box.h];
    await page.mouse.move(...p(0));
    await page.mouse.down();
    for (let k = 1; k < points.length; k++) await page.mouse.move(...p(k), { steps: 4 });
    await page.mouse.up();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  };
  const readBars = () => page.$$eval('#bars .bar', (els) => els.map((e) => Number(e.dataset.prob)));

  await check('drawing a stroke gives 10 class probabilities summing to 1', async () => {
    await drawStroke([[0.5, 0.15], [0.5, 0.5], [0.49, 0.85]]); // a "1"
    await page.waitForFunction(() => Number(document.getElementById('prediction').dataset.seq) > 0, null, { timeout: STEP_MS });
    const probs = await readBars();
    assert(probs.length === 10, `${probs.length} bars`);
    assert(probs.every((p) => Number.isFinite(p) && p >= 0 && p <= 1), `bars: ${probs}`);
    const sum = probs.reduce((a, b) => a + b, 0);
    assert(Math.abs(sum - 1) < 1e-3, `bars sum to ${sum}`);
    const pred = await page.$eval('#prediction', (e) => e.textContent);
    const top = probs.indexOf(Math.max(...probs));
    assert(pred === String(top), `prediction ${pred} is not the top bar ${top}`);
    return `sum ${sum.toFixed(6)}, predicted ${pred}`;
  });

  await check('a vertical stroke is classified as 1', async () => {
    const pred = await page.$eval('#prediction', (e) => e.textContent);
    assert(pred === '1', `predicted ${pred}`);
  });

  await check('the latency is shown', async () => {
    const { text, ms } = await page.$eval('#latency', (e) => ({ text: e.textContent, ms: Number(e.dataset.ms) }));
    assert(Number.isFinite(ms) && ms >= 0 && ms < 5000 && / ms/.test(text), `latency: '${text}'`);
    const med = await page.$eval('#median', (e) => e.textContent);
    assert(/ ms over \d+/.test(med), `median: '${med}'`);
    return text;
  });

  await check('counters and resident memory are shown', async () => {
    const c = await page.evaluate(() => Object.fromEntries(['c-dispatches', 'c-elided', 'c-memo', 'c-executions', 'resident'].map((id) => [id, document.getElementById(id).textContent])));
    assert(Number(c['c-dispatches']) > 0 && Number(c['c-executions']) > 0, JSON.stringify(c));
    assert(/B \(\d+ values/.test(c.resident), `resident: ${c.resident}`);
    return `dispatches ${c['c-dispatches']}, executions ${c['c-executions']}, resident ${c.resident.split(' (')[0]}`;
  });

  await check('"Run again" is a memo hit: no new dispatches', async () => {
    const get = () => page.evaluate(() => ({ d: Number(document.getElementById('c-dispatches').textContent), m: Number(document.getElementById('c-memo').textContent) }));
    const before = await get();
    await page.click('#again');
    const after = await get();
    assert(after.d === before.d, `dispatches went ${before.d} -> ${after.d}`);
    assert(after.m === before.m + 1, `memo hits went ${before.m} -> ${after.m}`);
    return page.$eval('#latency', (e) => e.textContent);
  });

  await check('a second stroke (a "7") updates the prediction', async () => {
    await page.click('#clear');
    const seq0 = await page.$eval('#prediction', (e) => Number(e.dataset.seq));
    await drawStroke([[0.25, 0.22], [0.75, 0.22], [0.45, 0.85]]);
    await page.waitForFunction((s) => Number(document.getElementById('prediction').dataset.seq) > s, seq0, { timeout: STEP_MS });
    const probs = await readBars();
    const sum = probs.reduce((a, b) => a + b, 0);
    assert(Math.abs(sum - 1) < 1e-3, `bars sum to ${sum}`);
    const pred = await page.$eval('#prediction', (e) => e.textContent);
    assert(pred === '7', `predicted ${pred} (probabilities ${probs.map((p) => p.toFixed(2)).join(' ')})`);
    return `predicted ${pred}`;
  });

  await check('the .holo panel shows the ports of a dropped archive and runs it (symbolic dims -> 1)', async () => {
    await page.setInputFiles('#file', path.join(ROOT, 'tests/fixtures/symbolic.holo'));
    await page.waitForFunction(() => document.querySelectorAll('#outputs tbody tr').length > 0 || !document.getElementById('archive-error').hidden, null, { timeout: STEP_MS });
    const err = await page.$eval('#archive-error', (e) => (e.hidden ? '' : e.textContent));
    assert(!err, `error: ${err}`);
    const ports = await page.$$eval('#ports tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
    const outs = await page.$$eval('#outputs tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
    assert(ports.some((r) => r[0] === 'input') && ports.some((r) => r[0] === 'output'), `ports: ${JSON.stringify(ports)}`);
    assert(outs.every((r) => /^sha256:[0-9a-f]{64}$/.test(r[4])), `outputs: ${JSON.stringify(outs)}`);
    return ports.map((r) => `${r[0]} ${r[1]} ${r[2]}${r[3]}${r[4] ? ' <- ' + r[4] : ''}`).join('; ');
  });

  await check('the .holo panel runs the digit model too', async () => {
    await page.click('#use-digits');
    await page.waitForFunction(() => /digits\.holo/.test(document.getElementById('archive-info').textContent) && document.querySelectorAll('#outputs tbody tr').length === 1, null, { timeout: STEP_MS });
    await page.click('#rerun');
    const info = await page.$eval('#run-info', (e) => e.textContent);
    assert(/0 dispatches/.test(info) && /1 memo hits/.test(info), `rerun: ${info}`);
    return info;
  });

  await check('text panel: a prompt + Generate streams >= 20 new characters', async () => {
    await page.waitForFunction(() => !document.getElementById('tg-go').disabled, null, { timeout: STEP_MS });
    await page.fill('#tg-prompt', 'In the beginning');
    await page.fill('#tg-max', '30');
    await page.click('#tg-go');
    await page.waitForFunction(() => Number(document.getElementById('tg-out').dataset.generated) >= 20, null, { timeout: STEP_MS });
    const text = await page.textContent('#tg-out');
    if (!text.startsWith('In the beginning') || text.length < 'In the beginning'.length + 20) throw new Error(`output ${JSON.stringify(text)}`);
    return `${JSON.stringify(text)}; ${await page.textContent('#tg-status')}`;
  });
  await check('no page errors, console errors or failed requests', async () => {
    assert(problems.length === 0, problems.join('\n'));
  });

  await check(`screenshot ${path.relative(ROOT, SHOT)}`, async () => {
    fs.mkdirSync(path.dirname(SHOT), { recursive: true });
    await page.screenshot({ path: SHOT, fullPage: true });
    return `${fs.statSync(SHOT).size} bytes`;
  });

  await check('?variant=scalar loads the scalar core module and still classifies', async () => {
    await page.goto(new URL('?variant=scalar', url).href, { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: STEP_MS });
    const v = await page.$eval('#variant', (e) => e.dataset.variant);
    assert(v === 'scalar', `variant ${v}: ${await page.$eval('#status', (e) => e.textContent)}`);
    await drawStroke([[0.5, 0.15], [0.5, 0.5], [0.49, 0.85]]);
    await page.waitForFunction(() => Number(document.getElementById('prediction').dataset.seq) > 0, null, { timeout: STEP_MS });
    const pred = await page.$eval('#prediction', (e) => e.textContent);
    assert(pred === '1', `predicted ${pred}`);
    assert(problems.length === 0, problems.join('\n'));
    return `${v}: predicted ${pred}`;
  });
}

try {
  await main();
} catch (e) {
  S.failed++;
  console.log(`FAIL setup: ${e && e.message ? e.message.split('\n')[0] : e}`);
}
await finish(S, { browser, server });
