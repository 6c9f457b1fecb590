// A small builder for the graph JSON that compiler/holo-writer.js takes.
//
//   const g = new GraphBuilder();
//   const x = g.input('x', 1, ['batch', 4]);
//   const w = g.constant('w', 1, [4, 3], Float32Array.from([...]));
//   const [y] = g.node('MatMul', [x, w], { name: 'mm0', attrs: { alpha: 1.5 }, outputs: 1 });
//   g.output(y); g.meta('producer', 'me');
//   g.toJSON();
//
// Value handles are value ids (numbers); `null` is an absent optional input.
// Attribute types are inferred from JS values (integer number / bigint -> int,
// other number -> float, string -> string, array of integers -> ints (also []),
// array with a non-integer -> floats) unless given explicitly as {type, value}.
import { toBytes } from './holo-writer.js';

export const DT = { f32: 1, u8: 2, i8: 3, u16: 4, i16: 5, i32: 6, i64: 7, bool: 9, f16: 10, f64: 11, u32: 12, u64: 13, bf16: 16 };

const isInt = (x) => typeof x === 'bigint' || (typeof x === 'number' && Number.isInteger(x));

/** Infer {type, value} from a JS attribute value. */
export function inferAttr(name, v) {
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && 'type' in v && 'value' in v) return { name, type: v.type, value: v.value };
  if (isInt(v)) return { name, type: 'int', value: v };
  if (typeof v === 'number') return { name, type: 'float', value: v };
  if (typeof v === 'string') return { name, type: 'string', value: v };
  if (Array.isArray(v)) return { name, type: v.every(isInt) ? 'ints' : 'floats', value: v };
  throw new Error(`graph: attribute ${JSON.stringify(name)}: cannot infer a type for ${String(v)}`);
}

export class GraphBuilder {
  constructor() {
    this._meta = [];
    this._symbols = [];
    this._values = [];
    this._nodes = [];
    this._inputs = [];
    this._outputs = [];
  }

  /** Declare a symbolic dim explicitly (otherwise symbols are collected from shapes in order of first use). */
  symbol(name) {
    if (!this._symbols.includes(name)) this._symbols.push(name);
    return name;
  }

  _shape(shape) {
    if (shape === null || shape === undefined) return null;
    for (const d of shape) if (typeof d === 'string') this.symbol(d);
    return [...shape];
  }

  _value(v) {
    this._values.push(v);
    return this._values.length - 1;
  }

  input(name, dtype, shape) {
    const id = this._value({ name, dtype, kind: 'input', shape: this._shape(shape) });
    this._inputs.push(id);
    return id;
  }

  /** data: typed array, Uint8Array, ArrayBuffer or hex string (raw little-endian bytes). */
  constant(name, dtype, shape, data) {
    const hex = Buffer.from(toBytes(data, `constant ${JSON.stringify(name)}`)).toString('hex');
    return this._value({ name, dtype, kind: 'const', shape: this._shape(shape), data: hex });
  }

  /**
   * Add an op call. opts.outputs: a count, or an array of {name?, dtype?, shape?}
   * (default dtype: that of the first present input, else f32; default shape: null).
   * opts.attrs: an object {name: value} or an array [{name, type, value}].
   * Returns the array of output value ids.
   */
  node(op, inputs, opts = {}) {
    const idx = this._nodes.length;
    const name = opts.name ?? '';
    const first = inputs.find((x) => x !== null && x !== undefined);
    const defDtype = first !== undefined ? this._values[first].dtype : 1;
    let outs = opts.outputs ?? 1;
    if (typeof outs === 'number') outs = Array.from({ length: outs }, () => ({}));
    const base = name || `${op}_${idx}`;
    const outIds = outs.map((o, k) =>
      this._value({
        name: o.name ?? (outs.length === 1 ? `${base}:out` : `${base}:out${k}`),
        dtype: o.dtype ?? defDtype,
        kind: 'node',
        shape: this._shape(o.shape ?? null),
      }),
    );
    let attrs = opts.attrs ?? [];
    if (!Array.isArray(attrs)) attrs = Object.entries(attrs).map(([k, v]) => inferAttr(k, v));
    else attrs = attrs.map((a) => ({ name: a.name, type: a.type, value: a.value }));
    this._nodes.push({
      op,
      name,
      inputs: inputs.map((x) => (x === undefined ? null : x)),
      outputs: outIds,
      attrs,
    });
    return outIds;
  }

  /** A formal input of a nested graph (kind graph-input); list it in that graph's inputs. */
  graphInput(name, dtype, shape) {
    return this._value({ name, dtype, kind: 'graph-input', shape: this._shape(shape) });
  }

  /** The number of nodes so far: where a nested graph's node range starts. */
  nodeCount() {
    return this._nodes.length;
  }

  /**
   * A nested graph of control node `owner` (docs/holo-format.md GRPH): nodes
   * [first, first + count), its graph inputs and its outputs (values in scope).
   * The graphs of one owner are added one after another. Returns its index.
   */
  subgraph(name, owner, first, count, inputs, outputs) {
    (this._graphs ??= []).push({ name, owner, first, count, inputs: [...inputs], outputs: [...outputs] });
    return this._graphs.length - 1;
  }

  output(...ids) {
    this._outputs.push(...ids);
    return this;
  }

  meta(key, value) {
    this._meta.push([key, value]);
    return this;
  }

  /** Refinement state contract: input port `inPort` is fed by output port `outPort`. */
  state(inPort, outPort) {
    (this._state ??= []).push([inPort, outPort]);
    return this;
  }

  toJSON() {
    return structuredClone({
      meta: this._meta,
      symbols: this._symbols,
      values: this._values,
      nodes: this._nodes,
      inputs: this._inputs,
      outputs: this._outputs,
      ...(this._state ? { state: this._state } : {}),
      ...(this._graphs ? { graphs: this._graphs } : {}),
    });
  }
}
