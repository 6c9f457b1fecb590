// The committed vectors are exactly what make-vectors.mjs generates, the JS
// reader returns each good vector's .json and rejects each bad one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildVectors, formatJSON, readmeGood, readmeBad } from '../vectors/make-vectors.mjs';
import { writeHolo } from '../../compiler/holo-writer.js';
import { readHolo } from '../../compiler/holo-reader.js';

const VEC = join(dirname(fileURLToPath(import.meta.url)), '..', 'vectors');
const BAD = join(VEC, 'bad');
const { good, bad } = buildVectors();
const bytesEq = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

test('the committed vector set is exactly the generated one', () => {
  const files = readdirSync(VEC).filter((f) => /\.(holo|json)$/.test(f)).sort();
  assert.equal(files, good.flatMap((v) => [`${v.name}.holo`, `${v.name}.json`]).sort());
  const badFiles = readdirSync(BAD).filter((f) => /\.(holo|expect)$/.test(f)).sort();
  assert.equal(badFiles, bad.flatMap((v) => [`${v.name}.expect`, `${v.name}.holo`]).sort());
  assert.is(readFileSync(join(VEC, 'README.md'), 'utf8'), readmeGood(good));
  assert.is(readFileSync(join(BAD, 'README.md'), 'utf8'), readmeBad(bad));
});

for (const v of good) {
  test(`good ${v.name}: committed .holo and .json equal the regenerated ones`, () => {
    assert.ok(existsSync(join(VEC, `${v.name}.holo`)), 'missing .holo');
    assert.ok(bytesEq(readFileSync(join(VEC, `${v.name}.holo`)), v.bytes), 'bytes differ: run node tests/vectors/make-vectors.mjs');
    assert.is(readFileSync(join(VEC, `${v.name}.json`), 'utf8'), formatJSON(v.json));
  });

  test(`good ${v.name}: JS reader returns the committed .json`, () => {
    const got = readHolo(readFileSync(join(VEC, `${v.name}.holo`)));
    assert.equal(got, JSON.parse(readFileSync(join(VEC, `${v.name}.json`), 'utf8')));
  });

  if (v.fromWriter) {
    test(`good ${v.name}: writer on the committed .json gives the committed .holo (digests ignored on input)`, () => {
      const json = JSON.parse(readFileSync(join(VEC, `${v.name}.json`), 'utf8'));
      for (const val of json.values) if (val.digest) val.digest = '00'.repeat(32);
      assert.ok(bytesEq(writeHolo(json), readFileSync(join(VEC, `${v.name}.holo`))));
    });
  }
}

for (const b of bad) {
  test(`bad ${b.name}: rejected by the JS reader with "${b.expect}"`, () => {
    const bytes = readFileSync(join(BAD, `${b.name}.holo`));
    assert.ok(bytesEq(bytes, b.bytes), 'bytes differ from the generated ones');
    const expect = readFileSync(join(BAD, `${b.name}.expect`), 'utf8').replace(/\n$/, '');
    assert.is(expect, b.expect);
    assert.throws(() => readHolo(bytes), (e) => e instanceof Error && e.message.includes(expect),
      `error should contain ${JSON.stringify(expect)}`);
  });
}

test('every bad vector breaks exactly the rule named: its base vector is accepted', () => {
  const names = new Set(good.map((v) => v.name));
  for (const b of bad) assert.ok(names.has(b.base), b.name);
});

test.run();
