// onnxruntime's com.microsoft contrib ops of the transformer / BERT-optimizer
// exports (onnxruntime/python/tools/transformers), each LOWERED here to
// standard ops the backend has (no kernel of their own). float32 only;
// anything else named in a refusal. The arithmetic order is onnxruntime's
// CPU kernels' (contrib_ops/cpu/bert/bias_gelu.cc, skip_layer_norm.cc,
// fused_matmul.cc) where it is ours to pick:
//   Gelu(X): the backend's Gelu, approximate "none": 0.5 * x * (1 + erf(x /
//     sqrt 2)) (onnxruntime: x * (1/sqrt2), erf, 0.5 * x * (erf + 1)).
//   FastGelu(X, bias?): v = X (+ bias), then the backend's Gelu, approximate
//     "tanh": 0.5 * v * (1 + tanh(sqrt(2/pi) * (v + 0.044715 v^3)))
//     (onnxruntime: v * (C v^2 + B), tanh, 0.5 * v * (t + 1); the two
//     differ in the last bits only). bias 1-D, X's last dim.
//   BiasGelu(A, B): Gelu(A + B), B 1-D, A's last dim (bias_gelu.cc, erf).
//   QuickGelu(X; alpha 1.702): x * Sigmoid(alpha * x) (onnxruntime's
//     order: alpha * x, logistic, times x).
//   BiasAdd(X [N, S, C], bias [C], skip [N, S, C]): (X + bias) + skip (the
//     CUDA kernel's order; onnxruntime has no CPU kernel: the tests'
//     reference is that float twin run by onnxruntime).
//   BiasSplitGelu(X [N, S, D], bias [D]): v = X + bias, split in halves
//     along the last dim, left * Gelu_erf(right) [N, S, D/2] (CUDA only in
//     onnxruntime, as BiasAdd).
//   SkipLayerNormalization(input, skip, gamma, beta?, bias?; epsilon 1e-12)
//     -> output, mean?, inv_std_var?, input_skip_bias_sum?: s = (input +
//     skip) (+ bias) (onnxruntime's order), then LayerNormalization over the
//     last axis (gamma, beta): mean and inv_std_var [.., 1] are the
//     LayerNormalization kernel's (onnxruntime computes the variance as
//     E[s^2] - mean^2, the kernel as E[(s - mean)^2]: equal up to rounding
//     for data of ordinary scale). skip broadcasts onto input.
//   SkipSimplifiedLayerNormalization(input, skip, gamma, bias?; epsilon)
//     -> output, mean (refused: onnxruntime leaves it unwritten),
//     inv_std_var?, input_skip_bias_sum?: s as above, y = s * (1 /
//     sqrt(mean(s^2) + eps)) * gamma.
//   SimplifiedLayerNormalization(X, scale; axis -1, epsilon 1e-5,
//     stash_type 1) -> Y, inv_std_var?: RMS over axes axis..r-1 as above
//     (onnxruntime registers it in the default domain; com.microsoft's name
//     is taken here the same).
//   LayerNormalization (com.microsoft's name): the standard op (axis,
//     epsilon, stash_type 1; Mean and InvStdDev outputs).
//   FusedMatMul(A, B; alpha 1, transA 0, transB 0): MatMul(op(A), op(B)),
//     op a Transpose of the last two dims, then * alpha when alpha != 1
//     (onnxruntime's Gemm scales each sum by alpha: one rounding either
//     way). transBatchA / transBatchB other than 0 are refused.
//   Trilu(X, k?; upper 1): the standard Trilu.
//   Range(start, limit, delta?): the standard Range, delta 1 when absent.
import { A, attr, DT, dtypeName, Unsupported } from './ir.js';

const OPS = Object.create(null);

const f32 = (ctx, v, what) => {
  const dt = ctx.value(v).dtype;
  if (dt !== DT.f32) throw new Unsupported(`${what} of ${dtypeName(dt)} is not supported (float32 only)`);
};

/** e(op, ins, attrs, out?): one emitted node's first output (a fresh name unless `out`). */
const emitter = (ctx, o) => (op, ins, attrs = {}, out) => ctx.emit(op, ins, [out ?? ctx.tmp(`${o}_${op}`)], attrs)[0];

/** A 1-D bias of X's last dim (when both are known). */
function lastDimVector(ctx, x, v, what) {
  f32(ctx, v, what);
  const xs = ctx.shape(x), vs = ctx.shape(v);
  if (!vs || vs.length !== 1) throw new Unsupported(`${what} must be 1-D`);
  const last = xs?.[xs.length - 1];
  if (typeof last === 'number' && typeof vs[0] === 'number' && last !== vs[0]) throw new Unsupported(`${what} has ${vs[0]} elements, the input's last dim is ${last}`);
}

OPS.Gelu = {
  attrs: [],
  norm(ctx, n) {
    f32(ctx, n.inputs[0], 'X');
    ctx.emit('Gelu', [n.inputs[0]], [n.outputs[0]], { approximate: A.string('none') });
  },
};

