// Einsum and LpNormalization, lowered onto ops the backend has (Transpose,
// Reshape, ReduceSum, MatMul; ReduceMax, ReduceL1/L2, Where, Div), so neither
// needs a kernel of its own. Einsum contracts its operands pairwise, left to
// right, as onnxruntime's does: each pair becomes one batched MatMul (f32),
// or a broadcast Mul and a ReduceSum over the contracted dim (other dtypes).
// MeanVarianceNormalization (9, 13) is its ONNX function body.
import { A, attr, DT, Unsupported } from './ir.js';

const OPS = Object.create(null);
const isDim = (d) => Number.isInteger(d) && d >= 0;

/** The equation's terms with '...' spelled out as upper-case letters the equation does not use. */
function parseEquation(eq, ranks) {
  eq = eq.replace(/\s+/g, '');
  const arrow = eq.indexOf('->');
  const lhs = arrow < 0 ? eq : eq.slice(0, arrow), rhs = arrow < 0 ? null : eq.slice(arrow + 2);
  const terms = lhs.split(',');
  if (terms.length !== ranks.length) throw new Unsupported(`Einsum: the equation has ${terms.length} operand terms but the node has ${ranks.length} inputs`);
  const used = new Set(eq.replace(/[^A-Za-z]/g, ''));
  const spare = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'].filter((c) => !used.has(c));
  let ell = 0;
  const expanded = terms.map((t, k) => {
    if (!/^[A-Za-z]*(\.\.\.)?[A-Za-z]*$/.test(t)) throw new Unsupported(`Einsum: term '${t}' is not letters with at most one '...'`);
    if (!t.includes('...')) {
      if (t.length !== ranks[k]) throw new Unsupported(`Einsum: term '${t}' has ${t.length} letters but input ${k} has rank ${ranks[k]}`);
      return t;
    }
    const n = ranks[k] - (t.length - 3);
    if (n < 0) throw new Unsupported(`Einsum: term '${t}' needs rank >= ${t.length - 3}, input ${k} has rank ${ranks[k]}`);
    ell = Math.max(ell, n);
    return { t, n };
  });
  if (ell > spare.length) throw new Unsupported('Einsum: too many dimensions under the ellipsis');
  // an ellipsis covers the trailing `n` of the broadcast ellipsis dims, numpy-style
  const ellL = spare.slice(0, ell).join('');
  const fill = (e) => (typeof e === 'string' ? e : e.t.replace('...', ellL.slice(ell - e.n)));
  const ins = expanded.map(fill);
  let out;
  if (rhs === null) {
    const count = new Map();
    for (const L of ins.join('').replace(new RegExp(`[${ellL || '_'}]`, 'g'), '')) count.set(L, (count.get(L) ?? 0) + 1);
    out = ellL + [...count].filter(([, c]) => c === 1).map(([L]) => L).sort().join('');
  } else {
    if (!/^[A-Za-z]*(\.\.\.)?[A-Za-z]*$/.test(rhs)) throw new Unsupported(`Einsum: output term '${rhs}' is not letters with at most one '...'`);
    out = rhs.replace('...', ellL);
  }
  return { ins, out };
}

/** Every letter's dim (a letter twice in one term, a diagonal, must have one dim); refuses broadcasting. */
function letterDims(ins, out, shapes) {
  const dims = new Map();
  ins.forEach((t, k) => {
    [...t].forEach((L, i) => {
      const d = shapes[k][i];
      if (!isDim(d)) throw new Unsupported(`Einsum: input ${k} dim ${i} is not known at convert time`);
      if (dims.has(L) && dims.get(L) !== d) throw new Unsupported(`Einsum: index '${L}' is ${dims.get(L)} in one operand and ${d} in another (broadcasting is not supported)`);
      dims.set(L, d);
    });
  });
  if (new Set(out).size !== out.length) throw new Unsupported(`Einsum: output term '${out}' repeats an index`);
  for (const L of out) if (!dims.has(L)) throw new Unsupported(`Einsum: output index '${L}' appears in no operand`);
  return dims;
}

