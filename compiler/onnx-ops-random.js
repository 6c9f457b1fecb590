// The random ops (docs/decisions.md 99): RandomNormal, RandomUniform, their
// Like forms, Bernoulli, Multinomial and training-mode Dropout, lowered onto
// hologram's own generator, the backend's holo.Philox
// (kernels-wasm-simd/operators/random.c): u32 words, word j of a node being
// word j mod 4 of the Philox4x32-10 block of counter j / 4. Everything after
// the words is ordinary ops, so a result is a pure function of the key and
// the element's index, the same on every build, ISA and thread count, and
// folded (the fold core runs the same kernels) or executed it is one answer.
//
// The key. With a `seed` it is the node's: a float seed (RandomNormal,
// RandomUniform, their Like forms, Bernoulli, Multinomial) is the 32 bits of
// its float32 value as the low word, 0 the high word; Dropout's int seed is
// its 64-bit two's complement. It is the kernel's `key` attribute, so part of
// every label downstream. Without a seed the node reads the archive's
// entropy input `holo.entropy` (u32 [4], the last input port; the bindings
// and the CLI fill it with fresh random bytes on every execution unless the
// caller gives it), and its `stream` attribute is a number no other
// unseeded draw of the conversion has: its labels change with the entropy,
// so it is never folded and never memoized.
//
// The floats (all in float32, then cast to the op's dtype):
//   uniform u = (w >> 8) * 2^-24, in [0, 1), one word per element;
//   normal: two words per element (w0, w1 = words 2i, 2i + 1),
//     z = sqrt(-2 ln(1 - u(w0))) * cos(2pi_f32 * u(w1)), 1 - u in (0, 1];
//     y = z * scale + mean (a step left out when it is the identity);
//   uniform in [low, high): u * (high - low) + low, high - low rounded to
//     float32 first (the rounding can reach high);
//   Bernoulli: 1 where u < p (u widened to float64 for a float64 p);
//   Multinomial over [B, C] log-probabilities: one u per sample, the class is
//     the number of c with cumsum(exp(x - max))[c] / total <= u (the first
//     class whose normalized cumulative mass exceeds u; a class of zero mass
//     is never drawn; a row with a NaN draws class 0);
//   Dropout: keep where u >= ratio; y = x * keep * (1 / (1 - ratio)), the
//     scale computed in float32, as onnxruntime does.
import { A, attr, DT, dtypeName, Unsupported } from './ir.js';

/** The name of the archive's entropy input. */
export const ENTROPY = 'holo.entropy';

export const RANDOM_OPS = Object.create(null);

const FLOATS = [DT.f32, DT.f64, DT.f16, DT.bf16];
const TWO_PI_F32 = Math.fround(2 * Math.PI);

/** The low word of the key a float seed gives: its float32 bits. */
export function floatSeedKey(seed) {
  const dv = new DataView(new ArrayBuffer(4));
  dv.setFloat32(0, seed, true);
  return dv.getUint32(0, true);
}

/** The Philox attributes of node n: its key, or a fresh stream and the entropy input. */
function source(ctx, n, intSeed) {
  const a = n.attrs.seed;
  if (a === undefined) return { attrs: { stream: A.int(ctx.randomStream()) }, entropy: ctx.entropy() };
  if (intSeed) {
    if (a.type !== 'int') throw new Unsupported(`attribute 'seed' is of type ${a.type}, expected int`);
    return { attrs: { key: A.int(BigInt.asIntN(64, BigInt(a.value))) }, entropy: null };
  }
  const s = attr(n, 'seed', 0);
  if (!Number.isFinite(s)) throw new Unsupported(`seed ${s} is not a finite float`);
  return { attrs: { key: A.int(floatSeedKey(s)) }, entropy: null };
}

/** The op's float dtype attribute (default dflt), refused when it is no float. */
function floatDtype(n, dflt) {
  const dt = attr(n, 'dtype', dflt);
  if (!FLOATS.includes(dt)) throw new Unsupported(`dtype ${dtypeName(dt)} is not a float type (float, double, float16, bfloat16)`);
  return dt;
}

