// A Redis shared by four Node processes (Debian's redis-server on 127.0.0.1,
// a free port, no persistence): after the first computes an input, the
// other three preload its memo record and outputs and answer it with 0
// dispatches. Also: the adapter's caps hold under 10,000 distinct puts, in
// Redis. Skips (one clear line, not a pass) only outside CI when redis-server
// or the npm package is missing; in CI (make setup installs both) it fails.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);

function missing() {
  if (spawnSync('redis-server', ['--version']).error) return 'redis-server is not installed (tools/setup.sh APT_PKGS)';
  try { import.meta.resolve('redis'); } catch { return "the npm package 'redis' is not installed (make setup / npm ci)"; }
  return null;
}

const freePort = () => new Promise((resolve, reject) => {
  const srv = createServer();
  srv.once('error', reject);
  srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
});

async function startRedis() {
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`redis-server did not start: ${out.slice(-300)}`)), 10_000);
    proc.stdout.on('data', (d) => { out += d; if (/Ready to accept connections/.test(out)) { clearTimeout(t); resolve(); } });
    proc.once('exit', (c) => { clearTimeout(t); reject(new Error(`redis-server exited ${c}: ${out.slice(-300)}`)); });
  });
  proc.stdout.resume();
  return { url: `redis://127.0.0.1:${port}`, stop: () => proc.kill('SIGTERM') };
}

const why = missing();
if (why && process.env.CI !== 'true') {
  console.log(`SKIP store-redis: ${why}`);
  test(`store-redis skipped: ${why}`, () => {});
} else {
  let redis = null;
  test.before(async () => { redis = await startRedis(); });
  test.after(() => { if (redis) redis.stop(); });

  test('four processes share one Redis: after the first computes, the other three dispatch nothing', async () => {
    const child = async (preload) => JSON.parse((await run(process.execPath, [join(HERE, 'store-redis-child.mjs'), redis.url, 'mlp', preload], { timeout: 30_000 })).stdout);
    const first = await child('none');
    assert.ok(first.dispatches > 0, 'the first process computes');
    assert.is(first.lastError, null);
    const others = await Promise.all([child('preload'), child('preload'), child('preload')]);
    for (const o of others) {
      assert.is(o.ready, true, 'the memo record and its outputs were preloaded');
      assert.is(o.dispatches, 0, 'answered from the store');
      assert.is(o.memoHits, 1);
      assert.is(o.storeCorrupt, 0);
      assert.equal(o.labels, first.labels);
      assert.equal(o.bytes, first.bytes);
    }
  });

  test('redis store: 10,000 distinct puts stay within maxEntries and maxBytes, in Redis', async () => {
    const { openRedisStore } = await import('../../bindings-js/stores/redis.js');
    const s = await openRedisStore({ url: redis.url, prefix: 'cap:', maxEntries: 300, maxBytes: 30_000 });
    const label = (i) => 'sha256:' + i.toString(16).padStart(64, '0');
    let worst = 0;
    for (let i = 0; i < 10_000; i++) {
      s.put(label(i), new Uint8Array(1 + (i % 200)).fill(i & 0xff));
      if (i % 500 === 499) { await s.flush(); worst = Math.max(worst, s.size); assert.ok(s.bytes <= 30_000, `bytes ${s.bytes}`); }
    }
    await s.flush();
    assert.is(s.lastError, null);
    const { size, bytes } = await s.refresh();
    assert.ok(worst <= 300 && size <= 300 && bytes <= 30_000, `size ${size} (worst ${worst}) bytes ${bytes}`);
    assert.ok(s.evicted >= 9_000, `evicted ${s.evicted}`);
    const t = await openRedisStore({ url: redis.url, prefix: 'cap:', maxEntries: 300, maxBytes: 30_000 });
    assert.is(await t.preload([label(9_999), label(0)]), 1, 'the latest is kept, the oldest evicted');
    assert.is(t.get(label(9_999))[0], 9_999 & 0xff);
    assert.ok(t.delete(label(9_999)));
    await t.flush();
    assert.is((await t.refresh()).size, size - 1);
    await s.close();
    await t.close();
  });
}

test.run();
