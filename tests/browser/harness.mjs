// What the headless-Chromium suites share: pass/fail counting with a
// watchdog, a static server over repo folders (optionally cross-origin
// isolated), and Debian chromium through playwright-core with a throwaway
// profile. Each suite prints "<name>: N passed, N failed" as its last line.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.holo': 'application/octet-stream', '.html': 'text/html; charset=utf-8', '.json': 'application/json', '.css': 'text/css' };
// COOP/COEP: what a page needs for SharedArrayBuffer (the threaded module).
export const ISOLATION = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

export function assert(cond, msg) { if (!cond) throw new Error(msg); }

/** Counting, a watchdog, and the final summary line. */
export function suite(name, watchdogMs) {
  const s = { passed: 0, failed: 0 };
  s.summary = () => console.log(`${name}: ${s.passed} passed, ${s.failed} failed`);
  const watchdog = setTimeout(() => {
    console.log(`FAIL watchdog: ${name} did not finish in ${watchdogMs / 1000} s`);
    s.failed++;
    s.summary();
    process.exit(1);
  }, watchdogMs);
  s.check = async (label, fn) => {
    const t0 = Date.now();
    try {
      const note = await fn();
      s.passed++;
      console.log(`ok   ${label}${note ? ` — ${note}` : ''} (${Date.now() - t0} ms)`);
      return true;
    } catch (e) {
      s.failed++;
      console.log(`FAIL ${label}: ${(e && e.message ? e.message : String(e)).split('\n').slice(0, 6).join('\n     ')}`);
      return false;
    }
  };
  s.stopWatchdog = () => clearTimeout(watchdog);
  return s;
}

/**
 * A local server. routes: { '/path': [contentType, body] }; mounts: [[urlPrefix, dir]];
 * headers(pathname) -> extra response headers.
 */
export function startServer({ routes = {}, mounts = [], headers = () => ({}) }) {
  const srv = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    const send = (status, type, body) => { res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers(u.pathname) }); res.end(body); };
    if (routes[u.pathname]) return send(200, ...routes[u.pathname]);
    if (u.pathname === '/favicon.ico') return send(204, 'image/x-icon', '');
    for (const [prefix, dir] of mounts) {
      if (!u.pathname.startsWith(prefix)) continue;
      const file = path.resolve(dir, decodeURIComponent(u.pathname.slice(prefix.length)));
      if (!file.startsWith(dir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) break;
      return send(200, TYPES[path.extname(file)] ?? 'application/octet-stream', fs.readFileSync(file));
    }
    send(404, 'text/plain', 'not found');
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${srv.address().port}/`,
    close: () => new Promise((r) => { srv.closeAllConnections?.(); srv.close(r); }),
  })));
}

/** Chromium with a fresh profile; problems collects page errors, console errors, failed requests. */
export async function launch(stepMs, { viewport } = {}) {
  const { chromium } = await import('playwright-core');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (make setup installs chromium)`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, timeout: stepMs, ...(viewport ? { viewport } : {}) });
  context.setDefaultTimeout(stepMs);
  const page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  return { context, page, problems, profile };
}

/** Closes everything (best effort), prints the summary, sets the exit code. */
export async function finish(s, { browser, server } = {}) {
  try { if (browser?.context) await Promise.race([browser.context.close(), new Promise((r) => setTimeout(r, 5000))]); } catch { /* closing */ }
  try { if (server) await server.close(); } catch { /* closing */ }
  try { if (browser?.profile) fs.rmSync(browser.profile, { recursive: true, force: true }); } catch { /* best effort */ }
  s.stopWatchdog();
  if (s.passed + s.failed === 0) {
    s.failed++; // a suite that checked nothing did not pass
    console.log('FAIL no check ran');
  }
  s.summary();
  process.exitCode = s.failed ? 1 : 0;
}
