// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (opsets 12, 13),
// lowered onto GatherElements, Gather, Where, Mul and the reductions, so an
// exported evaluation graph that reports its loss converts. SCE is LogSoftmax
// over axis 1, then NLL; `mean` divides by the sum of the gathered weights
// (the count of non-ignored targets without weights), as the spec's
// reference does.
import { A, attr, DT, Unsupported } from './ir.js';

const OPS = Object.create(null);
const REDUCTIONS = ['none', 'sum', 'mean'];

function lossAttrs(n) {
  const reduction = attr(n, 'reduction', 'mean');
  if (!REDUCTIONS.includes(reduction)) throw new Unsupported(`reduction must be one of ${REDUCTIONS.join(', ')}, got '${reduction}'`);
  return { reduction, ignore: n.attrs.ignore_index === undefined ? null : attr(n, 'ignore_index') };
}

/** -x[n, t[n, d...], d...] * w[t], reduced: the node's output 0 (named `out`). */
function nll(ctx, n, x, t, w, out) {
  const { reduction, ignore } = lossAttrs(n);
  const xs = ctx.shape(x), ts = ctx.shape(t);
  if (!xs || xs.length < 2) throw new Unsupported('the input needs a known rank >= 2 ([N, C, d1, ...])');
  if (ts && ts.length !== xs.length - 1) throw new Unsupported(`the target has rank ${ts.length}, expected ${xs.length - 1}`);
  const tdt = ctx.value(t).dtype, fdt = ctx.value(x).dtype;
  if (tdt !== DT.i64 && tdt !== DT.i32) throw new Unsupported('the target must be int32 or int64');
  if (!Number.isInteger(xs[1])) throw new Unsupported('the class dim C must be known at convert time');
  const o = out;
  const e = (op, ins, attrs = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], attrs)[0];
  const ti = (v) => ctx.constScalar(`${o}_i`, tdt, v), tf = (v) => ctx.constScalar(`${o}_f`, fdt, v);
  const axis1 = ctx.constI64(`${o}_axis1`, [1]);
  // An ignored target reads class 0 and weighs 0. Any other target outside
  // [0, C) (a negative one would wrap) becomes C: the gather refuses it.
  const ignored = ignore === null ? null : e('Equal', [t, ti(ignore)]);
  let safe = ignored ? e('Where', [ignored, ti(0), t]) : t;
  safe = e('Where', [e('Less', [safe, ti(0)]), ti(xs[1]), safe]);
  const picked = e('Squeeze', [e('GatherElements', [x, e('Unsqueeze', [safe, axis1])], { axis: A.int(1) }), axis1]);
  let wt = w ? e('Gather', [w, safe], { axis: A.int(0) }) : null;
  if (ignored) wt = e('Where', [ignored, tf(0), wt ?? tf(1)]);
  const lossName = reduction === 'none' ? o : ctx.tmp(`${o}_loss`);
  const [loss] = wt ? ctx.emit('Mul', [e('Neg', [picked]), wt], [lossName], {}) : ctx.emit('Neg', [picked], [lossName], {});
  const all = { keepdims: A.int(0), noop_with_empty_axes: A.int(0) };
  if (reduction === 'none') return;
  if (reduction === 'sum') ctx.emit('ReduceSum', [loss], [o], all);
  else if (!wt) ctx.emit('ReduceMean', [loss], [o], all);
  else ctx.emit('Div', [e('ReduceSum', [loss], all), e('ReduceSum', [wt], all)], [o], {});
}

OPS.NegativeLogLikelihoodLoss = {
  attrs: ['reduction', 'ignore_index'],
  norm(ctx, n) {
    nll(ctx, n, n.inputs[0], n.inputs[1], n.inputs[2] || null, n.outputs[0]);
  },
};

OPS.SoftmaxCrossEntropyLoss = {
  attrs: ['reduction', 'ignore_index'],
  norm(ctx, n) {
    const keepLogProb = n.outputs[1] && ctx.trimOutputs(n.outputs).length > 1;
    const lp = keepLogProb ? n.outputs[1] : ctx.tmp(`${n.outputs[0]}_logprob`);
    ctx.emit('LogSoftmax', [n.inputs[0]], [lp], { axis: A.int(1) });
    nll(ctx, n, lp, n.inputs[1], n.inputs[2] || null, n.outputs[0]);
  },
};

export const LOSS_OPS = OPS;
