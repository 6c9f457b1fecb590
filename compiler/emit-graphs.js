// The nested graphs of the IR's control nodes (compiler/control-graphs.js)
// into the graph JSON (docs/holo-format.md GRPH): each graph's nodes are one
// contiguous range after the nodes of the graph that holds its owner, the
// graphs of one owner are consecutive records, and a graph's formal inputs
// are values of kind graph-input.
//
//   emitNodes(gb, ir, nodes, valueId, ids, rename) -> [[control node, its index]]
//   emitGraphsOf(gb, ir, node, index, valueId, ids, rename)
//
// valueId(name) is the builder id of a value defined earlier or a constant
// (added at first use); ids maps names to ids. rename(name) is the name a
// graph's read of an outer value has after the rewrites: the rewrites see a
// control node's captures as its inputs after nIn and may have renamed them.
import { DT } from './ir.js';

const attrsOf = (n) => Object.entries(n.attrs).map(([name, a]) => ({ name, type: a.type, value: a.value }));

/** `nodes` into the builder, in order; returns the control nodes among them with their node indices. */
export function emitNodes(gb, ir, nodes, valueId, ids, rename) {
  const control = [];
  for (const n of nodes) {
    const operands = n.graphs ? n.inputs.slice(0, n.nIn) : n.inputs;
    const outs = gb.node(n.op, operands.map((x) => valueId(rename(x))), {
      name: n.name,
      attrs: attrsOf(n),
      outputs: n.outputs.map((o) => { const v = ir.get(o); return { name: o, dtype: v?.dtype ?? DT.f32, shape: v?.shape ?? null }; }),
    });
    n.outputs.forEach((o, k) => ids.set(o, outs[k]));
    if (n.graphs) control.push([n, gb.nodeCount() - 1]);
  }
  return control;
}

/** The rename of a top-level control node's captures (the rewrites edit its inputs, never its graphs). */
export function captureRename(n) {
  const m = new Map();
  n.captures.forEach((c, k) => { if (n.inputs[n.nIn + k] !== c) m.set(c, n.inputs[n.nIn + k]); });
  return m.size ? (x) => (x && m.has(x) ? m.get(x) : x) : (x) => x;
}

/** The graphs of control node `n` (builder index `index`), then the graphs nested in them. */
export function emitGraphsOf(gb, ir, n, index, valueId, ids, rename) {
  const recs = n.graphs.map((g) => {
    const inputs = g.inputs.map((x) => {
      const v = ir.get(x);
      const id = gb.graphInput(x, v.dtype, v.shape);
      ids.set(x, id);
      return id;
    });
    const first = gb.nodeCount();
    const inner = emitNodes(gb, ir, g.nodes, valueId, ids, rename);
    return { g, first, count: gb.nodeCount() - first, inputs, inner };
  });
  for (const r of recs) gb.subgraph(r.g.name, index, r.first, r.count, r.inputs, r.g.outputs.map((o) => valueId(rename(o))));
  for (const r of recs) for (const [m, k] of r.inner) emitGraphsOf(gb, ir, m, k, valueId, ids, rename);
}
