// The ai.onnx.preview.training ops (version 1) whose results are
// deterministic formulas: the optimizers Adagrad, Adam and Momentum, lowered
// onto elementwise ops, and Gradient, differentiated symbolically at convert
// time over the small graph between its xs and y. Every formula is the
// spec's (its reference in onnx/backend/test/case/node/{adagrad,adam,
// momentum}.py), in the dtype of X; the scalar R and the count T are cast
// to it. The converter accepts this domain for these ops only
// (compiler/convert.js).
import { A, attr, DT, dtypeName, isConcrete, numel, writeElems, Unsupported } from './ir.js';

export const TRAINING_DOMAIN = 'ai.onnx.preview.training';
const OPS = Object.create(null);
const FLOATS = [DT.f32, DT.f64];

/** Float attribute k (default d; null: required). */
function fattr(n, k, d) {
  if (n.attrs[k] === undefined) {
    if (d === null) throw new Unsupported(`required attribute '${k}' is missing`);
    return d;
  }
  const v = attr(n, k, d);
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Unsupported(`attribute '${k}' must be a finite float`);
  return v;
}

/** An emitter of temporaries named after `base`, with scalar constants of dtype dt. */
function helpers(ctx, base, dt) {
  const e = (op, ins, attrs = {}) => ctx.emit(op, ins, [ctx.tmp(`${base}_${op}`)], attrs)[0];
  const k = (x) => ctx.constScalar(`${base}_c`, dt, x);
  return { e, k, to: (out, op, ins) => ctx.emit(op, ins, [out], {})[0] };
}

/**
 * The optimizers' shared operands: R, T, then `groups` lists of n tensors
 * (X, G, and the op's state). Returns { n, dt, r, t } with r the learning
 * rate and t the update count as tensors of X's dtype.
 */
function optimizerOperands(ctx, node, groups) {
  const ins = node.inputs;
  if ((ins.length - 2) % groups !== 0 || ins.length < 2 + groups) throw new Unsupported(`expected R, T and ${groups} lists of equal length, got ${ins.length} inputs`);
  const n = (ins.length - 2) / groups;
  if (node.outputs.length !== (groups - 1) * n) throw new Unsupported(`expected ${(groups - 1) * n} outputs, got ${node.outputs.length}`);
  if (ins.some((i) => !i)) throw new Unsupported('every input is required');
  const dt = ctx.value(ins[2]).dtype;
  if (!FLOATS.includes(dt)) throw new Unsupported(`X must be float or double, got ${dtypeName(dt)}`);
  for (let i = 2; i < ins.length; i++) {
    const v = ctx.value(ins[i]);
    if (v.dtype !== dt) throw new Unsupported(`input '${ins[i]}' is ${dtypeName(v.dtype)}, X is ${dtypeName(dt)} (all tensors must share one dtype)`);
  }
  for (let j = 0; j < n; j++) {
    const s = ctx.shape(ins[2 + j]);
    for (let g = 1; g < groups; g++) {
      const o = ctx.shape(ins[2 + g * n + j]);
      if (!s || !o || s.length !== o.length || s.some((d, i) => d !== o[i])) throw new Unsupported(`input '${ins[2 + g * n + j]}' must have the shape of '${ins[2 + j]}'`);
    }
  }
  const scalar = (name, what, dts) => {
    const v = ctx.value(name), s = ctx.shape(name);
    if (!dts.includes(v.dtype)) throw new Unsupported(`${what} must be ${dts.map(dtypeName).join(' or ')}, got ${dtypeName(v.dtype)}`);
    if (!s || numel(s.map((d) => (typeof d === 'number' ? d : 2))) !== 1) throw new Unsupported(`${what} must be a scalar`);
  };
  scalar(ins[0], 'R', FLOATS);
  scalar(ins[1], 'T', [DT.i64]);
  const { e } = helpers(ctx, node.outputs[0], dt);
  const flat = (x) => ctx.reshapeTo(x, []);
  const r = flat(ctx.value(ins[0]).dtype === dt ? ins[0] : e('Cast', [ins[0]], { to: A.int(dt) }));
  const t = flat(e('Cast', [ins[1]], { to: A.int(dt) }));
  return { n, dt, r, t, tPositive: e('Greater', [flat(ins[1]), ctx.constScalar(`${node.outputs[0]}_zero`, DT.i64, 0)]) };
}