function lowering(ctx, n, dims) {
  const emit1 = (op, ins, attrs, hint) => ctx.emit(op, ins, [ctx.tmp(`${n.outputs[0]}_${hint}`)], attrs)[0];
  const prod = (ls) => [...ls].reduce((p, L) => p * dims.get(L), 1);
  const transpose = (x, from, to) => (from === to ? x : emit1('Transpose', [x], { perm: A.ints([...to].map((L) => from.indexOf(L))) }, 'tr'));
  const reshape = (x, want) => ctx.reshapeTo(x, want);
  const sumOut = (x, t, keep) => {
    const drop = [...t].filter((L) => !keep.has(L));
    if (!drop.length) return [x, t];
    const axes = ctx.constI64(`${n.outputs[0]}_axes`, drop.map((L) => t.indexOf(L)));
    const y = emit1('ReduceSum', [x, axes], { keepdims: A.int(0), noop_with_empty_axes: A.int(0) }, 'sum');
    return [y, [...t].filter((L) => keep.has(L)).join('')];
  };
  // the GEMM core is f32: other dtypes multiply [B, M, K, 1] x [B, 1, K, N] and sum K (exact products, one sum per output)
  const f32 = ctx.value(n.inputs[0]).dtype === DT.f32;
  const matmul = (a3, b3, [B, M, K, N]) => {
    if (f32) return emit1('MatMul', [a3, b3], {}, 'mm');
    const prod4 = emit1('Mul', [reshape(a3, [B, M, K, 1]), reshape(b3, [B, 1, K, N])], {}, 'mul');
    const axes = ctx.constI64(`${n.outputs[0]}_k`, [2]);
    return emit1('ReduceSum', [prod4, axes], { keepdims: A.int(0), noop_with_empty_axes: A.int(0) }, 'dot');
  };
  return { emit1, prod, transpose, reshape, sumOut, matmul, dim: (L) => dims.get(L) };
}

/** x (letters t) with each repeated letter taken once, on the diagonal: Transpose, Reshape to [..., d*d], Gather every (d+1)-th. */
function diagonals(ctx, n, L, x, t) {
  for (let c = [...t].find((l, i) => t.indexOf(l) !== i); c; c = [...t].find((l, i) => t.indexOf(l) !== i)) {
    const p = t.indexOf(c), q = t.indexOf(c, p + 1), d = L.dim(c);
    const keepAt = [...[...t].keys()].filter((i) => i !== p && i !== q), rest = keepAt.map((i) => t[i]).join('');
    // a perm by position: Transpose by letters cannot tell the two c's apart
    const perm = [...keepAt, p, q];
    const moved = perm.every((v, i) => v === i) ? x : L.emit1('Transpose', [x], { perm: A.ints(perm) }, 'tr');
    const flat = L.reshape(moved, [...[...rest].map(L.dim), d * d]);
    const idx = ctx.constI64(`${n.outputs[0]}_diag`, Array.from({ length: d }, (_, k) => k * (d + 1)));
    x = L.emit1('Gather', [flat, idx], { axis: A.int(rest.length) }, 'diag');
    t = rest + c;
  }
  return [x, t];
}

/** a (letters ta) x b (letters tb), keeping the letters in `keep`: one batched MatMul. */
function contract(L, [a, ta], [b, tb], keep) {
  const inB = new Set(tb), inA = new Set(ta);
  [a, ta] = L.sumOut(a, ta, new Set([...ta].filter((c) => keep.has(c) || inB.has(c))));
  [b, tb] = L.sumOut(b, tb, new Set([...tb].filter((c) => keep.has(c) || inA.has(c))));
  const batch = [...ta].filter((c) => tb.includes(c) && keep.has(c)).join('');
  const sum = [...ta].filter((c) => tb.includes(c) && !keep.has(c)).join('');
  const onlyA = [...ta].filter((c) => !tb.includes(c)).join(''), onlyB = [...tb].filter((c) => !ta.includes(c)).join('');
  const at = L.transpose(a, ta, batch + onlyA + sum), bt = L.transpose(b, tb, batch + sum + onlyB);
  const a3 = L.reshape(at, [L.prod(batch), L.prod(onlyA), L.prod(sum)]);
  const b3 = L.reshape(bt, [L.prod(batch), L.prod(sum), L.prod(onlyB)]);
  const c3 = L.matmul(a3, b3, [L.prod(batch), L.prod(onlyA), L.prod(sum), L.prod(onlyB)]);
  const t = batch + onlyA + onlyB;
  return [L.reshape(c3, [...t].map(L.dim)), t];
}

