// The nested-graph rules of the `.holo` format (docs/holo-format.md §3 GRPH,
// §4 rules 8-12), shared by the JS writer and reader so both refuse exactly
// what runtime/archive-graphs.c refuses, with the same message substrings.
//
//   checkNestedGraphs({ fail, values, nodes, graphs, outputs }) -> nodeGraph (Int32Array)
//
// values: [{ kind (code), aux }] (a node output's aux is its producer, a graph
// input's the index of its graph); nodes: [{ inputs, outputs }] with absent
// inputs as ABSENT; graphs: [{ name, owner, first, count, inputs, outputs }].
// nodeGraph[i] is 0 for a top-level node, k + 1 for a node of graph k.
export const MAX_GRAPHS = 1 << 16;
export const MAX_GRAPH_DEPTH = 16;
export const MAX_GRAPH_IO = 4096;
export const KIND_GRAPH_INPUT = 3;
const ABSENT = 0xffffffff;

function records(fail, nodes, graphs) {
  const nodeGraph = new Int32Array(nodes.length);
  const firstOf = new Map();
  graphs.forEach((g, k) => {
    if (!Number.isInteger(g.owner) || g.owner < 0 || g.owner >= nodes.length)
      fail(`graph ${k}: owner node ${g.owner} out of range (${nodes.length} nodes)`);
    if (!Number.isInteger(g.first) || !Number.isInteger(g.count) || g.first < 0 || g.count < 0 || g.first + g.count > nodes.length)
      fail(`graph ${k}: node range [${g.first}, +${g.count}) out of NODE bounds (${nodes.length})`);
    if (g.inputs.length > MAX_GRAPH_IO || g.outputs.length > MAX_GRAPH_IO)
      fail(`graph ${k}: ${g.inputs.length} inputs / ${g.outputs.length} outputs exceed the limit ${MAX_GRAPH_IO}`);
    const prev = firstOf.get(g.owner);
    if (prev === undefined) firstOf.set(g.owner, { first: k, n: 1 });
    else if (prev.first + prev.n !== k) fail(`graph ${k}: the graphs of node ${g.owner} are not contiguous in GRPH`);
    else prev.n++;
    for (let i = g.first; i < g.first + g.count; i++) {
      if (nodeGraph[i]) fail(`node ${i} belongs to two graphs (${nodeGraph[i] - 1} and ${k})`);
      nodeGraph[i] = k + 1;
    }
  });
  return nodeGraph;
}

function nesting(fail, graphs, nodeGraph) {
  const parent = (g) => nodeGraph[graphs[g - 1].owner];
  for (let k = 1; k <= graphs.length; k++) {
    let g = k, depth = 0;
    while (g !== 0) {
      g = parent(g);
      if (g === k) fail(`graph ${k - 1} is nested in itself (a cycle through its owner node ${graphs[k - 1].owner})`);
      if (++depth > MAX_GRAPH_DEPTH) fail(`graph ${k - 1}: nesting deeper than the limit ${MAX_GRAPH_DEPTH}`);
    }
  }
  return parent;
}

function graphInputs(fail, values, graphs) {
  const seen = new Uint8Array(values.length);
  graphs.forEach((g, k) => g.inputs.forEach((v, j) => {
    if (!Number.isInteger(v) || v < 0 || v >= values.length || values[v].kind !== KIND_GRAPH_INPUT || values[v].aux !== k)
      fail(`graph ${k} input ${j}: value ${v} is not a graph input of this graph`);
    if (seen[v]) fail(`graph ${k} input ${j}: value ${v} listed twice`);
    seen[v] = 1;
  }));
  values.forEach((v, id) => {
    if (v.kind === KIND_GRAPH_INPUT && !seen[id]) fail(`value ${id} is of kind graph input but no graph lists it`);
  });
}

/** Validates the GRPH rules; returns nodeGraph. Call after the flat graph rules hold. */
export function checkNestedGraphs({ fail, values, nodes, graphs, outputs }) {
  if (graphs.length > MAX_GRAPHS) fail(`section GRPH count ${graphs.length} exceeds the limit ${MAX_GRAPHS}`);
  const nodeGraph = records(fail, nodes, graphs);
  const parent = nesting(fail, graphs, nodeGraph);
  graphInputs(fail, values, graphs);
  const scopeOf = (v) => (values[v].kind === 2 ? nodeGraph[values[v].aux] : values[v].kind === KIND_GRAPH_INPUT ? values[v].aux + 1 : 0);
  // Readable in graph g by node `at` (-1: by g's outputs, after its nodes).
  const inScope = (v, g, at) => {
    const val = values[v];
    if (val.kind === 0 || val.kind === 1) return true;
    const want = scopeOf(v);
    while (g !== want) {
      if (g === 0) return false;
      at = graphs[g - 1].owner;
      g = parent(g);
    }
    return val.kind === KIND_GRAPH_INPUT || at === -1 || val.aux < at;
  };
  nodes.forEach((n, i) => n.inputs.forEach((v, k) => {
    if (v !== ABSENT && v !== null && !inScope(v, nodeGraph[i], i)) fail(`node ${i}: input ${k} (value ${v}) is out of scope`);
  }));
  graphs.forEach((g, k) => g.outputs.forEach((v, j) => {
    if (!Number.isInteger(v) || v < 0 || v >= values.length) fail(`graph ${k} output ${j}: value id ${v} out of range`);
    if (!inScope(v, k + 1, -1)) fail(`graph ${k} output ${j}: value ${v} is out of scope`);
  }));
  outputs.forEach((v, p) => {
    if (!inScope(v, 0, -1)) fail(`output port ${p}: value ${v} is out of scope (inside a nested graph)`);
  });
  return nodeGraph;
}
