// Every bounded store stays within its caps under many distinct puts; these
// fail if eviction is removed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { memoryStore } from '../../bindings-js/stores/memory.js';

const label = (i) => 'sha256:' + createHash('sha256').update(String(i)).digest('hex');

test('memory store: 10,000 distinct puts stay within maxEntries and maxBytes', () => {
  const s = memoryStore(undefined, { maxEntries: 500, maxBytes: 40_000 });
  for (let i = 0; i < 10_000; i++) {
    s.put(label(i), new Uint8Array(1 + (i % 200)));
    assert.ok(s.size <= 500, `entries ${s.size} at put ${i}`);
    assert.ok(s.bytes <= 40_000, `bytes ${s.bytes} at put ${i}`);
  }
  assert.ok(s.evicted >= 9_000);
  assert.ok(s.get(label(9_999)), 'the latest record is kept');
  assert.is(s.get(label(0)), undefined, 'the oldest record is evicted');
});

test('memory store: eviction is least recently used (get counts as use)', () => {
  const s = memoryStore(undefined, { maxEntries: 3 });
  for (let i = 0; i < 3; i++) s.put(label(i), new Uint8Array([i]));
  assert.ok(s.get(label(0)));
  s.put(label(3), new Uint8Array([3]));
  assert.ok(s.get(label(0)), 'recently read record kept');
  assert.is(s.get(label(1)), undefined, 'least recently used record evicted');
  assert.ok(s.delete(label(0)));
  assert.is(s.size, 2);
  assert.is(s.bytes, 2);
});

test('memory store: default caps and bad options', () => {
  const s = memoryStore();
  assert.is(s.maxBytes, 256 * 1024 * 1024);
  assert.is(s.maxEntries, 100_000);
  assert.throws(() => memoryStore(undefined, { maxEntries: 0 }), /maxEntries/);
});

test.run();
