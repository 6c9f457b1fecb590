// The hand-written declarations type-check: tsc --noEmit over
// tests/js/types-check.ts, resolving 'hologram-exec' through the package's
// exports map (a temp dir with node_modules/hologram-exec -> bindings-js).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, PKG } from './helpers.mjs';

const TSC = join(ROOT, 'node_modules', '.bin', 'tsc');

test('tsc --noEmit: the package types check (strict, NodeNext, exports map)', () => {
  assert.ok(existsSync(TSC), 'node_modules/.bin/tsc missing (npm ci)');
  const dir = mkdtempSync(join(tmpdir(), 'holo-types-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(PKG, join(dir, 'node_modules', 'hologram-exec'), 'dir');
    copyFileSync(join(ROOT, 'tests', 'js', 'types-check.ts'), join(dir, 'types-check.ts'));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], skipLibCheck: false },
      files: ['types-check.ts'],
    }));
    const r = spawnSync(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', timeout: 120000 });
    assert.is(r.status, 0, `tsc failed:\n${r.stdout}${r.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the declarations name every runtime export', async () => {
  const mod = await import('../../bindings-js/index.js');
  const { readFileSync } = await import('node:fs');
  const dts = readFileSync(join(PKG, 'index.d.ts'), 'utf8');
  for (const k of Object.keys(mod)) assert.match(dts, new RegExp(`export declare (function|class|const) ${k}\\b`), k);
});

test.run();
