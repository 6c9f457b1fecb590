// Rewrite: remove nodes none of whose outputs reach a graph output, then
// constants no remaining node or output uses. Graph inputs are always kept
// (they are the archive's ports, even when unused).
export function removeDeadNodes(ir) {
  const live = new Set(ir.outputs);
  const keep = new Array(ir.nodes.length).fill(false);
  for (let i = ir.nodes.length - 1; i >= 0; i--) {
    const n = ir.nodes[i];
    if (n.outputs.some((o) => live.has(o))) {
      keep[i] = true;
      for (const x of n.inputs) if (x) live.add(x);
    }
  }
  const before = ir.nodes.length;
  const dead = ir.nodes.filter((_, i) => !keep[i]);
  ir.nodes = ir.nodes.filter((_, i) => keep[i]);
  for (const n of dead) for (const o of n.outputs) if (!live.has(o)) ir.values.delete(o);
  let consts = 0;
  for (const [name, v] of [...ir.values]) {
    if (v.kind === 'const' && !live.has(name)) { ir.values.delete(name); consts++; }
  }
  const removed = before - ir.nodes.length;
  if (removed || consts) ir.log.push(`dead-nodes: ${removed} node(s), ${consts} constant(s)`);
  return removed;
}
