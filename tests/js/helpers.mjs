// Shared by the JS package tests: fixtures and deterministic inputs.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PKG = join(ROOT, 'bindings-js');
export const fixture = (name) => new Uint8Array(readFileSync(join(ROOT, 'tests', 'fixtures', `${name}.holo`)));

/** A deterministic float32 input for each port; symbolic dims take `bind[name]` (default 2). */
export function inputsFor(session, seed = 1, bind = {}) {
  return session.inputs.map((p, i) => {
    const shape = p.shape.map((d) => (typeof d === 'number' ? d : bind[d] ?? 2));
    const n = shape.reduce((a, b) => a * b, 1);
    const data = Float32Array.from({ length: n }, (_, k) => Math.sin((k + 1) * 0.37 * (i + 1) + seed));
    return { data, shape };
  });
}