/** A 1-D int64 value: x's dims (a constant when they are known) and then `more`. */
function dimsOf(ctx, o, x, more = []) {
  const s = ctx.shape(x);
  if (s && s.every((d) => typeof d === 'number')) return ctx.constI64(`${o}_dims`, [...s, ...more]);
  const [d] = ctx.emit('Shape', [x], [ctx.tmp(`${o}_shape`)], { start: A.int(0) });
  if (!more.length) return d;
  return ctx.emit('Concat', [d, ctx.constI64(`${o}_more`, more)], [ctx.tmp(`${o}_dims`)], { axis: A.int(0) })[0];
}

/** Uniform float32 in [0, 1) of the dims `dims` (a 1-D int64 value): (w >> 8) * 2^-24. */
function uniform(ctx, n, o, dims, intSeed = false) {
  const src = source(ctx, n, intSeed);
  const e = (op, ins, at = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], at)[0];
  const w = e('holo.Philox', src.entropy ? [dims, src.entropy] : [dims], src.attrs);
  const hi = e('BitShift', [w, ctx.constScalar(`${o}_8`, DT.u32, 8)], { direction: A.string('RIGHT') });
  return e('Mul', [e('Cast', [hi], { to: A.int(DT.f32) }), ctx.constScalar(`${o}_ulp`, DT.f32, 2 ** -24)]);
}

/** y (float32) to `out` in dtype dt. */
function castTo(ctx, y, out, dt) {
  if (dt === DT.f32) return ctx.emit('Identity', [y], [out], {});
  return ctx.emit('Cast', [y], [out], { to: A.int(dt) });
}

/** Standard normal float32 of the dims of `dimsPlus2` without its last (2) (Box-Muller, two words each). */
function normal(ctx, n, o, dimsPlus2) {
  const e = (op, ins, at = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], at)[0];
  const u = uniform(ctx, n, o, dimsPlus2);
  const pick = (k) => e('Gather', [u, ctx.constScalar(`${o}_w${k}`, DT.i64, k)], { axis: A.int(-1) });
  const f = (h, v) => ctx.constScalar(`${o}_${h}`, DT.f32, v);
  const r = e('Sqrt', [e('Mul', [e('Log', [e('Sub', [f('one', 1), pick(0)])]), f('m2', -2)])]);
  return e('Mul', [r, e('Cos', [e('Mul', [pick(1), f('tau', TWO_PI_F32)])])]);
}

/** y = x * a + b in float32, each step left out when it is the identity. */
function affine(ctx, o, x, a, b) {
  const f = (h, v) => ctx.constScalar(`${o}_${h}`, DT.f32, v);
  if (a !== 1) x = ctx.emit('Mul', [x, f('scale', a)], [ctx.tmp(`${o}_scaled`)], {})[0];
  if (b !== 0) x = ctx.emit('Add', [x, f('shift', b)], [ctx.tmp(`${o}_shifted`)], {})[0];
  return x;
}

/** The shape attribute of RandomNormal / RandomUniform: known dims. */
function shapeAttr(n) {
  const s = attr(n, 'shape', null);
  if (!s) throw new Unsupported(`required attribute 'shape' is missing`);
  if (!s.every((d) => Number.isSafeInteger(d) && d >= 0)) throw new Unsupported(`shape ${JSON.stringify(s)} must be non-negative integers`);
  return s;
}

/** The distribution's parameters as float32 numbers. */
const f32 = (n, k, d) => Math.fround(attr(n, k, d));

function normalOp(like) {
  return {
    attrs: ['dtype', 'mean', 'scale', 'seed', ...(like ? [] : ['shape'])],
    in0Optional: !like,
    norm(ctx, n) {
      const o = n.outputs[0];
      const x = like ? n.inputs[0] : null;
      const dt = floatDtype(n, like ? ctx.value(x).dtype : DT.f32);
      const dims = like ? dimsOf(ctx, o, x, [2]) : ctx.constI64(`${o}_dims`, [...shapeAttr(n), 2]);
      const z = normal(ctx, n, o, dims);
      castTo(ctx, affine(ctx, o, z, f32(n, 'scale', 1.0), f32(n, 'mean', 0.0)), o, dt);
    },
  };
}

