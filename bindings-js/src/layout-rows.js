// The layout table of bindings-js/src-c/layout.c as it sits in a module's
// memory: one row of six little-endian u32 words, [type, field, a, b, c,
// kind] with type and field C strings (layout.c asserts the row's size).
// Shared by tools/gen-layout.mjs (which writes dist/layout.js at build time)
// and the shim's check of the module it instantiates; no imports, so the
// generator can run before dist/ exists.
const WORDS = 6;
const WORD = Uint32Array.BYTES_PER_ELEMENT;

function cstring(bytes, p) {
  let end = p;
  while (end < bytes.length && bytes[end]) end++;
  return new TextDecoder().decode(bytes.slice(p, end)); // a copy: browsers refuse to decode shared memory
}

/** The n rows at ptr in `buffer` (an ArrayBuffer or SharedArrayBuffer). */
export function readRows(buffer, ptr, n) {
  const bytes = new Uint8Array(buffer), dv = new DataView(buffer), rows = [];
  for (let r = 0; r < n; r++) {
    const w = (k) => dv.getUint32(ptr + (r * WORDS + k) * WORD, true);
    const kind = w(5);
    rows.push([cstring(bytes, w(0)), cstring(bytes, w(1)), w(2), w(3), w(4), kind ? String.fromCharCode(kind) : '']);
  }
  return rows;
}
