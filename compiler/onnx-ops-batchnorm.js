// The training-side forms of inference ops: BatchNormalization (inference
// form one backend op; training_mode=1 lowered onto ReduceMean/Sub/Mul/
// Div/Sqrt with the running statistics) and Dropout (a kernel with a mask;
// a training-mode draw is compiler/onnx-ops-random.js's).
import { A, attr, DT, dtypeName, Unsupported } from './ir.js';
import { dropoutTraining } from './onnx-ops-random.js';

const ones = (n) => Array(n).fill(1);
export const BATCHNORM_OPS = Object.create(null);

BATCHNORM_OPS.BatchNormalization = {
  attrs: ['epsilon', 'momentum', 'spatial', 'is_test', 'training_mode'],
  norm(ctx, n) {
    if (attr(n, 'spatial', 1) !== 1) throw new Unsupported(`spatial=0 (per-activation statistics) is not supported`);
    const tm = attr(n, 'training_mode', 0);
    if (tm !== 0 && tm !== 1) throw new Unsupported(`training_mode must be 0 or 1, got ${tm}`);
    if (tm === 1) return batchNormTraining(ctx, n);
    const outs = ctx.trimOutputs(n.outputs);
    if (outs.length > 1) throw new Unsupported(`the training outputs (running mean/var) are not supported`);
    ctx.emit('BatchNormalization', n.inputs, outs, { epsilon: A.float(attr(n, 'epsilon', 1e-5)), momentum: A.float(attr(n, 'momentum', 0.9)) });
  },
};

/**
 * BatchNormalization with training_mode=1 (opsets 14, 15): Y normalizes X by
 * the batch's own mean and (biased) variance over every axis but 1; the
 * optional outputs are the running statistics input_mean * momentum +
 * batch_mean * (1 - momentum), and the same for the variance, as the ONNX
 * reference computes them.
 */
function batchNormTraining(ctx, n) {
  const [x, scale, bias, mean, variance] = n.inputs;
  const xs = ctx.shape(x), dt = ctx.value(x).dtype;
  if (!xs || xs.length < 2) throw new Unsupported('training_mode=1 needs X of known rank >= 2');
  if (![DT.f32, DT.f64].includes(dt)) throw new Unsupported(`training_mode=1 with X of ${dtypeName(dt)} is not supported`);
  if ([scale, bias, mean, variance].some((v) => !v || ctx.value(v).dtype !== dt)) throw new Unsupported(`training_mode=1: scale, B, input_mean and input_var must be given, of X's dtype`);
  const o = n.outputs[0], eps = attr(n, 'epsilon', 1e-5), mom = attr(n, 'momentum', 0.9);
  const e = (op, ins, attrs = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], attrs)[0];
  const k = (v) => ctx.constScalar(`${o}_c`, dt, v);
  const axes = ctx.constI64(`${o}_axes`, [0, ...Array.from({ length: xs.length - 2 }, (_, i) => i + 2)]);
  const keep = { keepdims: A.int(1), noop_with_empty_axes: A.int(0) };
  const chan = [1, -1, ...ones(xs.length - 2)];
  const bmean = e('ReduceMean', [x, axes], keep);
  const d = e('Sub', [x, bmean]);
  const bvar = e('ReduceMean', [e('Mul', [d, d]), axes], keep);
  const norm = e('Div', [e('Mul', [ctx.reshapeTo(scale, chan), d]), e('Sqrt', [e('Add', [bvar, k(eps)])])]);
  ctx.emit('Add', [norm, ctx.reshapeTo(bias, chan)], [o], {});
  const outs = ctx.trimOutputs(n.outputs);
  if (outs.length > 3) throw new Unsupported('training_mode=1 has 3 outputs (Y, running_mean, running_var)');
  const running = (stat, batch, out) => {
    const b = ctx.reshapeTo(batch, [-1]);
    ctx.emit('Add', [e('Mul', [stat, k(mom)]), e('Mul', [b, k(1 - mom)])], [out], {});
  };
  if (outs[1]) running(mean, bmean, outs[1]);
  if (outs[2]) running(variance, bvar, outs[2]);
}


BATCHNORM_OPS.Dropout = {
  attrs: ['ratio', 'seed', 'is_test'],
  // opset < 12: inference is the identity (opset 6's is_test=0 "training" mode is not run by an inference engine);
  // opset >= 12: the training_mode input decides (see rewrites/remove-identity.js)
  norm(ctx, n) {
    // before opset 10 the mask has X's dtype, not bool: not modelled
    if (ctx.opset < 10 && ctx.trimOutputs(n.outputs).length > 1) throw new Unsupported(`the mask output of opset ${ctx.opset} (of X's dtype) is not supported`);
    if (ctx.opset >= 12 && dropoutTraining(ctx, n)) return;
    ctx.emit('Dropout', n.inputs, n.outputs, {});
  },
};