function biasedGelu(approximate, biasRequired) {
  return (ctx, n) => {
    const [x, bias] = n.inputs, o = n.outputs[0];
    f32(ctx, x, 'the input');
    if (biasRequired && !bias) throw new Unsupported('bias (input 1) is required');
    let v = x;
    if (bias) {
      lastDimVector(ctx, x, bias, 'bias');
      v = emitter(ctx, o)('Add', [x, bias]);
    }
    ctx.emit('Gelu', [v], [o], { approximate: A.string(approximate) });
  };
}

OPS.FastGelu = { attrs: [], norm: biasedGelu('tanh', false) };
OPS.BiasGelu = { attrs: [], norm: biasedGelu('none', true) };

OPS.QuickGelu = {
  attrs: ['alpha'],
  norm(ctx, n) {
    const x = n.inputs[0], o = n.outputs[0], e = emitter(ctx, o);
    f32(ctx, x, 'X');
    const alpha = attr(n, 'alpha', 1.702);
    const s = e('Sigmoid', [e('Mul', [x, ctx.constScalar(`${o}_alpha`, DT.f32, alpha)])]);
    e('Mul', [x, s], {}, o);
  },
};

OPS.BiasAdd = {
  attrs: [],
  norm(ctx, n) {
    const [x, bias, skip] = n.inputs, o = n.outputs[0], e = emitter(ctx, o);
    if (!bias || !skip) throw new Unsupported('bias and skip are required');
    f32(ctx, x, 'X');
    f32(ctx, skip, 'skip');
    lastDimVector(ctx, x, bias, 'bias');
    const xs = ctx.shape(x);
    if (!xs || xs.length !== 3) throw new Unsupported('X must be 3-D [N, S, C]');
    e('Add', [e('Add', [x, bias]), skip], {}, o);
  },
};

OPS.BiasSplitGelu = {
  attrs: [],
  norm(ctx, n) {
    const [x, bias] = n.inputs, o = n.outputs[0], e = emitter(ctx, o);
    if (!bias) throw new Unsupported('bias is required');
    f32(ctx, x, 'X');
    lastDimVector(ctx, x, bias, 'bias');
    const xs = ctx.shape(x);
    if (!xs || xs.length !== 3) throw new Unsupported('X must be 3-D [N, S, D]');
    const D = xs[2];
    if (typeof D !== 'number' || D % 2 !== 0) throw new Unsupported(`the last dim must be known and even (got ${D})`);
    const v = e('Add', [x, bias]);
    const half = ctx.constI64(`${o}_half`, [D / 2, D / 2]);
    const [l, r] = ctx.emit('Split', [v, half], [ctx.tmp(`${o}_l`), ctx.tmp(`${o}_r`)], { axis: A.int(2) });
    const g = e('Gelu', [r], { approximate: A.string('none') });
    e('Mul', [l, g], {}, o);
  },
};

/** s = (input + skip) (+ bias), named `sumOut` when that output is asked for. */
function skipSum(ctx, n, input, skip, bias, sumOut) {
  const o = n.outputs[0], e = emitter(ctx, o);
  f32(ctx, input, 'input');
  f32(ctx, skip, 'skip');
  const xs = ctx.shape(input);
  if (!xs || xs.length < 2) throw new Unsupported('input needs a known rank of 2 or more');
  if (bias) lastDimVector(ctx, input, bias, 'bias');
  const s = e('Add', [input, skip], {}, bias ? undefined : sumOut || undefined);
  return bias ? e('Add', [s, bias], {}, sumOut || undefined) : s;
}

/** y = x * (1 / sqrt(mean(x^2 over axes) + eps)) * gamma; inv_std_var named `ivOut` when asked. */
function rmsNorm(ctx, o, x, gamma, axes, eps, ivOut) {
  const e = emitter(ctx, o);
  const ms = e('ReduceMean', [e('Mul', [x, x]), ctx.constI64(`${o}_axes`, axes)], { keepdims: A.int(1), noop_with_empty_axes: A.int(0) });
  const rms = e('Sqrt', [e('Add', [ms, ctx.constScalar(`${o}_eps`, DT.f32, eps)])]);
  const iv = e('Reciprocal', [rms], {}, ivOut || undefined);
  e('Mul', [e('Mul', [x, iv]), gamma], {}, o);
}

OPS.SkipLayerNormalization = {
  attrs: ['epsilon'],
  norm(ctx, n) {
    const [input, skip, gamma, beta, bias] = n.inputs, [y, mean, iv, sum] = n.outputs;
    if (!skip || !gamma) throw new Unsupported('input, skip and gamma are required');
    lastDimVector(ctx, input, gamma, 'gamma');
    if (beta) lastDimVector(ctx, input, beta, 'beta');
    const s = skipSum(ctx, n, input, skip, bias, sum);
    const outs = ctx.trimOutputs([y, mean || (iv ? ctx.tmp(`${y}_mean`) : ''), iv || '']);
    ctx.emit('LayerNormalization', [s, gamma, beta || ''].filter((v, i) => i < 2 || v), outs, {
      axis: A.int(-1), epsilon: A.float(attr(n, 'epsilon', 1e-12)), stash_type: A.int(1),
    });
  },
};

