// The converter's normalization stage: every ONNX node, in order, becomes
// its opset-18 form with explicit attribute defaults (onnx-ops.js), its
// outputs' dtypes and shapes inferred (ir.js) and all-constant nodes folded
// (rewrites/fold-constants.js) as they are emitted.
//
//   normalizeNodes(ir, graph, nodes, { opset, fold, report, progress }) -> sets ir.nodes
//   (nodes: the graph's nodes in topological order, compiler/toposort.js)
import { runtimeValue } from './seq-values.js';
import { DT, inferNode, i64Bytes, writeElems, reshapeShape, isConcrete } from './ir.js';
import { OPS, Unsupported } from './onnx-ops.js';
import { MSFT_OPS } from './onnx-ops-msft.js';
import { ML_DOMAIN, ML_OPS } from './onnx-ops-ml.js';
import { foldNode } from './rewrites/fold-constants.js';
import { topoSort } from './toposort.js';
import { legacyNode } from './onnx-legacy.js';
import { TRAINING_OPS, TRAINING_DOMAIN } from './onnx-ops-training.js';
import { ENTROPY } from './onnx-ops-random.js';

/** How messages name a node: by its name, else by its first output. */
export const nodeDesc = (n) => (n.name ? `node '${n.name}'` : `node producing '${n.outputs.find(Boolean) ?? '?'}'`);

/**
 * The context a normalizer (onnx-ops.js) works through: it reads values,
 * makes constants and emits canonical nodes into `out`. `state.cur` is the
 * ONNX node being normalized (messages name it; emitted nodes take its name).
 */
