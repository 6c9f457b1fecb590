// Struct fields in wasm memory by name. Every offset, size and kind comes
// from dist/layout.js, generated at build time from the C offsetof/sizeof
// values (bindings-js/src-c/layout.c); checkLayout refuses a core module
// built with a different table. Nothing here knows a number of its own.
import { ROWS } from '../dist/layout.js';
import { HologramError } from './errors.js';
import { readRows } from './layout-rows.js';

const key = (r) => `${r[0]}.${r[1]}`;
const TABLE = new Map(ROWS.map((r) => [key(r), r]));

/** The C constants of the table (HOLO_MAX_RANK, HOLO_ERR_MEMORY, HOLO_DT_F32, ...); naming one it lacks throws. */
export const CONST = new Proxy(Object.freeze(Object.fromEntries(ROWS.filter((r) => r[0] === '').map((r) => [r[1], r[2]]))), {
  get(t, k) {
    if (typeof k === 'string' && !(k in t)) throw new Error(`dist/layout.js has no constant ${k} (rebuild: make build)`);
    return t[k];
  },
});

// DataView accessor names by kind and element size (64-bit: BigInt).
const ACCESS = { u1: 'Uint8', u2: 'Uint16', u4: 'Uint32', u8: 'BigUint64', i1: 'Int8', i2: 'Int16', i4: 'Int32', i8: 'BigInt64', f4: 'Float32', f8: 'Float64', p4: 'Uint32', c1: 'Uint8' };

class Field {
  constructor(type, [, name, offset, size, count, kind]) {
    const a = ACCESS[`${kind}${size}`];
    this.name = `${type}.${name}`;
    this.offset = offset;
    this.size = size; // of one element
    this.count = count;
    this.get = a ? DataView.prototype[`get${a}`] : null;
    this.set = a ? DataView.prototype[`set${a}`] : null;
  }
  at(i) {
    if (!Number.isInteger(i) || i < 0 || i >= this.count) throw new RangeError(`${this.name}[${i}]: index out of range (${this.count})`);
    return this.offset + i * this.size;
  }
}

/**
 * A boundary struct: sizeof, alignof, offset(field, i) and typed get/set
 * (numbers; BigInt for 64-bit integers). `fields` are the ones the caller
 * uses: a table without one of them is an error when the module loads.
 */
export class Struct {
  #fields = new Map();
  constructor(type, fields) {
    const row = TABLE.get(`${type}.`);
    if (!row) throw new Error(`dist/layout.js describes no struct ${type} (rebuild: make build)`);
    this.type = type;
    this.sizeof = row[2];
    this.alignof = row[3];
    for (const f of fields) {
      const r = TABLE.get(`${type}.${f}`);
      if (!r) throw new Error(`dist/layout.js has no field ${type}.${f} (rebuild: make build)`);
      this.#fields.set(f, new Field(type, r));
    }
  }
  #field(name) {
    const f = this.#fields.get(name);
    if (!f) throw new Error(`${this.type}.${name} is not a declared field`);
    return f;
  }
  /** Byte offset of field `name` (element i of an array field). */
  offset(name, i = 0) { return this.#field(name).at(i); }
  /** Element size and count of field `name`. */
  extent(name) { const f = this.#field(name); return { size: f.size, count: f.count }; }
  get(dv, p, name, i = 0) { const f = this.#field(name); return f.get.call(dv, p + f.at(i), true); }
  /** get() as a Number (64-bit fields converted). */
  num(dv, p, name, i = 0) { return Number(this.get(dv, p, name, i)); }
  set(dv, p, name, v, i = 0) {
    const f = this.#field(name);
    f.set.call(dv, p + f.at(i), f.set === DataView.prototype.setBigUint64 || f.set === DataView.prototype.setBigInt64 ? BigInt(v) : v, true);
  }
}

/** Offsets of consecutive regions [name, bytes, align] in one allocation, and its total size. */
export function regions(list) {
  const at = {};
  let end = 0;
  for (const [name, bytes, align] of list) {
    end = Math.ceil(end / align) * align;
    at[name] = end;
    end += bytes;
  }
  return { at, size: end };
}

/** Differences between a module's layout rows and the shim's (empty: the same). */
export function layoutDifferences(moduleRows, shimRows = ROWS) {
  const mine = new Map(moduleRows.map((r) => [key(r), r]));
  const out = [];
  for (const r of shimRows) {
    const m = mine.get(key(r));
    const what = r[0] ? `${r[0]}${r[1] ? `.${r[1]}` : ''}` : r[1];
    if (!m) out.push(`${what}: missing from the module`);
    else if (m.slice(2).join() !== r.slice(2).join()) out.push(`${what}: module [${m.slice(2)}], shim [${r.slice(2)}]`);
  }
  return out;
}

/**
 * Throws ABI unless the module's own table (holo_wasm_layout_table) agrees
 * with dist/layout.js on every row the shim has. Rows only the module has
 * are ignored: the shim never reads them.
 */
export function checkLayout(x, buffer) {
  if (typeof x.holo_wasm_layout_table !== 'function' || typeof x.holo_wasm_layout_rows !== 'function') {
    throw new HologramError('ABI', 'the core module lacks the export holo_wasm_layout_table');
  }
  const diff = layoutDifferences(readRows(buffer(), x.holo_wasm_layout_table() >>> 0, x.holo_wasm_layout_rows()));
  if (diff.length) throw new HologramError('ABI', `wasm layout differs from the shim (${diff.length} row${diff.length === 1 ? '' : 's'}): ${diff.slice(0, 4).join('; ')}`);
}
