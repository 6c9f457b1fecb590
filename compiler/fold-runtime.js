// The kernels that compute every concrete value the converter folds.
//
// The runtime is the single source of op semantics: a node whose inputs are
// all constants is folded by running it, as a one-node .holo archive, through
// the runtime's own kernels, and the output bytes become the constant. The
// same graph therefore gives the same bytes whether an input happened to be a
// constant (folded here) or is fed at execute time (docs/converter.md,
// "Constant folding").
//
// The fold core is the shipped scalar module (dist/hologram-scalar.wasm), one
// thread, whatever runtime the caller converts with: the scalar kernels are
// the reference every other variant matches byte for byte (the relaxed build
// may fuse multiply-add in its GEMMs and is not byte-identical), the scalar
// module instantiates on every engine (no SIMD128 needed), and the folded
// bytes of an archive must not depend on the converting machine's variant or
// thread count. Folding touches small tensors, so the scalar core's speed is
// not what convert() spends its time on (docs/converter.md gives numbers).
//
//   compileFoldCore(shimUrl) -> WebAssembly.Module | null   (at import, async)
//   new KernelFolder(() => runtime)   one per convert() call: `rt` instantiates
//       the core on first use (one instance per call, not per node);
//       `trapped()` drops an instance a trap left unusable (the next fold
//       makes a fresh one); `dispose()` drops it for good.
//   runNode(rt, ir, node, opts?) -> [{dtype, shape, bytes}] | null   (one node;
//       opts.memoryBudget bounds the fold archive's load, so an output over it
//       is refused by the runtime before it is allocated; opts.refused gets
//       the refusal's code)
import { writeHolo } from './holo-writer.js';

export const FOLD_VARIANT = 'scalar';
const FOLD_FILE = 'hologram-scalar.wasm';

/**
 * What the fold instance gets from the host: node:crypto's SHA-256 where there
 * is one (the core then hashes large inputs through it; the labels are the
 * same either way, bindings-js/index.js), else nothing.
 */
export async function foldHost() {
  try {
    const { createHash } = await import('node:crypto');
    const d = createHash('sha256').update(new Uint8Array([97, 98, 99])).digest();
    return d.length === 32 && d[0] === 0xba && d[31] === 0xad ? { sha256: createHash } : {};
  } catch {
    return {};
  }
}

/** Compiles the fold core shipped next to the shim whose index.js is at `shimUrl`; null when it is absent. */
export async function compileFoldCore(shimUrl) {
  const url = new URL(`./dist/${FOLD_FILE}`, shimUrl);
  let bytes;
  try {
    if (url.protocol === 'file:') {
      const { readFile } = await import('node:fs/promises');
      bytes = await readFile(url);
    } else {
      const r = await fetch(url);
      if (!r.ok) return null;
      bytes = new Uint8Array(await r.arrayBuffer());
    }
  } catch {
    return null;
  }
  return WebAssembly.compile(bytes);
}

/** The fold instance of one convert() call: created on first use. */
export class KernelFolder {
  #make;
  #rt; // undefined: not yet created; null: none (no core, or disposed)
  constructor(make) {
    this.#make = make;
    this.#rt = make ? undefined : null;
  }
  /** Folding through the runtime is possible in this call. */
  get available() {
    return this.#rt !== null;
  }
  get rt() {
    if (this.#rt === undefined) {
      try {
        this.#rt = this.#make();
      } catch {
        this.#rt = this.#make = null;
      }
    }
    return this.#rt;
  }
  /** A trap leaves an instance unusable (the shim poisons it): the next fold gets a fresh one. */
  trapped() {
    this.#drop();
    this.#rt = this.#make ? undefined : null;
  }
  dispose() {
    this.#drop();
    this.#rt = this.#make = null;
  }
  #drop() {
    if (this.#rt && typeof this.#rt.dispose === 'function') this.#rt.dispose();
  }
}

function toWriterAttrs(node) {
  const out = [];
  for (const [name, a] of Object.entries(node.attrs)) {
    if (!['int', 'float', 'ints', 'floats', 'string'].includes(a.type)) return null;
    out.push({ name, type: a.type, value: a.value });
  }
  return out;
}

const CODES = { float32: 1, uint8: 2, int8: 3, uint16: 4, int16: 5, int32: 6, int64: 7, bool: 9, float16: 10, float64: 11, uint32: 12, uint64: 13 };

/**
 * Runs one all-constant node through the runtime: [{dtype, shape, bytes}], or
 * null when the runtime refuses the archive or the kernel refuses the operands
 * (the node then stays in the graph and the runtime meets the same refusal
 * at load). A trap is rethrown: the caller stops using the instance.
 */
export function runNode(rt, ir, node, opts = {}) {
  const attrs = toWriterAttrs(node);
  if (!attrs) return null;
  // graph JSON built here, constants as bytes: GraphBuilder's hex strings and
  // deep copy cost more than the fold itself for large constants
  const values = [];
  const ids = node.inputs.map((n) => {
    if (!n) return null;
    const v = ir.get(n);
    values.push({ name: n, dtype: v.dtype, kind: 'const', shape: v.shape, data: v.bytes });
    return values.length - 1;
  });
  const dtype0 = values.length ? values[0].dtype : 1; // node outputs: the runtime infers dtype and shape
  const outs = node.outputs.map((o, k) => values.push({ name: `out${k}`, dtype: dtype0, kind: 'node', shape: null }) - 1);
  const graph = { meta: [], symbols: [], values, nodes: [{ op: node.op, name: node.name ?? '', inputs: ids, outputs: outs, attrs }], inputs: [], outputs: outs };
  let s;
  try {
    // the node's inputs are constants, so it is in the archive's constant
    // cone: the load computes it, and a budget refuses it before allocating
    s = rt.load(writeHolo(graph), opts.memoryBudget ? { memoryBudget: opts.memoryBudget } : {});
  } catch (e) {
    if (e && e.code === 'TRAP') throw e;
    opts.refused = e?.code;
    return null;
  }
  try {
    return s.execute([]).map((r) => ({ dtype: CODES[r.dtype], shape: r.shape, bytes: new Uint8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength).slice() }));
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError || (e && e.code === 'TRAP')) throw e;
    opts.refused = e?.code;
    return null;
  } finally {
    s.dispose();
  }
}