function uniformOp(like) {
  return {
    attrs: ['dtype', 'high', 'low', 'seed', ...(like ? [] : ['shape'])],
    in0Optional: !like,
    norm(ctx, n) {
      const o = n.outputs[0];
      const x = like ? n.inputs[0] : null;
      const dt = floatDtype(n, like ? ctx.value(x).dtype : DT.f32);
      const dims = like ? dimsOf(ctx, o, x) : ctx.constI64(`${o}_dims`, shapeAttr(n));
      const lo = f32(n, 'low', 0.0), hi = f32(n, 'high', 1.0);
      castTo(ctx, affine(ctx, o, uniform(ctx, n, o, dims), Math.fround(hi - lo), lo), o, dt);
    },
  };
}

RANDOM_OPS.RandomNormal = normalOp(false);
RANDOM_OPS.RandomNormalLike = normalOp(true);
RANDOM_OPS.RandomUniform = uniformOp(false);
RANDOM_OPS.RandomUniformLike = uniformOp(true);

// Bernoulli (opset 15): 1 where u < p, in dtype (default p's; any numeric or bool).
RANDOM_OPS.Bernoulli = {
  attrs: ['dtype', 'seed'],
  norm(ctx, n) {
    const o = n.outputs[0], p = n.inputs[0], pdt = ctx.value(p).dtype;
    if (!FLOATS.includes(pdt)) throw new Unsupported(`input of ${dtypeName(pdt)}: the probabilities must be a float type`);
    const dt = attr(n, 'dtype', pdt);
    const e = (op, ins, at = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], at)[0];
    let u = uniform(ctx, n, o, dimsOf(ctx, o, p)), q = p;
    if (pdt === DT.f64) u = e('Cast', [u], { to: A.int(DT.f64) });
    else if (pdt !== DT.f32) q = e('Cast', [p], { to: A.int(DT.f32) }); // float16 / bfloat16 widen exactly
    const hit = e('Less', [u, q]);
    if (dt === DT.bool) ctx.emit('Identity', [hit], [o], {});
    else ctx.emit('Cast', [hit], [o], { to: A.int(dt) });
  },
};

// Multinomial (opset 7): [B, C] unnormalized log-probabilities -> [B, sample_size] class indices.
RANDOM_OPS.Multinomial = {
  attrs: ['dtype', 'sample_size', 'seed'],
  norm(ctx, n) {
    const o = n.outputs[0], x0 = n.inputs[0], xdt = ctx.value(x0).dtype;
    const dt = attr(n, 'dtype', DT.i32), ss = attr(n, 'sample_size', 1);
    if (dt !== DT.i32 && dt !== DT.i64) throw new Unsupported(`dtype ${dtypeName(dt)} must be int32 or int64`);
    if (!Number.isSafeInteger(ss) || ss < 1) throw new Unsupported(`sample_size ${ss} must be a positive integer`);
    if (!FLOATS.includes(xdt)) throw new Unsupported(`input of ${dtypeName(xdt)}: the log-probabilities must be a float type`);
    const xs = ctx.shape(x0);
    if (xs && xs.length !== 2) throw new Unsupported(`input of rank ${xs.length}: it must be [batch_size, class_size]`);
    const e = (op, ins, at = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], at)[0];
    const I = (h, v) => ctx.constI64(`${o}_${h}`, v);
    const x = xdt === DT.f32 ? x0 : e('Cast', [x0], { to: A.int(DT.f32) });
    const keep = { keepdims: A.int(1), noop_with_empty_axes: A.int(0) };
    const mass = e('Exp', [e('Sub', [x, e('ReduceMax', [x, I('ax1', [1])], keep)])]);
    const cum = e('CumSum', [mass, ctx.constScalar(`${o}_axis`, DT.i64, 1)], { exclusive: A.int(0), reverse: A.int(0) });
    const total = e('Slice', [cum, I('last', [-1]), I('end', [2 ** 53]), I('ax1s', [1])]);
    const cn = e('Unsqueeze', [e('Div', [cum, total]), I('u1', [1])]); // [B, 1, C]
    let dims;
    if (xs && typeof xs[0] === 'number') dims = I('dims', [xs[0], ss]);
    else dims = e('Concat', [e('Shape', [x0], { start: A.int(0), end: A.int(1) }), I('ss', [ss])], { axis: A.int(0) });
    const u = e('Unsqueeze', [uniform(ctx, n, o, dims), I('u2', [2])]); // [B, S, 1]
    const below = e('Cast', [e('LessOrEqual', [cn, u])], { to: A.int(DT.f32) });
    const count = e('ReduceSum', [below, I('ax2', [2])], { keepdims: A.int(0), noop_with_empty_axes: A.int(0) });
    ctx.emit('Cast', [count], [o], { to: A.int(dt) });
  },
};