// X_new = X - r G' / (sqrt(H + G'^2) + epsilon), H_new = H + G'^2, where
// r = R / (1 + T decay_factor) and G' = norm_coefficient X + G.
OPS.Adagrad = {
  attrs: ['decay_factor', 'epsilon', 'norm_coefficient'],
  norm(ctx, node) {
    const decay = fattr(node, 'decay_factor', 0), eps = fattr(node, 'epsilon', 1e-6), norm = fattr(node, 'norm_coefficient', 0);
    const { n, dt, r, t } = optimizerOperands(ctx, node, 3);
    const { e, k, to } = helpers(ctx, node.outputs[0], dt);
    const rate = e('Div', [r, e('Add', [k(1), e('Mul', [t, k(decay)])])]);
    for (let j = 0; j < n; j++) {
      const [x, g, h] = [node.inputs[2 + j], node.inputs[2 + n + j], node.inputs[2 + 2 * n + j]];
      const gr = e('Add', [e('Mul', [k(norm), x]), g]);
      const hNew = to(node.outputs[n + j], 'Add', [h, e('Mul', [gr, gr])]);
      const denom = e('Add', [e('Sqrt', [hNew]), k(eps)]);
      to(node.outputs[j], 'Sub', [x, e('Div', [e('Mul', [rate, gr]), denom])]);
    }
  },
};

// G' = norm_coefficient X + G; V_new = alpha V + (1 - alpha) G';
// H_new = beta H + (1 - beta) G'^2; r' = T > 0 ? R sqrt(1 - beta^T) / (1 - alpha^T) : R;
// X_new = (1 - norm_coefficient_post) (X - r' V_new / (sqrt(H_new) + epsilon)).
OPS.Adam = {
  attrs: ['alpha', 'beta', 'epsilon', 'norm_coefficient', 'norm_coefficient_post'],
  norm(ctx, node) {
    const alpha = fattr(node, 'alpha', 0.9), beta = fattr(node, 'beta', 0.999), eps = fattr(node, 'epsilon', 1e-6);
    const norm = fattr(node, 'norm_coefficient', 0), post = fattr(node, 'norm_coefficient_post', 0);
    const { n, dt, r, t, tPositive } = optimizerOperands(ctx, node, 4);
    const { e, k, to } = helpers(ctx, node.outputs[0], dt);
    const corrected = e('Div', [e('Mul', [r, e('Sqrt', [e('Sub', [k(1), e('Pow', [k(beta), t])])])]), e('Sub', [k(1), e('Pow', [k(alpha), t])])]);
    const rate = e('Where', [tPositive, corrected, r]);
    for (let j = 0; j < n; j++) {
      const [x, g, v, h] = [0, 1, 2, 3].map((q) => node.inputs[2 + q * n + j]);
      const gr = e('Add', [e('Mul', [k(norm), x]), g]);
      const vNew = to(node.outputs[n + j], 'Add', [e('Mul', [k(alpha), v]), e('Mul', [k(1 - alpha), gr])]);
      const hNew = to(node.outputs[2 * n + j], 'Add', [e('Mul', [k(beta), h]), e('Mul', [k(1 - beta), e('Mul', [gr, gr])])]);
      const step = e('Mul', [rate, e('Div', [vNew, e('Add', [e('Sqrt', [hNew]), k(eps)])])]);
      to(node.outputs[j], 'Mul', [k(1 - post), e('Sub', [x, step])]);
    }
  },
};

// G' = norm_coefficient X + G; V_new = alpha V + (T > 0 ? beta : 1) G';
// standard: X_new = X - R V_new; nesterov: X_new = X - R (G' + alpha V_new).
OPS.Momentum = {
  attrs: ['alpha', 'beta', 'mode', 'norm_coefficient'],
  norm(ctx, node) {
    const alpha = fattr(node, 'alpha', null), beta = fattr(node, 'beta', null), norm = fattr(node, 'norm_coefficient', null);
    const mode = attr(node, 'mode', null);
    if (mode !== 'standard' && mode !== 'nesterov') throw new Unsupported(`mode must be "standard" or "nesterov", got ${JSON.stringify(mode)}`);
    const { n, dt, r, tPositive } = optimizerOperands(ctx, node, 3);
    const { e, k, to } = helpers(ctx, node.outputs[0], dt);
    const b = e('Where', [tPositive, k(beta), k(1)]);
    for (let j = 0; j < n; j++) {
      const [x, g, v] = [0, 1, 2].map((q) => node.inputs[2 + q * n + j]);
      const gr = e('Add', [e('Mul', [k(norm), x]), g]);
      const vNew = to(node.outputs[n + j], 'Add', [e('Mul', [k(alpha), v]), e('Mul', [b, gr])]);
      const dir = mode === 'standard' ? vNew : e('Add', [gr, e('Mul', [k(alpha), vNew])]);
      to(node.outputs[j], 'Sub', [x, e('Mul', [r, dir])]);
    }
  },
};

