// Rewrite: remove Identity, inference-mode Dropout and Cast to x's own dtype.
//
// Identity(x), Dropout(x) output 0 and Cast(x, to = x's dtype) are replaced
// by x everywhere. The Cast case is mostly a 16-bit model's own Cast to
// float32 of a value widen-half already made f32 (compiler/rewrites/widen-half.js
// runs first): a copy per run otherwise (issue 40: three of an f16
// attention block's 12 kernels). Dropout is
// the identity in inference; from opset 12 its optional `training_mode` input
// is absent or a constant false (a constant true with a constant ratio 0 is
// also the identity). A Dropout whose mask output is consumed, or whose
// training_mode (or, in training, ratio) is known only at execute time, is
// left to the Dropout kernel (kernels-wasm-simd/operators/dropout.c: the
// data and an all-true mask). A Dropout that may draw at random never gets
// here: compiler/onnx-ops-random.js writes its draw as ops.
//
// When the removed node's output is a graph output, the node's input value is
// renamed to the declared output name wherever it is read (a .holo output
// port is named by its value, and users ask for outputs by the names the
// model declares). Only when the input is a graph input or itself a graph
// output (it cannot take a second name) does the port take the input's name.
import { readElems } from '../ir.js';

/** Is this Dropout provably the identity with no mask in use? */
function dropoutIsIdentity(ir, n) {
  if (n.outputs[1] && (ir.uses().get(n.outputs[1]) || ir.outputs.includes(n.outputs[1]))) return false;
  const tm = n.inputs[2];
  if (!tm) return true;
  const v = ir.get(tm);
  if (v.kind !== 'const') return false;
  if (!readElems(v.dtype, v.bytes).some((e) => Number(e) !== 0)) return true;
  let ratio = 0.5;
  if (n.inputs[1]) {
    const r = ir.get(n.inputs[1]);
    if (r.kind !== 'const') return false;
    ratio = Number(readElems(r.dtype, r.bytes)[0]);
  }
  return ratio === 0;
}

/**
 * Whether removing a node x -> y keeps y's declared name where y is a graph
 * output (the producer of x takes it). A no-op Cast of a graph input or a
 * constant that is itself the output stays: unlike an Identity, it is not
 * worth renaming the model's output port to the input's name.
 */
function keepsOutputName(ir, x, y) {
  return !ir.outputs.includes(y) || (ir.get(x).kind === 'node' && !ir.outputs.includes(x));
}

export function removeIdentity(ir) {
  let removed = 0;
  for (const n of [...ir.nodes]) {
    const sameCast = n.op === 'Cast' && !n.noFold && n.inputs[0] && ir.get(n.inputs[0])?.dtype === n.attrs.to?.value &&
      keepsOutputName(ir, n.inputs[0], n.outputs[0]);
    if (n.op !== 'Identity' && n.op !== 'Dropout' && !sameCast) continue;
    if (n.op === 'Dropout' && !dropoutIsIdentity(ir, n)) continue; // the Dropout kernel runs it
    const x = n.inputs[0], y = n.outputs[0];
    ir.nodes.splice(ir.nodes.indexOf(n), 1);
    const xv = ir.get(x);
    if (ir.outputs.includes(y) && xv.kind === 'node' && !ir.outputs.includes(x)) {
      // rename the producer's output, and its other readers, to the declared output name
      const p = ir.producer(x);
      p.outputs = p.outputs.map((o) => (o === x ? y : o));
      ir.replaceUses(x, y);
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