OPS.Einsum = {
  attrs: ['equation'],
  norm(ctx, n) {
    if (n.attrs.equation === undefined) throw new Unsupported(`required attribute 'equation' is missing`);
    const shapes = n.inputs.map((i) => ctx.shape(i));
    if (shapes.some((s) => !s)) throw new Unsupported('Einsum needs every input rank at convert time');
    const { ins, out } = parseEquation(String(attr(n, 'equation')), shapes.map((s) => s.length));
    const dims = letterDims(ins, out, shapes);
    const L = lowering(ctx, n, dims);
    const ops = ins.map((t, k) => diagonals(ctx, n, L, n.inputs[k], t));
    let acc = ops[0];
    for (let k = 1; k < ops.length; k++) {
      const keep = new Set([...out, ...ops.slice(k + 1).map((o) => o[1]).join('')]);
      acc = contract(L, acc, ops[k], keep);
    }
    const [x, t] = L.sumOut(acc[0], acc[1], new Set(out));
    // the last step names the node's output: an Identity-free Transpose or Reshape
    if (t === out) ctx.emit('Reshape', [x, ctx.constI64(`${n.outputs[0]}_shape`, [...out].map(L.dim))], n.outputs, { allowzero: A.int(0) });
    else ctx.emit('Transpose', [x], n.outputs, { perm: A.ints([...out].map((c) => t.indexOf(c))) });
  },
};

// LpNormalization as onnxruntime computes it: a vector is first divided by
// its largest magnitude (so finite inputs cannot overflow forming the norm),
// a zero vector gives zeros, and a vector with an Inf or NaN is divided by its
// unscaled norm (Inf or NaN), as onnxruntime's fallback does.
OPS.LpNormalization = {
  attrs: ['axis', 'p'],
  norm(ctx, n) {
    const p = attr(n, 'p', 2);
    if (p !== 1 && p !== 2) throw new Unsupported(`LpNormalization: p must be 1 or 2, got ${p}`);
    const s = ctx.shape(n.inputs[0]);
    if (!s) throw new Unsupported('LpNormalization needs the input rank');
    let axis = attr(n, 'axis', -1);
    if (axis < -s.length || axis >= s.length) throw new Unsupported(`LpNormalization: axis ${axis} is out of range for rank ${s.length}`);
    if (axis < 0) axis += s.length;
    const x = n.inputs[0], o = n.outputs[0], dt = ctx.value(x).dtype;
    const e = (op, ins, attrs = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], attrs)[0];
    const red = (op, v) => e(op, [v, ctx.constI64(`${o}_axes`, [axis])], { keepdims: A.int(1), noop_with_empty_axes: A.int(0) });
    const one = ctx.constScalar(`${o}_one`, dt, 1), zero = ctx.constScalar(`${o}_zero`, dt, 0), inf = ctx.constScalar(`${o}_inf`, dt, Infinity);
    const scale = red('ReduceMax', e('Abs', [x]));
    const finitePos = e('And', [e('Greater', [scale, zero]), e('Less', [scale, inf])]);
    const xs = e('Div', [x, e('Where', [finitePos, scale, one])]);
    const norm = red(p === 1 ? 'ReduceL1' : 'ReduceL2', xs);
    ctx.emit('Div', [xs, e('Where', [e('Equal', [norm, zero]), one, norm])], n.outputs, {});
  },
};

// MeanVarianceNormalization (9, 13) as the spec's function body:
// (X - E[X]) / (sqrt(E[X^2] - E[X]^2) + 1e-9), the means over `axes`.
OPS.MeanVarianceNormalization = {
  attrs: ['axes'],
  norm(ctx, n) {
    if (ctx.opset < 9) throw new Unsupported('MeanVarianceNormalization before opset 9 is the experimental op (across_channels, normalize_variance)');
    const x = n.inputs[0], o = n.outputs[0], dt = ctx.value(x).dtype;
    const e = (op, ins, attrs = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], attrs)[0];
    const axes = ctx.constI64(`${o}_axes`, attr(n, 'axes', [0, 2, 3]));
    const mean = (v) => e('ReduceMean', [v, axes], { keepdims: A.int(1), noop_with_empty_axes: A.int(0) });
    const m = mean(x);
    const variance = e('Sub', [mean(e('Mul', [x, x])), e('Mul', [m, m])]);
    const std = e('Add', [e('Sqrt', [variance]), ctx.constScalar(`${o}_eps`, dt, 1e-9)]);
    ctx.emit('Div', [e('Sub', [x, m]), std], n.outputs, {});
  },
};

export const EINSUM_OPS = OPS;
