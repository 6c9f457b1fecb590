// Nested graphs in the converter's IR (docs/decisions.md 53): an If or Loop
// the converter cannot inline becomes one control node of ir.nodes that
// owns its graphs, which the runtime executes (docs/holo-format.md §4a).
//
//   node = { op, name, inputs: [...operands, ...captures], nIn, captures,
//            outputs, attrs: {}, noFold: true,
//            graphs: [{ name, inputs: [graph-input names], nodes, outputs }] }
//
// A graph's nodes are normalized like the main graph's (into their own
// list) and never seen by the rewrites, which work on ir.nodes. What a
// graph reads from outside (outer values and constants) is appended to the
// control node's inputs as *captures*, so the rewrites count those reads as
// uses: dead-nodes keeps their producers and constants, the fusions do not
// swallow them, and remove-identity's renames reach them; at emit time
// captures[k] is read as whatever inputs[nIn + k] has become
// (compiler/emit-graphs.js).
import { runtimeValue } from './seq-values.js';

/** Every name `nodes` and `outputs` read that they do not bind themselves, in order of first read. */
function freeNames(nodes, outputs, bound) {
  const own = new Set(bound);
  const free = [], seen = new Set();
  const read = (x) => { if (x && !own.has(x) && !seen.has(x)) { seen.add(x); free.push(x); } };
  for (const n of nodes) {
    for (const x of n.inputs) read(x);
    for (const o of n.outputs) if (o) own.add(o);
  }
  for (const o of outputs) read(o);
  return free;
}

/**
 * A graph's Identity nodes removed (there is no Identity kernel; the
 * top level loses them in rewrites/remove-identity.js): each reader,
 * nested graphs' included, and the graph's outputs read its input instead.
 */
function dropIdentities(graph) {
  const to = new Map();
  const res = (x) => { while (to.has(x)) x = to.get(x); return x; };
  graph.nodes = graph.nodes.filter((n) => {
    if (n.op !== 'Identity') return true;
    to.set(n.outputs[0], n.inputs[0]);
    return false;
  });
  if (!to.size) return;
  const walk = (nodes) => {
    for (const n of nodes) {
      n.inputs = n.inputs.map((x) => (x ? res(x) : x));
      if (n.captures) n.captures = n.captures.map(res);
      for (const g of n.graphs ?? []) {
        walk(g.nodes);
        g.outputs = g.outputs.map(res);
      }
    }
  };
  walk(graph.nodes);
  graph.outputs = graph.outputs.map(res);
}

/**
 * A nested graph: its formal inputs are new graph-input values of the
 * given { dtype, shape } (`decl`, named after `names`), and `build(inputs)`
 * emits its nodes (into the graph's own list) and returns its outputs.
 * Returns { name, inputs, nodes, outputs }.
 */
export function buildGraph(ctx, role, decl, names, prefix, build) {
  const inputs = decl.map((d, k) => ctx.defineGraphInput(`${prefix}/${names[k] ?? `in${k}`}`, d.dtype, d.shape));
  // a sequence or optional enters as a run-time value (compiler/seq-values.js)
  inputs.forEach((x, k) => { if (decl[k].list) ctx.value(x).list = decl[k].list; });
  // and a tracked one leaves as one, made inside the graph
  const { result, nodes } = ctx.collect(() => build(inputs).map((o) => (o && ctx.seq(o) ? runtimeValue(ctx, o) : o)));
  const g = { name: role, inputs, nodes, outputs: result };
  dropIdentities(g);
  return g;
}

/** The nested graph of ONNX subgraph `sub`, normalized as the main graph is. */
export function subgraph(ctx, role, sub, decl, prefix) {
  return buildGraph(ctx, role, decl, sub.inputs.map((i) => i.name), prefix, (ins) => ctx.inlineGraph(sub, ins, prefix));
}

/** The control node owning `graphs`, appended to the emitted nodes; its outputs are defined as given. */
export function emitControl(ctx, op, name, operands, graphs, outputs) {
  const bound = new Set(graphs.flatMap((g) => g.inputs));
  const captures = [];
  for (const g of graphs) for (const x of freeNames(g.nodes, g.outputs, bound)) if (!captures.includes(x)) captures.push(x);
  for (const o of outputs) {
    ctx.defineNodeValue(o.name, o.dtype, o.shape);
    if (o.list) ctx.value(o.name).list = o.list;
  }
  const node = { op, name, inputs: [...operands, ...captures], nIn: operands.length, captures: [...captures],
    outputs: outputs.map((o) => o.name), attrs: {}, noFold: true, graphs };
  ctx.pushNode(node);
  return node;
}

/** Every node of `nodes` and of the graphs they own, depth first. */
export function* allNodes(nodes) {
  for (const n of nodes) {
    yield n;
    for (const g of n.graphs ?? []) yield* allNodes(g.nodes);
  }
}