function normalizerContext(ir, g, opset, fold, state) {
  const missing = () => new Error(`a required input of ${nodeDesc(state.cur)} (${state.cur.opType}) is missing`);
  const defineOut = (name, dtype, shape) => {
    if (ir.has(name)) throw new Error(`value '${name}' is produced twice`);
    ir.addValue({ name, dtype, shape, kind: 'node' });
  };
  const ctx = {
    opset,
    /** The model's ai.onnx.ml opset (null when it imports none). */
    mlOpset: ir.mlOpset ?? null,
    value: (n) => {
      // normalizers ask for the values they need: an absent one is the model's fault
      const v = ir.get(n);
      if (!v) throw missing();
      return v;
    },
    shape: (n) => ir.get(n)?.shape ?? null,
    sv: (n) => ir.get(n)?.sv ?? null,
    isConst: (n) => ir.isConst(n),
    tmp: (hint) => ir.fresh(hint),
    constI64: (hint, arr) => ir.addConst(hint, DT.i64, [arr.length], i64Bytes(arr)),
    constRaw: (hint, dtype, dims, bytes) => ir.addConst(hint, dtype, dims, bytes),
    constScalar: (hint, dtype, x) => ir.addConst(hint, dtype, [], writeElems(dtype, [dtype === DT.i64 || dtype === DT.u64 ? BigInt(Math.trunc(x)) : x])),
    trimOutputs(outs) {
      // drop trailing outputs that are absent or used nowhere in the graph
      // (nor in a subgraph, which may read any outer value, nor by an inlined one)
      const used = state.used;
      const o = [...outs];
      while (o.length > 1 && (!o[o.length - 1] || !used.has(o[o.length - 1]))) o.pop();
      return o;
    },
    inferOnly(op, inputs, attrs) {
      return inferNode(ir, { op, inputs, outputs: ['?'], attrs });
    },
    defineConst(name, dtype, dims, bytes) {
      if (ir.has(name)) throw new Error(`value '${name}' is produced twice`);
      ir.addValue({ name, dtype, shape: dims, kind: 'const', bytes });
    },
    reshapeTo(x, want) {
      const v = ir.get(x);
      if (!v) throw missing();
      if (v.kind === 'const') {
        const shape = reshapeShape(v.shape, want, 0);
        if (!shape || !isConcrete(shape)) throw new Error(`internal: cannot reshape constant '${x}' ${JSON.stringify(v.shape)} to ${JSON.stringify(want)}`);
        return ir.addConst(`${x}_r`, v.dtype, shape, v.bytes);
      }
      const [y] = ctx.emit('Reshape', [x, ctx.constI64(`${x}_shape`, want)], [ir.fresh(`${x}_r`)], { allowzero: { type: 'int', value: 0 } });
      return y;
    },
    /** The canonical nodes emitted so far (the live list: read its length, slice it). */
    emitted: () => state.out,
    /** The sequence a value holds (a list of value names), or null for a tensor. */
    seq: (n) => (ir.get(n)?.kind === 'seq' ? ir.get(n).items : null),
    /** Define `name` as a sequence of the values `items` (sequences exist only during conversion). */
    defineSeq(name, items, dtype, optional = false) {
      if (ir.has(name)) throw new Error(`value '${name}' is produced twice`);
      ir.addValue({ name, dtype, shape: null, kind: 'seq', items: [...items], optional });
    },
    /** A formal input of a nested graph (compiler/control-graphs.js): a value no node produces. */
    defineGraphInput: (hint, dtype, shape) => ir.addValue({ name: ir.fresh(hint), dtype, shape, kind: 'ginput' }),
    /** An output of a control node (its producer is pushed with pushNode). */
    defineNodeValue: (name, dtype, shape) => defineOut(name, dtype, shape),
    /** Runs fn with the emitted nodes going to a list of their own: { result, nodes }. */
    collect(fn) {
      const saved = state.out;
      state.out = [];
      try {
        const result = fn();
        return { result, nodes: state.out };
      } finally {
        state.out = saved;
      }
    },
    /** Forgets the nodes emitted after the first `len` (an inlining abandoned for a construct). */
    truncate(len) { state.out.length = len; },
    /** Appends a node as built (a control node: no inference, no folding). */
    pushNode(node) { state.out.push(node); },
    /** Inline subgraph `sub` with its inputs bound to `binds`: its outputs' value names (control-flow.js). */
    inlineGraph: (sub, binds, prefix) => inlineGraph(ir, ctx, state, sub, binds, prefix),
    /**
     * The archive's entropy input (compiler/onnx-ops-random.js,
     * docs/decisions.md 99): u32 [4], the last input port, made at the first
     * unseeded random op; the bindings fill it on every execution.
     */
    entropy() {
      if (ir.get(ENTROPY)?.kind === 'input') return ENTROPY;
      if (ir.has(ENTROPY)) throw new Unsupported(`the model has a value named '${ENTROPY}', the name of the entropy input unseeded random ops read`);
      ir.addValue({ name: ENTROPY, dtype: DT.u32, shape: [4], kind: 'input' });
      ir.inputs.push(ENTROPY);
      return ENTROPY;
    },
    /** A number no other unseeded random draw of this conversion has (its Philox stream). */
    randomStream: () => (ir.randomStreams = (ir.randomStreams ?? 0) + 1) - 1,
    /** opts.noFold: the node is never folded (the load's constant cone computes it: packed weights stay packed). */
    emit(op, inputs, outputs, attrs, opts) {
      const cur = state.cur;
      for (const i of inputs) if (i && !ir.has(i)) throw new Error(`input '${i}' of ${nodeDesc(cur)} (${cur.opType}) is not defined before use (graph not topologically sorted, or an undeclared input)`);
      // the node producing the ONNX node's first output keeps its name; helper nodes get name/op
      const main = outputs.includes(cur.outputs[0]) || !cur.name;
      const node = { op, name: main ? cur.name : `${cur.name}/${op}`, inputs: [...inputs], outputs: [...outputs], attrs };
      if (opts?.noFold) node.noFold = true;
      const inf = inferNode(ir, node);
      node.outputs.forEach((o, k) => { if (o) defineOut(o, inf[k].dtype, inf[k].shape); });
      // absent outputs ('') are dropped only at the end
      while (node.outputs.length > 1 && !node.outputs[node.outputs.length - 1]) node.outputs.pop();
      const r = foldNode(ir, node, fold);
      if (!(r === 'const' && node.outputs.every((o) => ir.isConst(o)))) state.out.push(node);
      return node.outputs;
    },
  };
  return ctx;
}

