#!/usr/bin/env node
// The core module's download size, checked (issue 20: "the core module
// <= 200 KiB gzip"): every shipped core variant in bindings-js/dist/, its
// size under `gzip -9` (the measure: the gzip program, fed on stdin,
// so without the file name `gzip -9 -c FILE` stores, 22 B less; node:zlib's
// level 9 comes out ~0.5 % larger), must stay within BOUND_BYTES.
//
//   node tools/check-core-size.mjs [DIR]     DIR defaults to bindings-js/dist
//
// Self-test first (a bound the checker must refuse), then one verdict per
// variant; ends with `core-size: N passed, N failed`. Over the bound, the
// message says by how much and where the size goes: wasm.mk's CORE_HOT list
// (files outside it compile -Oz; a file added to it costs its -O3 growth) and
// docs/benchmarks.md "Core module size" (the share per family).
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const BOUND_BYTES = 200 * 1024;
export const VARIANTS = ['simd128', 'relaxed', 'simd128-threads', 'scalar'];
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const gzipSize = (bytes) => execFileSync('gzip', ['-9', '-c'], { input: bytes, maxBuffer: 64 << 20 }).length;

/** null when `bytes` gzip within `bound`, else the message naming `what`. */
export function overBound(what, bytes, bound = BOUND_BYTES) {
  const gz = gzipSize(bytes);
  if (gz <= bound) return null;
  return `${what}: ${gz} B gzip -9 is over the bound of ${bound} B by ${gz - bound} B ` +
    '(the cold files compile -Oz, the hot ones listed in wasm.mk CORE_HOT -O3: ' +
    'shrink the new code or move a file out of CORE_HOT; sizes per family in docs/benchmarks.md "Core module size")';
}

function main() {
  const dir = path.resolve(process.argv[2] ?? path.join(ROOT, 'bindings-js/dist'));
  let pass = 0, fail = 0;
  const verdict = (ok, line) => { if (ok) pass++; else fail++; console.log(`${ok ? 'ok  ' : 'FAIL'} ${line}`); };

  // self-test: incompressible bytes over the bound are refused, a module under it is not
  let x = 0x2545f491;
  const noise = new Uint8Array(BOUND_BYTES + 4096).map(() => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return x & 255; });
  const refused = overBound('noise', noise);
  verdict(refused !== null && refused.includes('over the bound'), `self-test: ${noise.length} B of noise refused`);
  verdict(overBound('zeros', new Uint8Array(BOUND_BYTES * 4)) === null, 'self-test: 800 KiB of zeros accepted');

  for (const v of VARIANTS) {
    const file = path.join(dir, `hologram-${v}.wasm`);
    if (!existsSync(file)) { verdict(false, `${file} missing (make wasm)`); continue; }
    const bytes = readFileSync(file);
    const msg = overBound(`hologram-${v}.wasm`, bytes);
    verdict(msg === null, msg ?? `hologram-${v}.wasm: ${bytes.length} B, ${gzipSize(bytes)} B gzip -9 (bound ${BOUND_BYTES})`);
  }
  console.log(`core-size: ${pass} passed, ${fail} failed`);
  process.exitCode = fail ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