OPS.SkipSimplifiedLayerNormalization = {
  attrs: ['epsilon'],
  norm(ctx, n) {
    const [input, skip, gamma, bias] = n.inputs, [y, mean, iv, sum] = n.outputs;
    if (!skip || !gamma) throw new Unsupported('input, skip and gamma are required');
    if (mean && ctx.trimOutputs([y, mean]).length > 1)
      throw new Unsupported('output 1 (mean) is not supported: the simplified form computes no mean (onnxruntime leaves it unwritten)');
    lastDimVector(ctx, input, gamma, 'gamma');
    const s = skipSum(ctx, n, input, skip, bias, sum);
    const r = ctx.shape(input).length;
    rmsNorm(ctx, y, s, gamma, [r - 1], attr(n, 'epsilon', 1e-12), iv);
  },
};

OPS.SimplifiedLayerNormalization = {
  attrs: ['axis', 'epsilon', 'stash_type'],
  norm(ctx, n) {
    const [x, scale] = n.inputs, [y, iv] = n.outputs;
    if (!scale) throw new Unsupported('scale is required');
    const st = attr(n, 'stash_type', 1);
    if (st !== 1) throw new Unsupported(`stash_type ${st} is not supported (1: float32)`);
    f32(ctx, x, 'X');
    f32(ctx, scale, 'scale');
    const xs = ctx.shape(x);
    if (!xs) throw new Unsupported('X needs a known rank');
    const r = xs.length, ax0 = attr(n, 'axis', -1), ax = ax0 < 0 ? ax0 + r : ax0;
    if (!(ax >= 0 && ax < r)) throw new Unsupported(`axis ${ax0} is out of range for rank ${r}`);
    rmsNorm(ctx, y, x, scale, Array.from({ length: r - ax }, (_, k) => ax + k), attr(n, 'epsilon', 1e-5), iv);
  },
};

OPS.LayerNormalization = {
  attrs: ['axis', 'epsilon', 'stash_type'],
  norm(ctx, n) {
    const st = attr(n, 'stash_type', 1);
    if (st !== 1) throw new Unsupported(`stash_type ${st} is not supported (1: float32)`);
    f32(ctx, n.inputs[0], 'X');
    if (!n.inputs[1]) throw new Unsupported('Scale is required');
    const outs = ctx.trimOutputs(n.outputs).map((v, i) => v || ctx.tmp(`${n.outputs[0]}_out${i}`));
    ctx.emit('LayerNormalization', n.inputs.filter((v, i) => i < 2 || v), outs, {
      axis: A.int(attr(n, 'axis', -1)), epsilon: A.float(attr(n, 'epsilon', 1e-5)), stash_type: A.int(1),
    });
  },
};

OPS.FusedMatMul = {
  attrs: ['alpha', 'transA', 'transB', 'transBatchA', 'transBatchB'],
  norm(ctx, n) {
    const [a, b] = n.inputs, o = n.outputs[0], e = emitter(ctx, o);
    if (!b) throw new Unsupported('B is required');
    for (const k of ['transBatchA', 'transBatchB'])
      if (attr(n, k, 0) !== 0) throw new Unsupported(`${k} = ${attr(n, k, 0)} is not supported (0 is)`);
    f32(ctx, a, 'A');
    f32(ctx, b, 'B');
    const op = (v, t, what) => {
      if (!t) return v;
      const s = ctx.shape(v);
      if (!s || s.length < 2) throw new Unsupported(`trans${what} needs ${what} of a known rank of 2 or more`);
      const perm = s.map((_, i) => i);
      [perm[s.length - 2], perm[s.length - 1]] = [perm[s.length - 1], perm[s.length - 2]];
      return e('Transpose', [v], { perm: A.ints(perm) });
    };
    const alpha = attr(n, 'alpha', 1);
    const ta = attr(n, 'transA', 0), tb = attr(n, 'transB', 0);
    const m = e('MatMul', [op(a, ta, 'A'), op(b, tb, 'B')], {}, alpha === 1 ? o : undefined);
    if (alpha !== 1) e('Mul', [m, ctx.constScalar(`${o}_alpha`, DT.f32, alpha)], {}, o);
  },
};

OPS.Trilu = {
  attrs: ['upper'],
  norm: (ctx, n) => ctx.emit('Trilu', n.inputs.filter((v, i) => i < 1 || v), [n.outputs[0]], { upper: A.int(attr(n, 'upper', 1)) }),
};

OPS.Range = {
  attrs: [],
  norm(ctx, n) {
    const [start, limit, delta] = n.inputs;
    if (!limit) throw new Unsupported('start and limit are required');
    const dt = ctx.value(start).dtype;
    if (![DT.f32, DT.f64, DT.i32, DT.i64, DT.i16].includes(dt)) throw new Unsupported(`Range of ${dtypeName(dt)} is not supported`);
    ctx.emit('Range', [start, limit, delta || ctx.constScalar(`${n.outputs[0]}_delta`, dt, 1)], [n.outputs[0]], {});
  },
};

export const MSFT_TRANSFORMER_OPS = OPS;