/** Every value name `g`'s nodes read, its subgraphs' included (a subgraph may read outer values), into `into`. */
function graphRefs(g, into) {
  for (const nd of g.nodes) {
    for (const i of nd.inputs) into.add(i);
    for (const a of Object.values(nd.attrs)) if (a.type === 'graph' && a.value) {
      graphRefs(a.value, into);
      for (const o of a.value.outputs) into.add(o.name);
    }
  }
  return into;
}

/**
 * Normalizes one ONNX node through its op's normalizer (Unsupported becomes
 * the message naming the op and node).
 */
function normalizeOne(ir, ctx, state, n) {
  state.cur = n;
  let spec;
  try {
    n = legacyNode(n, ctx.opset);
    state.cur = n;
    spec = nodeSpec(ir, n, ctx.opset);
    spec.norm(ctx, n);
  } catch (e) {
    // an ai.onnx.ml op is named with its domain (its names are not the default domain's)
    if (e instanceof Unsupported) throw new Error(`unsupported op '${n.domain === ML_DOMAIN ? `${ML_DOMAIN}.` : ''}${n.opType}' (${nodeDesc(n)}): ${e.message}`);
    throw e;
  }
}

/**
 * Inlines a subgraph: its inputs are bound to the outer values `binds`, its
 * initializers and node outputs get fresh names (prefix/...), a name it does
 * not define is the enclosing scope's (ONNX's outer-scope capture, through
 * every level of nesting), and its nodes are normalized in order as the
 * main graph's are. Returns the value names of its outputs.
 */
function inlineGraph(ir, ctx, state, sub, binds, prefix) {
  if (binds.length !== sub.inputs.length) throw new Unsupported(`the subgraph '${sub.name}' declares ${sub.inputs.length} inputs, the op binds ${binds.length}`);
  const rename = new Map();
  const parent = state.resolve;
  const resolve = (nm) => (!nm ? nm : rename.has(nm) ? rename.get(nm) : parent ? parent(nm) : nm);
  sub.inputs.forEach((inp, k) => rename.set(inp.name, binds[k]));
  for (const t of sub.initializers) {
    const nm = ir.addConst(`${prefix}/${t.name}`, t.dtype, t.dims, t.bytes);
    rename.set(t.name, nm);
  }
  const localUsed = graphRefs(sub, new Set(sub.outputs.map((o) => o.name)));
  const known = new Set([...sub.inputs.map((i) => i.name), ...sub.initializers.map((t) => t.name)]);
  const outer = state.cur;
  state.resolve = resolve;
  try {
    for (const n of topoSort(sub.nodes, known)) {
      const inputs = n.inputs.map(resolve);
      const outputs = n.outputs.map((o) => {
        if (!o) return o;
        const f = ir.fresh(`${prefix}/${o}`);
        rename.set(o, f);
        if (localUsed.has(o)) state.used.add(f);
        return f;
      });
      normalizeOne(ir, ctx, state, { ...n, name: `${prefix}/${n.name || n.outputs[0] || n.opType}`, inputs, outputs });
    }
    return sub.outputs.map((o) => {
      const nm = resolve(o.name);
      if (!ir.has(nm)) throw new Unsupported(`subgraph '${sub.name}' output '${o.name}' is not produced by any node`);
      return nm;
    });
  } finally {
    state.resolve = parent;
    state.cur = outer;
  }
}

