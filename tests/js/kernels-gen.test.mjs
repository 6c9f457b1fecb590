// The generated microkernels (kernels-wasm-simd/gen/generate.mjs): every
// checked-in file equals what its template gives now, so an edit to a
// generated file instead of its template fails here; and the template
// language keeps / drops / substitutes what it says.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './helpers.mjs';
import { spawnSync } from 'node:child_process';
import { INSTANCES, expand, generated, stale } from '../../kernels-wasm-simd/gen/generate.mjs';

test('every generated microkernel equals its template', () => {
  const files = generated();
  assert.is(files.length, INSTANCES.length);
  for (const [path, text] of files) {
    const rel = relative(ROOT, path);
    assert.ok(existsSync(path), `${rel} is missing`);
    assert.ok(readFileSync(path, 'utf8') === text, `${rel} differs from its template: run node kernels-wasm-simd/gen/generate.mjs`);
  }
});

test('each instance names an instruction set its file name says', () => {
  for (const { out, params } of INSTANCES) assert.ok(out.endsWith(`-${params.ISA}.c`), out);
  const outs = INSTANCES.map((i) => i.out);
  assert.is(new Set(outs).size, outs.length);
});

test('the check finds a generated file that differs from its template', () => {
  const files = generated();
  assert.equal(stale(files), []);
  const edited = files.map(([p, t], i) => [p, i === 1 ? t + '/* edited by hand */\n' : t]);
  assert.equal(stale(edited), [files[1][0]]);
  const r = spawnSync(process.execPath, [join(ROOT, 'kernels-wasm-simd', 'gen', 'generate.mjs'), '--check'], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
});

test('$if / $elif / $else / $endif and ${} substitution', () => {
  const t = ['a', '$if X == 1', 'one ${X}', '$elif X == 2', 'two', '  $if Y', '  nested ${Y + 1}', '  $endif', '$else',
    'other', '$endif', 'z'].join('\n');
  assert.is(expand(t, { X: 1, Y: 0 }), 'a\none 1\nz');
  assert.is(expand(t, { X: 2, Y: 0 }), 'a\ntwo\nz');
  assert.is(expand(t, { X: 2, Y: 1 }), 'a\ntwo\n  nested 2\nz');
  assert.is(expand(t, { X: 3, Y: 1 }), 'a\nother\nz');
  assert.throws(() => expand('$if 1\nx', {}), /left open/);
  assert.throws(() => expand('$endif', {}), /without \$if/);
  assert.throws(() => expand('${NOPE}', {}), /cannot evaluate/);
});

test.run();
