// The directory store: bounded under many distinct puts, recency that
// survives a reopen, and crash safety — a writer killed mid-put leaves the
// store readable with every committed record intact. These fail if eviction
// or the temp-file-and-rename write is removed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeDirWarmStore } from '../../bindings-js/stores/node-dir.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const label = (i) => 'sha256:' + createHash('sha256').update(String(i)).digest('hex');
const tmp = (p) => mkdtempSync(join(tmpdir(), `holo-store-${p}-`));
const recordFiles = (dir) => readdirSync(dir).filter((f) => /^sha256-[0-9a-f]{64}\.hws$/.test(f));

test('node-dir store: 10,000 distinct puts stay within maxEntries and maxBytes, on disk too', () => {
  const dir = tmp('cap');
  try {
    const s = new NodeDirWarmStore(dir, { maxEntries: 300, maxBytes: 30_000 });
    for (let i = 0; i < 10_000; i++) {
      s.put(label(i), new Uint8Array(1 + (i % 200)).fill(i & 0xff));
      if (s.size > 300 || s.bytes > 30_000) assert.unreachable(`entries ${s.size} bytes ${s.bytes} at put ${i}`);
    }
    const files = recordFiles(dir);
    assert.ok(files.length <= 300, `${files.length} files`);
    const onDisk = files.reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    assert.ok(onDisk <= 30_000, `${onDisk} bytes on disk`);
    assert.is(onDisk, s.bytes);
    assert.ok(s.evicted >= 9_000);
    assert.ok(s.get(label(9_999)), 'the latest record is kept');
    assert.is(s.get(label(0)), undefined, 'the oldest is evicted');
    // a second process's view: the directory as it is
    const t = new NodeDirWarmStore(dir, { maxEntries: 300, maxBytes: 30_000 });
    assert.is(t.size, files.length);
    assert.is(t.bytes, onDisk);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('node-dir store: least recently used goes first, and recency survives a reopen', () => {
  const dir = tmp('lru');
  try {
    const s = new NodeDirWarmStore(dir, { maxEntries: 3 });
    for (let i = 0; i < 3; i++) s.put(label(i), new Uint8Array([i]));
    assert.ok(s.get(label(0)));
    s.put(label(3), new Uint8Array([3]));
    assert.ok(s.has(label(0)), 'recently read record kept');
    assert.is(s.get(label(1)), undefined, 'least recently used evicted');
    // a reopen orders by mtime: make label 2 the oldest on disk
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(s.pathOf(label(2)), old, old);
    const r = new NodeDirWarmStore(dir, { maxEntries: 3 });
    assert.is(r.size, 3);
    r.put(label(4), new Uint8Array([4]));
    assert.is(r.get(label(2)), undefined, 'the oldest by mtime evicted after reopen');
    assert.ok(r.delete(label(0)));
    assert.not.ok(r.delete(label(0)));
    assert.is(r.size, 2);
    assert.is(r.bytes, 2);
    r.put(label(5), new Uint8Array(10));
    assert.is(r.size, 3);
    const small = new NodeDirWarmStore(dir, { maxBytes: 4 });
    assert.ok(small.bytes <= 4, 'opening with a smaller cap evicts down to it');
    small.put(label(6), new Uint8Array(5));
    assert.not.ok(small.has(label(6)), 'a record larger than the cap is not kept');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('node-dir store: a writer killed mid-put leaves the store readable and loses no committed record', async () => {
  const dir = tmp('kill');
  const SIZE = 8 << 20;
  try {
    const child = spawn(process.execPath, [join(HERE, 'store-dir-child.mjs'), dir, String(SIZE)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const committed = [];
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      let k;
      while ((k = buf.indexOf('\n')) >= 0) { committed.push(buf.slice(0, k).split(' ')); buf = buf.slice(k + 1); }
    });
    const exited = new Promise((r) => child.on('exit', (code, sig) => r(sig ?? code)));
    // Kill while a temp file is partly written (after two committed puts).
    const partial = await new Promise((resolve, reject) => {
      const t0 = Date.now();
      const poll = () => {
        if (Date.now() - t0 > 15_000) return reject(new Error('the writer never showed a partial temp file'));
        if (committed.length >= 2) {
          for (const f of readdirSync(dir)) {
            if (!f.startsWith('.tmp-')) continue;
            let n = -1;
            try { n = statSync(join(dir, f)).size; } catch { continue; }
            if (n > 0 && n < SIZE) { child.kill('SIGKILL'); return resolve(f); }
          }
        }
        setImmediate(poll);
      };
      poll();
    });
    assert.is(await exited, 'SIGKILL');
    assert.ok(committed.length >= 2);
    assert.ok(readdirSync(dir).includes(partial), 'the killed writer left its temp file');
    const s = new NodeDirWarmStore(dir);
    assert.not.ok(readdirSync(dir).includes(partial), 'opening removes a dead writer\'s temp file');
    for (const [i, l] of committed) {
      const b = s.get(l);
      assert.ok(b, `committed record ${i} present`);
      assert.is(b.length, SIZE);
      assert.ok(b.every((x) => x === (Number(i) & 0xff)), `committed record ${i} intact`);
    }
    for (const f of recordFiles(dir)) assert.is(statSync(join(dir, f)).size, SIZE, `no partial record (${f})`);
    assert.ok(recordFiles(dir).length <= committed.length + 1, 'at most the in-flight record beyond the committed ones');
    s.put(label('after'), new Uint8Array([1, 2, 3]));
    assert.equal(Array.from(new NodeDirWarmStore(dir).get(label('after'))), [1, 2, 3], 'still writable');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
