// The converter's normalization stage: every ONNX node, in order, becomes
// its opset-18 form with explicit attribute defaults (onnx-ops.js), its
// outputs' dtypes and shapes inferred (ir.js) and all-constant nodes folded
// (rewrites/fold-constants.js) as they are emitted.
//
//   normalizeNodes(ir, graph, nodes, { opset, fold, report, progress }) -> sets ir.nodes
//   (nodes: the graph's nodes in topological order, compiler/toposort.js)
import { DT, inferNode, i64Bytes, writeElems, reshapeShape, isConcrete } from './ir.js';
import { OPS, Unsupported } from './onnx-ops.js';
import { foldNode } from './rewrites/fold-constants.js';

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
      const used = new Set(g.outputs.map((o) => o.name));
      for (const nd of g.nodes) for (const i of nd.inputs) used.add(i);
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
    emit(op, inputs, outputs, attrs) {
      const cur = state.cur;
      for (const i of inputs) if (i && !ir.has(i)) throw new Error(`input '${i}' of ${nodeDesc(cur)} (${cur.opType}) is not defined before use (graph not topologically sorted, or an undeclared input)`);
      // the node producing the ONNX node's first output keeps its name; helper nodes get name/op
      const main = outputs.includes(cur.outputs[0]) || !cur.name;
      const node = { op, name: main ? cur.name : `${cur.name}/${op}`, inputs: [...inputs], outputs: [...outputs], attrs };
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

/** The op's normalizer, after the checks every op shares (domain, attributes, input 0, output 0, defined inputs). */
function nodeSpec(ir, n, opset) {
  const where = `${nodeDesc(n)}`;
  if (n.domain && n.domain !== 'ai.onnx') throw new Error(`unsupported op '${n.domain}.${n.opType}' (${where}): domain '${n.domain}' is not supported`);
  const spec = OPS[n.opType]; // OPS has no prototype: 'constructor' is no op
  if (!spec) throw new Error(`unsupported op '${n.opType}' (${where}): not implemented by hologram-exec`);
  for (const [k, a] of Object.entries(n.attrs)) {
    if (!spec.attrs.includes(k)) throw new Error(`unsupported op '${n.opType}' (${where}): attribute '${k}' is not supported (opset ${opset})`);
    if (a.type === 'graph' || a.type === 'other') throw new Error(`unsupported op '${n.opType}' (${where}): attribute '${k}' is ${a.why}`);
  }
  // every supported op but Constant reads input 0 and writes output 0
  if (!n.inputs[0] && n.opType !== 'Constant') throw new Error(`unsupported op '${n.opType}' (${where}): input 0 is missing`);
  // (the recurrent ops' Y is optional: their normalizer names it)
  if (!n.outputs[0] && !(spec.out0Optional && n.outputs.some(Boolean))) throw new Error(`unsupported op '${n.opType}' (${where}): output 0 is missing`);
  // every input is defined before the normalizer reads it (ctx.value of an
  // undefined name is undefined; emit's own check comes too late for those)
  for (const i of n.inputs) if (i && !ir.has(i)) throw new Error(`input '${i}' of ${where} (${n.opType}) is not defined before use (graph not topologically sorted, or an undeclared input)`);
  return spec;
}

/** Normalizes `nodes` (the ONNX graph `g`'s, sorted) into ir.nodes, counting ops in report.ops. */
export function normalizeNodes(ir, g, nodes, { opset, fold, report, progress }) {
  const state = { cur: null, out: [] };
  const ctx = normalizerContext(ir, g, opset, fold, state);
  const nNodes = g.nodes.length;
  for (const [i, n] of nodes.entries()) {
    progress('nodes', i, nNodes);
    state.cur = n;
    report.ops[n.opType] = (report.ops[n.opType] ?? 0) + 1;
    const spec = nodeSpec(ir, n, opset);
    try {
      spec.norm(ctx, n);
    } catch (e) {
      if (e instanceof Unsupported) throw new Error(`unsupported op '${n.opType}' (${nodeDesc(n)}): ${e.message}`);
      throw e;
    }
  }
  progress('nodes', nNodes, nNodes);
  ir.nodes = state.out;
  state.out = null; // the context emits nothing after this stage
}
