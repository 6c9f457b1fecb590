// Cast and CastLike, with Cast-19's saturate checked (float8 and 4-bit
// targets are refused by name).
import { A, attr, dtypeName, Unsupported } from './ir.js';

export const CAST_OPS = Object.create(null);

// CastLike (opset 15): Cast to the dtype of its second input, known here.
/** Cast-19's saturate (default 1) only concerns float8 targets, which are refused: checked, then dropped. */
function castSaturate(ctx, n) {
  if (n.attrs.saturate === undefined) return;
  if (ctx.opset < 19) throw new Unsupported(`attribute 'saturate' is opset 19 (this model is opset ${ctx.opset})`);
  const s = attr(n, 'saturate', 1);
  if (s !== 0 && s !== 1) throw new Unsupported(`saturate must be 0 or 1, got ${s}`);
}
// ONNX codes the reader has no name for: the float8 types (opset 19) and the 4-bit integers (opset 21)
const CAST_EXTRA = { 17: 'float8e4m3fn (opset 19)', 18: 'float8e4m3fnuz (opset 19)', 19: 'float8e5m2 (opset 19)', 20: 'float8e5m2fnuz (opset 19)', 21: 'uint4 (opset 21)', 22: 'int4 (opset 21)', 23: 'float4e2m1 (opset 23)', 24: 'float8e8m0 (opset 24)' };
const castTypeName = (to) => CAST_EXTRA[to] ?? dtypeName(to);

CAST_OPS.CastLike = {
  attrs: ['saturate'],
  norm(ctx, n) {
    const to = ctx.value(n.inputs[1]).dtype;
    castSaturate(ctx, n);
    if (![1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 16].includes(to)) throw new Unsupported(`cast to ${castTypeName(to)} is not supported`);
    ctx.emit('Cast', [n.inputs[0]], n.outputs, { to: A.int(to) });
  },
};
CAST_OPS.Cast = {
  attrs: ['to', 'saturate'],
  norm(ctx, n) {
    const to = attr(n, 'to');
    if (typeof to !== 'number') throw new Unsupported(`Cast 'to' must be an int data type (a string 'to' is opset < 6)`);
    castSaturate(ctx, n);
    if (![1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 16].includes(to)) throw new Unsupported(`cast to ${castTypeName(to)} is not supported`);
    ctx.emit('Cast', n.inputs, n.outputs, { to: A.int(to) });
  },
};

