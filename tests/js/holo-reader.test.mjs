// Reader robustness: truncations and byte flips give a clean "holo:" Error or a
// valid graph, never an internal exception.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildVectors } from '../vectors/make-vectors.mjs';
import { readHolo } from '../../compiler/holo-reader.js';
import { writeHolo } from '../../compiler/holo-writer.js';

const { good } = buildVectors();
const STRICTER = /attribute name given twice|symbol .* listed twice|op must be a non-empty|symbols\[\d+\] must be a non-empty/;
const clean = (bytes) => {
  try { return readHolo(bytes); } catch (e) {
    if (!(e instanceof Error) || !e.message.startsWith('holo: ')) throw new Error(`unclean failure: ${e && e.stack}`);
    return null;
  }
};

test('every strict prefix of every vector is rejected cleanly', () => {
  for (const v of good) {
    for (let n = 0; n < v.bytes.length; n++) assert.is(clean(v.bytes.subarray(0, n)), null, `${v.name} prefix ${n}`);
  }
});

test('single-byte changes are rejected cleanly or read as a valid graph', () => {
  for (const v of good) {
    const end = Math.min(v.bytes.length, 4096);
    for (let p = 0; p < end; p++) {
      for (const x of [0x01, 0x80, 0xff]) {
        const b = Uint8Array.from(v.bytes);
        b[p] ^= x;
        const g = clean(b);
        if (g) {
          // whatever was accepted must be a graph the writer also accepts, except
          // for the writer's extra strictness (names the reader does not check)
          try { writeHolo(g); } catch (e) {
            if (!STRICTER.test(e.message)) throw new Error(`${v.name} byte ${p} ^ ${x}: ${e.message}`);
          }
        }
      }
    }
  }
});

test('a trailing byte is rejected (file_size)', () => {
  const v = good[0];
  const b = new Uint8Array(v.bytes.length + 1);
  b.set(v.bytes);
  assert.throws(() => readHolo(b), /file_size/);
});

test.run();
