// Rewrite: remove Identity and inference-mode Dropout.
//
// Identity(x) and Dropout(x) output 0 are replaced by x everywhere. Dropout is
// the identity in inference; from opset 12 its optional `training_mode` input
// must be absent or a constant false (a constant true with ratio 0 is also
// the identity). A Dropout whose `mask` output is consumed is refused: the
// mask has no meaning without a training-mode run.
//
// When the removed node's output is a graph output, the graph output port
// becomes the node's input value (so the port takes that value's name), unless
// the input is a node output used nowhere else, which is renamed instead
// (keeping the output name the model declared).
import { readElems } from '../ir.js';

export function removeIdentity(ir) {
  let removed = 0;
  for (const n of [...ir.nodes]) {
    if (n.op !== 'Identity' && n.op !== 'Dropout') continue;
    const where = `node '${n.name}'`;
    if (n.op === 'Dropout') {
      const uses = ir.uses();
      if (n.outputs[1] && uses.get(n.outputs[1])) throw new Error(`unsupported op 'Dropout' (${where}): its mask output is consumed (training-mode semantics)`);
      const tm = n.inputs[2];
      if (tm) {
        const v = ir.get(tm);
        if (v.kind !== 'const') throw new Error(`unsupported op 'Dropout' (${where}): training_mode is a runtime input (only inference is supported)`);
        const on = readElems(v.dtype, v.bytes).some((e) => Number(e) !== 0);
        let ratio = 0.5;
        if (n.inputs[1]) {
          const r = ir.get(n.inputs[1]);
          ratio = r.kind === 'const' ? Number(readElems(r.dtype, r.bytes)[0]) : NaN;
        }
        if (on && ratio !== 0) throw new Error(`unsupported op 'Dropout' (${where}): training_mode=true with ratio ${ratio} (random output) is not supported`);
      }
    }
    const x = n.inputs[0], y = n.outputs[0];
    ir.nodes.splice(ir.nodes.indexOf(n), 1);
    const xv = ir.get(x);
    const uses = ir.uses();
    if (ir.outputs.includes(y) && xv.kind === 'node' && !ir.outputs.includes(x) && (uses.get(x) ?? 0) === 0) {
      // rename the producer's output to the declared output name
      const p = ir.producer(x);
      p.outputs = p.outputs.map((o) => (o === x ? y : o));
      const yv = ir.get(y);
      ir.values.delete(x);
      ir.values.set(y, { ...xv, name: y, dtype: xv.dtype, shape: xv.shape ?? yv?.shape ?? null });
    } else {
      ir.replaceUses(y, x);
      ir.values.delete(y);
    }
    removed++;
  }
  if (removed) ir.log.push(`remove-identity: ${removed} node(s)`);
  return removed;
}
