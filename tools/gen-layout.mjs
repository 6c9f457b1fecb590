// Writes bindings-js/dist/layout.js: the field offsets, sizes and kinds of
// every struct crossing the JS/wasm boundary, read out of
// bindings-js/src-c/layout.c compiled alone for wasm32 (bindings-js/layout.mk).
// The shim reads every struct field through this table (src/layout.js) and
// checks that the core module it instantiates carries the same rows.
//   node tools/gen-layout.mjs build/wasm/layout.wasm bindings-js/dist/layout.js
//   node tools/gen-layout.mjs build/wasm/layout.wasm -     (to stdout)
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readRows } from '../bindings-js/src/layout-rows.js';

/** The text of dist/layout.js for the table of the layout module `wasmBytes`. */
export function layoutModuleText(wasmBytes) {
  const { exports: x } = new WebAssembly.Instance(new WebAssembly.Module(wasmBytes), {});
  const rows = readRows(x.memory.buffer, x.holo_wasm_layout_table() >>> 0, x.holo_wasm_layout_rows());
  if (!rows.length) throw new Error('the layout module has an empty table');
  return [
    '// Generated at build time by tools/gen-layout.mjs from bindings-js/src-c/layout.c',
    '// (clang, wasm32): do not edit. Rows [type, field, a, b, c, kind], as layout.c',
    '// describes them: a struct (field \'\': sizeof, alignof), a field (offset, element',
    '// size, element count, kind u/i/f/p/c) or a constant (type \'\': value).',
    'export const ROWS = Object.freeze([',
    ...rows.map((r) => `  Object.freeze(${JSON.stringify(r)}),`),
    ']);',
    '',
  ].join('\n');
}

const isMain = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error('usage: node tools/gen-layout.mjs LAYOUT.wasm OUT.js|-');
    process.exit(2);
  }
  const text = layoutModuleText(readFileSync(input));
  if (output === '-') process.stdout.write(text);
  else {
    writeFileSync(`${output}.tmp`, text);
    renameSync(`${output}.tmp`, output);
  }
}