/** The op's normalizer, after the checks every op shares (domain, attributes, input 0, output 0, defined inputs). */
function nodeSpec(ir, n, opset) {
  const where = `${nodeDesc(n)}`;
  const msft = n.domain === 'com.microsoft', training = n.domain === TRAINING_DOMAIN, ml = n.domain === ML_DOMAIN;
  if (n.domain && n.domain !== 'ai.onnx' && !msft && !training && !ml) throw new Error(`unsupported op '${n.domain}.${n.opType}' (${where}): domain '${n.domain}' is not supported`);
  if (msft && !MSFT_OPS[n.opType]) throw new Error(`unsupported op 'com.microsoft.${n.opType}' (${where}): not implemented by hologram-exec (of com.microsoft: ${Object.keys(MSFT_OPS).join(', ')})`);
  if (ml && !ML_OPS[n.opType]) throw new Error(`unsupported op '${ML_DOMAIN}.${n.opType}' (${where}): not implemented by hologram-exec (of ${ML_DOMAIN}: ${Object.keys(ML_OPS).join(', ')})`);
  const spec = (msft ? MSFT_OPS : training ? TRAINING_OPS : ml ? ML_OPS : OPS)[n.opType]; // no prototype: 'constructor' is no op
  if (!spec) throw new Error(`unsupported op '${n.opType}' (${where}): not implemented by hologram-exec`);
  if (spec.refuse) throw new Error(`unsupported op '${n.opType}' (${where}): ${spec.refuse}`);
  for (const [k, a] of Object.entries(n.attrs)) {
    if (!spec.attrs.includes(k)) throw new Error(`unsupported op '${n.opType}' (${where}): attribute '${k}' is not supported (opset ${opset})`);
    if ((a.type === 'graph' && !spec.graphAttrs?.includes(k)) || a.type === 'other') throw new Error(`unsupported op '${n.opType}' (${where}): attribute '${k}' is ${a.why}`);
  }
  // every supported op but Constant reads input 0 and writes output 0
  if (!n.inputs[0] && n.opType !== 'Constant' && !spec.in0Optional) throw new Error(`unsupported op '${n.opType}' (${where}): input 0 is missing`);
  // (the recurrent ops' Y is optional: their normalizer names it)
  if (!n.outputs[0] && !(spec.out0Optional && n.outputs.some(Boolean))) throw new Error(`unsupported op '${n.opType}' (${where}): output 0 is missing`);
  // every input is defined before the normalizer reads it (ctx.value of an
  // undefined name is undefined; emit's own check comes too late for those)
  for (const i of n.inputs) if (i && !ir.has(i)) throw new Error(`input '${i}' of ${where} (${n.opType}) is not defined before use (graph not topologically sorted, or an undeclared input)`);
  return spec;
}

/** Normalizes `nodes` (the ONNX graph `g`'s, sorted) into ir.nodes, counting ops in report.ops. */
export function normalizeNodes(ir, g, nodes, { opset, fold, report, progress }) {
  const state = { cur: null, out: [], resolve: null, used: graphRefs(g, new Set(g.outputs.map((o) => o.name))) };
  const ctx = normalizerContext(ir, g, opset, fold, state);
  const nNodes = g.nodes.length;
  for (const [i, n] of nodes.entries()) {
    progress('nodes', i, nNodes);
    report.ops[n.opType] = (report.ops[n.opType] ?? 0) + 1;
    normalizeOne(ir, ctx, state, n);
  }
  progress('nodes', nNodes, nNodes);
  // a sequence the graph outputs exists at run time (compiler/seq-values.js)
  for (const o of g.outputs) {
    const v = ir.get(o.name);
    if (v?.kind !== 'seq') continue;
    state.cur = { opType: 'SequenceConstruct', name: o.name, inputs: [], outputs: [o.name] };
    ir.values.delete(o.name);
    runtimeValue(ctx, o.name, o.name, v);
  }
  ir.nodes = state.out;
  state.out = null; // the context emits nothing after this stage
}