// Gradient: reverse-mode differentiation over the canonical nodes already
// emitted between xs and y. Supported: Add, Sub, Mul, Div, Neg, Identity
// on operands of one concrete shape (no broadcasting, whose gradient needs a
// reduction back to the operand's shape), and a scalar y (the derivative of
// a tensor by a tensor is a Jacobian; the spec does not say which
// contraction it means). Anything else on the path is refused by name.
const LINEAR = {
  Add: (g) => [g, g],
  Sub: (g, _, e) => [g, e('Neg', [g])],
  Mul: (g, [a, b], e) => [e('Mul', [g, b]), e('Mul', [g, a])],
  Div: (g, [a, b], e) => [e('Div', [g, b]), e('Neg', [e('Div', [e('Mul', [g, a]), e('Mul', [b, b])])])],
  Neg: (g, _, e) => [e('Neg', [g])],
  Identity: (g) => [g],
};

OPS.Gradient = {
  attrs: ['xs', 'y', 'zs'],
  norm(ctx, node) {
    const xs = attr(node, 'xs', null), y = attr(node, 'y', null), zs = node.attrs.zs ? attr(node, 'zs') : [];
    if (!Array.isArray(xs) || typeof y !== 'string') throw new Unsupported(`attributes 'xs' (strings) and 'y' (a string) are required`);
    const binds = [...xs, ...zs];
    if (node.inputs.length !== binds.length || node.inputs.some((i, k) => i !== binds[k])) throw new Unsupported(`the inputs must be the values named by xs then zs (evaluating the graph at other points is not supported)`);
    if (node.outputs.length !== xs.length) throw new Unsupported(`expected ${xs.length} outputs (one per xs), got ${node.outputs.length}`);
    const yv = ctx.value(y), ys = ctx.shape(y);
    if (!FLOATS.includes(yv.dtype)) throw new Unsupported(`y must be float or double, got ${dtypeName(yv.dtype)}`);
    if (!isConcrete(ys) || numel(ys) !== 1) throw new Unsupported(`y must be a scalar, its shape is ${JSON.stringify(ys)}`);
    for (const x of xs) if (ctx.isConst(x)) throw new Unsupported(`x '${x}' is a constant (the graph was folded through it)`);
    const grads = backprop(ctx, node, xs, y, yv.dtype);
    xs.forEach((x, i) => {
      const s = ctx.shape(x);
      if (!isConcrete(s)) throw new Unsupported(`x '${x}' needs a concrete shape`);
      const dt = ctx.value(x).dtype;
      const g = grads.get(x) ?? ctx.constRaw(`${node.outputs[i]}_zero`, dt, s, writeElems(dt, Array(numel(s)).fill(0)));
      ctx.emit('Identity', [g], [node.outputs[i]], {});
    });
  },
};

/** Map value -> its accumulated gradient, from dy = 1 back through the emitted nodes. */
function backprop(ctx, node, xs, y, dt) {
  const nodes = ctx.emitted().slice();
  const dep = new Set(xs); // the values that depend on some x: only their nodes are differentiated
  for (const nd of nodes) if (nd.inputs.some((i) => dep.has(i))) nd.outputs.forEach((o) => o && dep.add(o));
  const e = (op, ins) => ctx.emit(op, ins, [ctx.tmp(`${node.outputs[0]}_d${op}`)], {})[0];
  const grads = new Map([[y, ctx.constScalar(`${node.outputs[0]}_seed`, dt, 1)]]);
  const yshape = ctx.shape(y);
  if (yshape.length) grads.set(y, ctx.reshapeTo(grads.get(y), yshape));
  for (let i = nodes.length - 1; i >= 0; i--) {
    const nd = nodes[i], g = grads.get(nd.outputs[0]);
    if (!g || !nd.inputs.some((a) => dep.has(a))) continue;
    const rule = LINEAR[nd.op];
    if (!rule || nd.outputs.length !== 1) throw new Unsupported(`cannot differentiate through ${nd.op} (supported: ${Object.keys(LINEAR).join(', ')})`);
    const s0 = ctx.shape(nd.outputs[0]);
    for (const a of nd.inputs) {
      const s = ctx.shape(a);
      if (!isConcrete(s) || s.length !== s0.length || s.some((d, k) => d !== s0[k])) throw new Unsupported(`cannot differentiate ${nd.op} with broadcasting or unknown shapes (${JSON.stringify(s)} vs ${JSON.stringify(s0)})`);
      if (ctx.value(a).dtype !== dt) throw new Unsupported(`cannot differentiate ${nd.op}: operand '${a}' is ${dtypeName(ctx.value(a).dtype)}`);
    }
    rule(g, nd.inputs, e).forEach((ga, k) => {
      const a = nd.inputs[k];
      if (!dep.has(a)) return; // no x reaches it: its gradient is never asked for
      grads.set(a, grads.has(a) ? e('Add', [grads.get(a), ga]) : ga);
    });
  }
  return grads;
}

export const TRAINING_OPS = OPS;