/** A constant float value's elements, or null. */
function constFloat(ctx, v) {
  if (!v || !ctx.isConst(v)) return null;
  const c = ctx.value(v);
  if (c.dtype === DT.f32) return new Float32Array(c.bytes.slice().buffer)[0];
  if (c.dtype === DT.f64) return new Float64Array(c.bytes.slice().buffer)[0];
  return null;
}

/**
 * Dropout (opsets 12, 13, 22) when training_mode may be true and the ratio
 * may be nonzero: the draw as ops (the header), the mask output where it is
 * used; a training_mode known only at execute time selects between the
 * draw and the identity (an all-true mask). Returns false when the node is
 * the Dropout kernel's (no draw: inference, or a constant ratio 0).
 */
export function dropoutTraining(ctx, n) {
  const [x, r, t] = n.inputs;
  if (!t) return false;
  if (ctx.isConst(t)) {
    const tv = ctx.value(t);
    if (!tv.bytes.some((b) => b !== 0)) return false;
  }
  const rc = r ? constFloat(ctx, r) : 0.5;
  if (rc === 0) return false;
  if (rc !== null && !(rc >= 0 && rc < 1)) throw new Unsupported(`ratio ${rc} must be in [0, 1)`);
  const xdt = ctx.value(x).dtype;
  if (!FLOATS.includes(xdt)) throw new Unsupported(`training_mode with data of ${dtypeName(xdt)}: the data must be a float type`);
  const o = n.outputs[0], outs = ctx.trimOutputs(n.outputs);
  const e = (op, ins, at = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], at)[0];
  const to = (v, dt) => e('Cast', [v], { to: A.int(dt) });
  let ratio;
  if (rc !== null) ratio = ctx.constScalar(`${o}_ratio`, DT.f32, rc);
  else ratio = ctx.value(r).dtype === DT.f32 ? r : to(r, DT.f32);
  const keep = e('GreaterOrEqual', [uniform(ctx, n, o, dimsOf(ctx, o, x), true), ratio]);
  const one = ctx.constScalar(`${o}_one`, DT.f32, 1);
  let scale = e('Div', [one, e('Sub', [one, ratio])]);
  if (xdt !== DT.f32) scale = to(scale, xdt);
  const train = e('Mul', [e('Mul', [x, to(keep, xdt)]), scale]);
  const dynamic = !ctx.isConst(t);
  if (dynamic) ctx.emit('Where', [t, train, x], [o], {});
  else ctx.emit('Identity', [train], [o], {});
  if (outs.length > 1) {
    if (dynamic) ctx.emit('Or', [keep, e('Not', [t])], [outs[1]], {});
    else ctx.emit('Identity', [keep], [outs[1]], {});
  }
  return true;
}

/**
 * After the rewrites: the entropy input goes when no node reads it any more
 * (the random op was dead), and a graph the runtime runs repeatedly (a Loop
 * or Scan body, at any depth; an If branch runs once) may not read it: its
 * draws would repeat at every iteration. Sets report.entropy (the input's
 * name, or null).
 */
export function settleEntropy(ir, report, allNodes) {
  report.entropy = null;
  if (!ir.inputs.includes(ENTROPY)) return;
  const check = (nodes) => {
    for (const n of nodes) for (const g of n.graphs ?? []) {
      if (n.op === 'If') { check(g.nodes); continue; }
      for (const m of allNodes(g.nodes))
        if (m.inputs.includes(ENTROPY)) throw new Error(`unsupported op '${n.op}' (node '${n.name}'): its ${g.name} holds an unseeded random op (node '${m.name}'), whose draws would repeat at every iteration; give the op a seed (then every iteration draws the same values too), or unroll the ${n.op}`);
    }
  };
  check(ir.nodes);
  if (!allNodesRead(ir.nodes, allNodes)) {
    ir.inputs.splice(ir.inputs.indexOf(ENTROPY), 1);
    ir.values.delete(ENTROPY);
    return;
  }
  report.entropy = ENTROPY;
}

const allNodesRead = (nodes, allNodes) => [...allNodes(nodes)].some((n) => n.inputs.includes(ENTROPY));
