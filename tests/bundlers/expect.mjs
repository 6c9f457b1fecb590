// Node's output for the bundler app's job, from the installed tarball:
//   node [--experimental-wasm-relaxed-simd] expect.mjs <package dir> <archive> <variant>
// prints { backend, archiveLabel, label, shape, bytes } as the app reports them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inputFor } from './app/src/input.js';

const [pkg, archive, variant] = process.argv.slice(2);
const { load } = await import(pathToFileURL(join(pkg, 'index.js')).href);
const s = await load(new Uint8Array(readFileSync(archive)), { variant });
const shape = s.inputs[0].shape;
const [y] = s.execute([{ data: inputFor(shape), shape }]);
console.log(JSON.stringify({ backend: s.backend, archiveLabel: s.archiveLabel, label: y.label, shape: y.shape, bytes: Array.from(new Uint8Array(y.data.buffer, y.data.byteOffset, y.data.byteLength)) }));
s.dispose();
