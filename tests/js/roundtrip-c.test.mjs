// The C reader (`build/native/holo dump FILE`) against the vectors: every good
// vector dumps to its .json (floats compared as f32, ints as numbers or decimal
// strings); every bad vector exits with code 2 and the .expect substring on stderr.
// The binary missing is a failure, not a skip (`make test` builds it first).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const HOLO = process.env.HOLO_BIN ?? join(ROOT, 'build', 'native', 'holo'); // override only to test this file
const VEC = join(ROOT, 'tests', 'vectors');
const BAD = join(VEC, 'bad');
const goodNames = readdirSync(VEC).filter((f) => f.endsWith('.holo')).sort();
const badNames = readdirSync(BAD).filter((f) => f.endsWith('.holo')).sort();

function dump(file) {
  if (!existsSync(HOLO)) assert.unreachable('build/native/holo not built');
  const r = spawnSync(HOLO, ['dump', file], { encoding: 'utf8', timeout: 30000, maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  return r;
}

const toBig = (x) => {
  if (typeof x === 'number' && Number.isInteger(x)) return BigInt(x);
  if (typeof x === 'string' && /^-?[0-9]+$/.test(x)) return BigInt(x);
  return null;
};

/** Schema-aware deep comparison; returns a description of the first difference or null. */
function diff(e, a, path, mode = 'int') {
  if (e === null || a === null) return e === a ? null : `${path}: expected ${JSON.stringify(e)}, got ${JSON.stringify(a)}`;
  if (Array.isArray(e)) {
    if (!Array.isArray(a)) return `${path}: expected an array, got ${JSON.stringify(a)}`;
    if (e.length !== a.length) return `${path}: expected ${e.length} elements, got ${a.length}`;
    for (let i = 0; i < e.length; i++) { const d = diff(e[i], a[i], `${path}[${i}]`, mode); if (d) return d; }
    return null;
  }
  if (typeof e === 'object') {
    if (typeof a !== 'object' || Array.isArray(a)) return `${path}: expected an object, got ${JSON.stringify(a)}`;
    const ek = Object.keys(e).sort(), ak = Object.keys(a).sort();
    if (ek.join() !== ak.join()) return `${path}: keys [${ak}] != expected [${ek}]`;
    const sub = e.type === 'float' || e.type === 'floats' ? 'float' : 'int';
    for (const k of ek) {
      const d = diff(e[k], a[k], `${path}.${k}`, k === 'value' ? sub : 'int');
      if (d) return d;
    }
    return null;
  }
  if (mode === 'float' && typeof e === 'number') {
    if (typeof a !== 'number') return `${path}: expected float ${e}, got ${JSON.stringify(a)}`;
    const fe = Math.fround(e), fa = Math.fround(a);
    return fe === fa || (Number.isNaN(fe) && Number.isNaN(fa)) ? null : `${path}: expected f32 ${e}, got ${a}`;
  }
  if (typeof e === 'number' || (typeof e === 'string' && toBig(e) !== null && path.match(/\.value(\[\d+\])?$/))) {
    const be = toBig(e), ba = toBig(a);
    if (be !== null && ba !== null) return be === ba ? null : `${path}: expected ${e}, got ${JSON.stringify(a)}`;
    if (typeof e === 'number') return `${path}: expected ${e}, got ${JSON.stringify(a)}`;
  }
  return e === a ? null : `${path}: expected ${JSON.stringify(e)}, got ${JSON.stringify(a)}`;
}

test('build/native/holo exists', () => {
  assert.ok(existsSync(HOLO), 'build/native/holo not built');
});

for (const f of goodNames) {
  test(`C dump ${f} equals ${f.replace(/\.holo$/, '.json')}`, () => {
    const r = dump(join(VEC, f));
    assert.is(r.status, 0, `exit ${r.status}, stderr: ${r.stderr}`);
    let got;
    try { got = JSON.parse(r.stdout); } catch (e) { assert.unreachable(`stdout is not JSON: ${e.message}\n${r.stdout.slice(0, 500)}`); }
    const want = JSON.parse(readFileSync(join(VEC, f.replace(/\.holo$/, '.json')), 'utf8'));
    const d = diff(want, got, '$');
    assert.ok(d === null, d ?? '');
  });
}

for (const f of badNames) {
  test(`C dump bad/${f} exits 2 with the expected message`, () => {
    const expect = readFileSync(join(BAD, f.replace(/\.holo$/, '.expect')), 'utf8').replace(/\n$/, '');
    const r = dump(join(BAD, f));
    assert.is(r.status, 2, `exit ${r.status} (want 2), stderr: ${r.stderr}`);
    assert.ok(r.stderr.includes(expect), `stderr ${JSON.stringify(r.stderr.trim())} lacks ${JSON.stringify(expect)}`);
  });
}

test('comparator self-check', () => {
  assert.is(diff({ a: [1, '9007199254740993'] }, { a: ['1', '9007199254740993'] }, '$'), null);
  assert.is(diff({ type: 'float', value: 0.1 }, { type: 'float', value: 0.100000001 }, '$'), null);
  assert.is(diff({ type: 'floats', value: [0.1] }, { type: 'floats', value: [0.2] }, '$'), '$.value[0]: expected f32 0.1, got 0.2');
  assert.ok(diff({ shape: [1, 2] }, { shape: [1, 3] }, '$'));
  assert.ok(diff({ shape: null }, { shape: [] }, '$'));
  assert.ok(diff({ name: '12' }, { name: 12 }, '$'));
  assert.ok(diff({ a: 1 }, { a: 1, b: 2 }, '$'));
});

test.run();
