// Control flow: If, Loop and Scan (docs/decisions.md 41, 53). Where it is
// exact and cheap the converter inlines: an If whose condition folds runs
// its taken branch only; an If on a runtime condition whose branches are
// safe to compute whatever the condition (no op that can fail on the values
// it reads) and give outputs of one dtype and one known shape computes both
// and selects with Where; a Loop whose trip count (and condition) fold is
// unrolled, up to MAX_UNROLL iterations; a Scan over a known sequence
// length is unrolled (Scan-8: per batch entry). Everything else becomes a
// construct of the graph the runtime executes (compiler/control-graphs.js,
// docs/holo-format.md §4a): an If that runs only its taken branch, a Loop
// that iterates its body at run time; a Scan over a length known only at
// run time is lowered onto that Loop.
import { A, attr, DT, readElems, isConcrete, Unsupported, writeElems, numel } from './ir.js';
import { reshapeTarget } from './onnx-ops.js';
import { buildGraph, subgraph, emitControl } from './control-graphs.js';
import { emitList, isList, OPT, runtimeValue, SEQ } from './seq-values.js';

/** Most iterations a Loop or Scan is unrolled to. */
export const MAX_UNROLL = 1024;
/** Most nodes the unrolled iterations of one Loop or Scan may emit. */
export const MAX_UNROLLED_NODES = 65536;

// Ops that can fail on the values they read (an index out of range, a shape
// or count taken from data, an integer division by zero): an untaken branch
// holding one could make a select of both branches fail where the model would not.
const MAY_FAIL = new Set(['Gather', 'GatherElements', 'GatherND', 'ScatterElements', 'ScatterND', 'OneHot', 'TopK',
  'Reshape', 'Expand', 'Tile', 'ConstantOfShape', 'Range', 'Slice', 'Pad', 'Resize', 'NonZero', 'Split', 'Squeeze', 'Unsqueeze']);

/** The single element of a constant (a condition, a trip count), or undefined when it is not one. */
function scalarConst(ctx, name) {
  if (!name || !ctx.isConst(name)) return undefined;
  const v = ctx.value(name);
  const e = readElems(v.dtype, v.bytes);
  if (e.length !== 1) throw new Unsupported(`'${name}' has ${e.length} elements, one is required`);
  return e[0];
}

/** Makes `dst` (the op's output) the value `src` (a subgraph's): an Identity for a tensor, the same list for a sequence. */
function bindOut(ctx, src, dst) {
  if (!dst) return;
  const items = ctx.seq(src);
  if (items) ctx.defineSeq(dst, items, ctx.value(src).dtype, ctx.value(src).optional);
  else ctx.emit('Identity', [src], [dst], {});
}

function graphAttr(n, k) {
  const a = n.attrs[k];
  if (!a || a.type !== 'graph' || !a.value) throw new Unsupported(`required subgraph attribute '${k}' is missing`);
  return a.value;
}

/** x with a new axis of length 1 at `axis` (a Reshape when x's shape is known, as Unsqueeze's normalizer does). */
function unsqueeze(ctx, x, axis, hint) {
  const xs = ctx.shape(x);
  const axes = ctx.constI64(`${hint}_axes`, [axis]);
  const ys = xs ? [...xs.slice(0, axis), 1, ...xs.slice(axis)] : null;
  const t = reshapeTarget(xs, ys);
  const [y] = t && !ctx.isConst(x)
    ? ctx.emit('Reshape', [x, ctx.constI64(`${hint}_shape`, t)], [ctx.tmp(hint)], { allowzero: A.int(0) })
    : ctx.emit('Unsqueeze', [x, axes], [ctx.tmp(hint)], {});
  return y;
}

/** The per-iteration values `parts` stacked along a new axis `axis` (Scan and Loop scan outputs). */
function stack(ctx, parts, axis, dst) {
  const ups = parts.map((p, k) => unsqueeze(ctx, p, axis, `${dst}_it${k}`));
  if (ups.length === 1) ctx.emit('Identity', ups, [dst], {});
  else ctx.emit('Concat', ups, [dst], { axis: A.int(axis) });
}

/** An inlining that cannot be done exactly here: the caller emits the construct instead. */
class CannotInline extends Unsupported {}

/** Select between two branches' outputs on a runtime condition, after checking both are safe to compute. */
function selectBranches(ctx, n, cond0, t, e, emitted) {
  const bad = emitted.find((nd) => nd.graphs || MAY_FAIL.has(nd.op) || (['Div', 'Mod'].includes(nd.op) && ctx.value(nd.outputs[0]).dtype !== DT.f32 && ctx.value(nd.outputs[0]).dtype !== DT.f64));
  if (bad)
    throw new CannotInline(`the condition '${cond0}' is known only at run time and a branch holds ${bad.op} (${bad.name}), which can fail on values the untaken branch would read; hologram-exec computes both branches of such an If and selects (control flow in the format is not implemented)`);
  // a condition of one element in any shape ([1] is common) is a scalar, so
  // that Where's broadcast leaves each output's shape the branch's
  const cs = ctx.shape(cond0);
  if (!cs || !cs.every((d) => d === 1)) throw new CannotInline(`the condition '${cond0}' must have one element, its shape is ${JSON.stringify(cs)}`);
  const cond = cs && cs.length ? ctx.reshapeTo(cond0, []) : cond0;
  n.outputs.forEach((o, k) => {
    if (!o) return;
    if (ctx.seq(t[k]) || ctx.seq(e[k]) || isList(ctx.value(t[k])) || isList(ctx.value(e[k]))) throw new CannotInline(`output ${k} is a sequence or optional chosen at run time: the If runs as a construct`);
    const a = ctx.value(t[k]), b = ctx.value(e[k]);
    if (a.dtype !== b.dtype) throw new Unsupported(`output ${k}: the branches give dtypes ${a.dtype} and ${b.dtype}`);
    if (!a.shape || !b.shape || JSON.stringify(a.shape) !== JSON.stringify(b.shape))
      throw new CannotInline(`output ${k}: the branches' shapes ${JSON.stringify(a.shape)} and ${JSON.stringify(b.shape)} are not one known shape, which a select of both branches needs (the condition is known only at run time)`);
    ctx.emit('Where', [cond, t[k], e[k]], [o], {});
  });
}

const OPS = Object.create(null);

/** A fresh symbolic dim per call (a dim the converter cannot tell across branches or iterations). */
function symbols(ctx, tag) {
  const fresh = new Set();
  const mk = () => { const s = ctx.tmp(`${tag}_dim`); fresh.add(s); return s; };
  return { fresh, mk };
}

/** The shape both `a` and `b` have: equal dims kept, the others symbols; null when the ranks differ or one is unknown. */
function mergeShapes(a, b, mk) {
  if (!a || !b || a.length !== b.length) return null;
  return a.map((d, k) => (d === b[k] ? d : mk()));
}

/** Does declared shape `decl` (with `fresh` symbols standing for any dim) admit `got`? */
function admits(decl, got, fresh) {
  if (decl === null) return true;
  if (!got || got.length !== decl.length) return false;
  return decl.every((d, k) => d === got[k] || (typeof d === 'string' && fresh.has(d)));
}

/** An output name for each of `count` construct outputs: the node's, or a fresh one where it is absent. */
function outNames(ctx, n, count, tag) {
  return Array.from({ length: count }, (_, k) => n.outputs[k] || ctx.tmp(`${tag}/out${k}`));
}

/** If as a construct: only the taken branch runs at run time (the branches may differ in shape, and fail). */
function ifConstruct(ctx, n, thenG, elseG, tag) {
  const cond = n.inputs[0];
  if (ctx.seq(cond) || isList(ctx.value(cond))) throw new Unsupported('the condition is a sequence or optional');
  const t = subgraph(ctx, 'then_branch', thenG, [], `${tag}/then`);
  const e = subgraph(ctx, 'else_branch', elseG, [], `${tag}/else`);
  if (t.outputs.length !== e.outputs.length) throw new Unsupported(`the branches give ${t.outputs.length} and ${e.outputs.length} outputs`);
  if (t.outputs.length < n.outputs.length) throw new Unsupported(`the branches give ${t.outputs.length} outputs for ${n.outputs.length}`);
  const { mk } = symbols(ctx, tag);
  const names = outNames(ctx, n, t.outputs.length, tag);
  const outs = t.outputs.map((o, k) => {
    const a = ctx.value(o), b = ctx.value(e.outputs[k]);
    if (a.dtype !== b.dtype) throw new Unsupported(`output ${k}: the branches give dtypes ${a.dtype} and ${b.dtype}`);
    if (isList(a)) return { name: names[k], dtype: a.dtype, shape: null, list: a.list?.elem ? a.list : b.list };
    return { name: names[k], dtype: a.dtype, shape: mergeShapes(a.shape, b.shape, mk) };
  });
  emitControl(ctx, 'If', n.name, [cond], [t, e], outs);
}

OPS.If = {
  attrs: ['then_branch', 'else_branch'],
  graphAttrs: ['then_branch', 'else_branch'],
  norm(ctx, n) {
    const thenG = graphAttr(n, 'then_branch'), elseG = graphAttr(n, 'else_branch');
    const cond = n.inputs[0];
    const c = scalarConst(ctx, cond);
    const tag = n.name || n.outputs[0];
    if (c !== undefined) {
      const outs = ctx.inlineGraph(c ? thenG : elseG, [], `${tag}/${c ? 'then' : 'else'}`);
      if (outs.length < n.outputs.length) throw new Unsupported(`the branch gives ${outs.length} outputs for ${n.outputs.length}`);
      n.outputs.forEach((o, k) => bindOut(ctx, outs[k], o));
      return;
    }
    const before = ctx.emitted().length;
    try {
      const t = ctx.inlineGraph(thenG, [], `${tag}/then`);
      const e = ctx.inlineGraph(elseG, [], `${tag}/else`);
      if (t.length < n.outputs.length || e.length < n.outputs.length) throw new Unsupported(`a branch gives fewer than ${n.outputs.length} outputs`);
      selectBranches(ctx, n, cond, t, e, ctx.emitted().slice(before));
    } catch (err) {
      if (!(err instanceof CannotInline)) throw err;
      ctx.truncate(before);
      ifConstruct(ctx, n, thenG, elseG, tag);
    }
  },
};

/** A Loop's trip count and whether its condition is read, from its M and cond inputs; null when either is known only at run time. */
function loopBounds(ctx, n) {
  const [m, cond] = n.inputs;
  const M = m ? scalarConst(ctx, m) : null;
  const c0 = cond ? scalarConst(ctx, cond) : null;
  if (!m && !cond) throw new Unsupported('neither a trip count nor a condition: the loop never ends');
  if (M === undefined || c0 === undefined) return null;
  const trips = M === null ? Infinity : Number(M);
  return { trips: trips < 0 ? 0 : trips, useCond: c0 !== null, c0: c0 === null ? 1 : Number(c0) };
}

/** The loop unrolled into the emitted nodes; CannotInline when its condition or size does not allow it. */
function unrollLoop(ctx, n, body, { trips, useCond, c0 }, nCarried, nScan, tag) {
  let carried = n.inputs.slice(2), cond = c0;
  const scans = Array.from({ length: nScan }, () => []);
  const base = ctx.emitted().length;
  for (let i = 0; i < trips && (!useCond || cond); i++) {
    if (i >= MAX_UNROLL) throw new CannotInline(`more than ${MAX_UNROLL} iterations`);
    if (ctx.emitted().length - base > MAX_UNROLLED_NODES) throw new CannotInline(`more than ${MAX_UNROLLED_NODES} nodes`);
    const iter = ctx.constScalar(`${tag}_iter${i}`, DT.i64, i);
    const condIn = ctx.constRaw(`${tag}_cond${i}`, DT.bool, [], writeElems(DT.bool, [cond ? 1 : 0]));
    const outs = ctx.inlineGraph(body, [iter, condIn, ...carried], `${tag}/it${i}`);
    if (useCond) {
      const c = scalarConst(ctx, outs[0]);
      if (c === undefined) throw new CannotInline('the condition is known only at run time');
      cond = Number(c);
    }
    carried = outs.slice(1, 1 + nCarried);
    outs.slice(1 + nCarried).forEach((s, k) => scans[k].push(s));
  }
  scans.forEach((parts, k) => {
    if (n.outputs[nCarried + k] && !parts.length) {
      const vi = body.outputs[1 + nCarried + k];
      if (!vi.shape || !isConcrete(vi.shape)) throw new CannotInline('zero iterations and no declared scan shape');
    }
  });
  carried.forEach((v, k) => bindOut(ctx, v, n.outputs[k]));
  scans.forEach((parts, k) => {
    const dst = n.outputs[nCarried + k];
    if (!dst) return;
    if (parts.length) return stack(ctx, parts, 0, dst);
    emptyScan(ctx, body.outputs[1 + nCarried + k], dst);
  });
}

/**
 * The body built with its carried values' shapes at a fixed point: first
 * the initial values' shapes; where an iteration's output does not fit,
 * the dims that differ become symbols, then the whole shape unknown, so a
 * shape the body changes per iteration is never folded as the first one.
 */
function loopBody(ctx, make, cond, init, nCarried, tag) {
  const { fresh, mk } = symbols(ctx, tag);
  let decl = [{ dtype: DT.i64, shape: [] }, { dtype: DT.bool, shape: cond ? ctx.shape(cond) : [] },
    ...init.map((x) => ({ dtype: ctx.value(x).dtype, shape: isList(ctx.value(x)) ? null : ctx.shape(x), list: ctx.value(x).list }))];
  for (let attempt = 0; ; attempt++) {
    const g = make(decl);
    if (g.outputs.length < 1 + nCarried) throw new Unsupported(`the body gives ${g.outputs.length} outputs for ${nCarried} loop-carried values (+ 1)`);
    const next = [...decl];
    let stable = true;
    const wrap = [];
    g.outputs.slice(0, 1 + nCarried).forEach((o, k) => {
      const v = ctx.value(o), d = decl[1 + k];
      const what = k ? `loop-carried value ${k - 1}` : 'the condition';
      // an optional sequence in, a sequence out (as onnxruntime takes it):
      // the body wraps it, so every iteration carries an optional
      if (d.dtype === OPT && v.dtype === SEQ && d.list?.elemSeq) { wrap.push(k - 1); return; }
      if (v.dtype !== d.dtype) throw new Unsupported(`${what} enters the body as dtype ${d.dtype} and leaves it as ${v.dtype}`);
      if (admits(d.shape, v.shape, fresh)) return;
      stable = false;
      next[1 + k] = { dtype: d.dtype, shape: attempt ? null : (v.shape && d.shape && v.shape.length === d.shape.length ? d.shape.map((x, j) => (x === v.shape[j] ? x : mk())) : null) };
    });
    if (stable) return { g, decl, mk, wrap };
    decl = next;
  }
}

/**
 * Zero iterations stack nothing: the runtime gives a scan output the shape
 * its body value declares (docs/holo-format.md §4a). Where inference cannot
 * tell that shape, the model's declaration of the body output is the one
 * onnxruntime uses; it goes on the body's own value (nothing else reads a
 * nested value's declared shape).
 */
function declareScanShapes(ctx, g, declared, from) {
  const own = new Set(g.nodes.flatMap((nd) => nd.outputs));
  declared.forEach((vi, k) => {
    const v = ctx.value(g.outputs[from + k]);
    if (own.has(v.name) && !isConcrete(v.shape) && vi?.shape && isConcrete(vi.shape)) v.shape = [...vi.shape];
  });
}

/** Loop as a construct: the body iterates at run time (trip count and condition read then). */
function loopConstruct(ctx, n, body, nCarried, nScan, tag) {
  const [m, cond] = n.inputs;
  const init = n.inputs.slice(2);
  // a tracked sequence carried at run time is made a run-time value (compiler/seq-values.js)
  for (const [k, x] of init.entries()) if (ctx.seq(x)) init[k] = runtimeValue(ctx, x);
  if (m && ctx.value(m).dtype !== DT.i64) throw new Unsupported(`the trip count '${m}' is of dtype ${ctx.value(m).dtype}, not int64`);
  if (cond && ctx.value(cond).dtype !== DT.bool) throw new Unsupported(`the condition '${cond}' is of dtype ${ctx.value(cond).dtype}, not bool`);
  const make = (decl) => subgraph(ctx, 'body', body, decl, `${tag}/body`);
  const { g, decl, mk, wrap } = loopBody(ctx, make, cond, init, nCarried, tag);
  if (g.outputs.length !== 1 + nCarried + nScan) throw new Unsupported(`the body gives ${g.outputs.length} outputs, ${1 + nCarried + nScan} expected`);
  const M = m ? scalarConst(ctx, m) : undefined;
  const trips = M !== undefined && M !== null && !cond ? Math.max(0, Number(M)) : mk();
  const names = outNames(ctx, n, nCarried + nScan, tag);
  for (const k of wrap) {
    const o = g.outputs[1 + k], list = decl[2 + k].list;
    const { result, nodes } = ctx.collect(() => emitList(ctx, 'Optional', [o], ctx.tmp(`${o}_opt`), {}, OPT, list));
    g.nodes.push(...nodes);
    g.outputs[1 + k] = result;
    names[k] = ctx.tmp(`${tag}/opt${k}`);
  }
  const outs = names.map((name, k) => {
    if (k < nCarried) return { name, ...decl[2 + k] };
    const v = ctx.value(g.outputs[1 + k]);
    return { name, dtype: v.dtype, shape: v.shape ? [trips, ...v.shape] : null };
  });
  declareScanShapes(ctx, g, body.outputs.slice(1 + nCarried), 1 + nCarried);
  emitControl(ctx, 'Loop', n.name, [m || '', cond || '', ...init], [g], outs);
  // the model reads a wrapped value as the sequence its body made
  for (const k of wrap) if (n.outputs[k]) emitList(ctx, 'OptionalGetElement', [names[k]], n.outputs[k], {}, SEQ, { elem: decl[2 + k].list.elem, elemSeq: false });
}

OPS.Loop = {
  attrs: ['body'],
  graphAttrs: ['body'],
  in0Optional: true,
  norm(ctx, n) {
    const body = graphAttr(n, 'body');
    const nCarried = n.inputs.length - 2;
    if (nCarried < 0) throw new Unsupported(`Loop takes (M, cond, carried...), has ${n.inputs.length} inputs`);
    if (body.inputs.length !== nCarried + 2) throw new Unsupported(`the body declares ${body.inputs.length} inputs for ${nCarried} loop-carried values (+ 2)`);
    const nScan = body.outputs.length - 1 - nCarried;
    if (nScan < 0) throw new Unsupported(`the body gives ${body.outputs.length} outputs for ${nCarried} loop-carried values (+ 1)`);
    const tag = n.name || n.outputs[0];
    const bounds = loopBounds(ctx, n);
    const before = ctx.emitted().length;
    if (bounds) {
      try {
        return unrollLoop(ctx, n, body, bounds, nCarried, nScan, tag);
      } catch (err) {
        if (!(err instanceof CannotInline)) throw err;
        ctx.truncate(before);
      }
    }
    loopConstruct(ctx, n, body, nCarried, nScan, tag);
  },
};

/** A zero-iteration scan output: [0, ...] of the body output's declared dtype and shape. */
function emptyScan(ctx, vi, dst) {
  if (!vi.shape || !isConcrete(vi.shape)) throw new Unsupported(`zero iterations: scan output '${vi.name}' needs a declared static shape in the body`);
  const shape = [0, ...vi.shape];
  ctx.defineConst(dst, vi.dtype, shape, new Uint8Array(numel(shape)));
}

/**
 * Runs a Scan body over the length-L axes of `scanIns` (directions `dirs`),
 * states carried from `states`: { states, outs } with outs[k] the
 * per-iteration values of scan output k, in iteration order.
 */
function scanIterations(ctx, body, states, scanIns, axes, dirs, tag) {
  const lens = scanIns.map((x, j) => ctx.shape(x)[axes[j]]);
  const L = lens[0];
  if (typeof L !== 'number' || lens.some((d) => d !== L)) throw new Unsupported(`the scan inputs' lengths ${JSON.stringify(lens)} are not one number known at convert time`);
  if (L === 0) throw new Unsupported('a Scan over zero iterations is not supported');
  if (L > MAX_UNROLL) throw new Unsupported(`the scan runs ${L} iterations, more than the unroll bound ${MAX_UNROLL}`);
  const nState = states.length;
  const outs = Array.from({ length: body.outputs.length - nState }, () => []);
  for (let t = 0; t < L; t++) {
    const slices = scanIns.map((x, j) => {
      const idx = ctx.constScalar(`${tag}_t${t}_${j}`, DT.i64, dirs[j] ? L - 1 - t : t);
      return ctx.emit('Gather', [x, idx], [ctx.tmp(`${tag}/it${t}/in${j}`)], { axis: A.int(axes[j]) })[0];
    });
    const r = ctx.inlineGraph(body, [...states, ...slices], `${tag}/it${t}`);
    states = r.slice(0, nState);
    r.slice(nState).forEach((v, k) => outs[k].push(v));
  }
  return { states, outs };
}

/** Input x's axes `axes` (negative from the end), checked against its known rank. */
function scanAxes(ctx, xs, given) {
  return xs.map((x, j) => {
    const s = ctx.shape(x);
    if (!s) throw new Unsupported(`scan input '${x}' has an unknown rank`);
    return given[j] < 0 ? given[j] + s.length : given[j];
  });
}

/** Scan-8: batch axis 0 on every input and output, time axis 1; each batch entry scanned on its own. */
function scan8(ctx, n, body) {
  const [lens, ...rest] = n.inputs;
  const m = attr(n, 'num_scan_inputs', -1);
  const nState = rest.length - m;
  if (m < 1 || nState < 0) throw new Unsupported(`num_scan_inputs ${m} does not fit ${rest.length} inputs`);
  const dirs = attr(n, 'directions', Array(m).fill(0));
  const scanIns = rest.slice(nState);
  const B = ctx.shape(scanIns[0])?.[0];
  if (typeof B !== 'number') throw new Unsupported('the batch size is not known at convert time');
  if (lens) {
    const T = ctx.shape(scanIns[0])?.[1];
    const v = ctx.isConst(lens) ? readElems(ctx.value(lens).dtype, ctx.value(lens).bytes).map(Number) : null;
    if (!v || v.some((x) => x !== T)) throw new Unsupported('sequence_lens other than the full length of every batch entry is not supported');
  }
  const tag = n.name || n.outputs[0];
  const per = [];
  for (let b = 0; b < B; b++) {
    const idx = ctx.constScalar(`${tag}_b${b}`, DT.i64, b);
    const pick = (x, k) => ctx.emit('Gather', [x, idx], [ctx.tmp(`${tag}/b${b}/${k}`)], { axis: A.int(0) })[0];
    const xs = scanIns.map(pick);
    per.push(scanIterations(ctx, body, rest.slice(0, nState).map(pick), xs, scanAxes(ctx, xs, Array(m).fill(0)), dirs, `${tag}/b${b}`));
  }
  for (let k = 0; k < nState; k++) if (n.outputs[k]) stack(ctx, per.map((p) => p.states[k]), 0, n.outputs[k]);
  per[0].outs.forEach((_, k) => {
    const dst = n.outputs[nState + k];
    if (!dst) return;
    const rows = per.map((p, b) => { const t = ctx.tmp(`${dst}_b${b}`); stack(ctx, p.outs[k], 0, t); return t; });
    stack(ctx, rows, 0, dst);
  });
}

/** The scan length: a constant when the shapes tell it, else read at run time from scan input 0 (an i64 scalar). */
function scanLength(ctx, scanIns, axes, tag) {
  const lens = scanIns.map((x, j) => ctx.shape(x)[axes[j]]);
  // one number or one symbol (the runtime binds a symbol to one dim across
  // the inputs): input 0's length is then every input's, as Scan requires
  if (lens.some((d) => d !== lens[0] || d === null || d === undefined))
    throw new Unsupported(`the scan inputs' lengths ${JSON.stringify(lens)} are not one length known to be equal (a number or one symbol)`);
  if (typeof lens[0] === 'number') return ctx.constScalar(`${tag}_len`, DT.i64, lens[0]);
  const [shp] = ctx.emit('Shape', [scanIns[0]], [ctx.tmp(`${tag}_dims`)], { start: A.int(0) });
  return ctx.emit('Gather', [shp, ctx.constScalar(`${tag}_axis`, DT.i64, axes[0])], [ctx.tmp(`${tag}_len`)], { axis: A.int(0) })[0];
}

/** A Loop's stacked scan output [L, d...] as Scan's output k: reversed along the scan axis when asked, that axis moved to `ax`. */
function placeScanOutput(ctx, y, ax, reverse, dst) {
  const r = ctx.shape(y)?.length;
  if (reverse) {
    const ins = [y, ctx.constI64(`${dst}_rs`, [-1]), ctx.constI64(`${dst}_re`, [-(2n ** 63n)]), ctx.constI64(`${dst}_ra`, [0]), ctx.constI64(`${dst}_rst`, [-1])];
    [y] = ctx.emit('Slice', ins, [ax === 0 ? dst : ctx.tmp(`${dst}_rev`)], {});
  }
  if (ax !== 0) {
    if (r === undefined) throw new Unsupported(`scan output '${dst}' has an unknown rank and scan_output_axes ${ax}`);
    const perm = Array.from({ length: r }, (_, d) => (d < ax ? d + 1 : d === ax ? 0 : d));
    ctx.emit('Transpose', [y], [dst], { perm: A.ints(perm) });
  } else if (!reverse) ctx.emit('Identity', [y], [dst], {});
}

/**
 * Scan (opset 9+) over a length the converter cannot unroll (known only at
 * run time, zero, or over the unroll bound), lowered onto the Loop
 * construct: trip count L, the states carried, iteration t reading slice t
 * (or L-1-t) of each scan input, the Loop's scan outputs placed as Scan's.
 */
function scanLoop(ctx, n, body, nState, scanIns, axes, dirs, outAxes, outDirs, tag) {
  const states0 = n.inputs.slice(0, nState);
  for (const x of [...states0, ...scanIns]) if (ctx.seq(x)) throw new Unsupported(`'${x}' is a sequence (sequences exist only at convert time)`);
  const L = scanLength(ctx, scanIns, axes, tag);
  const last = dirs.some(Boolean) ? ctx.emit('Sub', [L, ctx.constScalar(`${tag}_one`, DT.i64, 1)], [ctx.tmp(`${tag}_last`)], {})[0] : null;
  const make = (decl) => buildGraph(ctx, 'body', decl, ['iter', 'cond', ...body.inputs.slice(0, nState).map((i) => i.name)], `${tag}/body`, ([it, c, ...st]) => {
    const slices = scanIns.map((x, j) => {
      const idx = dirs[j] ? ctx.emit('Sub', [last, it], [ctx.tmp(`${tag}/idx${j}`)], {})[0] : it;
      return ctx.emit('Gather', [x, idx], [ctx.tmp(`${tag}/in${j}`)], { axis: A.int(axes[j]) })[0];
    });
    return [c, ...ctx.inlineGraph(body, [...st, ...slices], `${tag}/body`)];
  });
  const { g, decl, mk } = loopBody(ctx, make, null, states0, nState, tag);
  const nOut = g.outputs.length - 1 - nState;
  const lenC = ctx.isConst(L) ? Number(readElems(DT.i64, ctx.value(L).bytes)[0]) : mk();
  const stacked = Array.from({ length: nOut }, (_, k) => ctx.tmp(`${tag}/stack${k}`));
  const outs = [...outNames(ctx, n, nState, tag).map((name, k) => ({ name, ...decl[2 + k] })),
    ...stacked.map((name, k) => { const v = ctx.value(g.outputs[1 + nState + k]); return { name, dtype: v.dtype, shape: v.shape ? [lenC, ...v.shape] : null }; })];
  declareScanShapes(ctx, g, body.outputs.slice(nState), 1 + nState);
  emitControl(ctx, 'Loop', n.name, [L, '', ...states0], [g], outs);
  stacked.forEach((y, k) => {
    const dst = n.outputs[nState + k];
    if (!dst) return;
    const r = ctx.shape(y)?.length;
    const ax = outAxes[k] < 0 && r !== undefined ? outAxes[k] + r : outAxes[k];
    placeScanOutput(ctx, y, ax, !!outDirs[k], dst);
  });
}

/** Scan (opset 9+): per-iteration slices of the scan inputs along their axes, states carried, outputs stacked. */
OPS.Scan = {
  attrs: ['body', 'num_scan_inputs', 'directions', 'scan_input_axes', 'scan_input_directions', 'scan_output_axes', 'scan_output_directions'],
  graphAttrs: ['body'],
  in0Optional: true,
  norm(ctx, n) {
    const body = graphAttr(n, 'body');
    if (ctx.opset < 9) return scan8(ctx, n, body);
    if (n.attrs.directions) throw new Unsupported(`attribute 'directions' is Scan-8's (opset ${ctx.opset} has scan_input_directions)`);
    const m = attr(n, 'num_scan_inputs', -1);
    const nState = n.inputs.length - m;
    if (m < 1 || nState < 0) throw new Unsupported(`num_scan_inputs ${m} does not fit ${n.inputs.length} inputs`);
    const nOut = body.outputs.length - nState;
    const inAxes = attr(n, 'scan_input_axes', Array(m).fill(0)), inDirs = attr(n, 'scan_input_directions', Array(m).fill(0));
    const outAxes = attr(n, 'scan_output_axes', Array(nOut).fill(0)), outDirs = attr(n, 'scan_output_directions', Array(nOut).fill(0));
    const scanIns = n.inputs.slice(nState);
    const tag = n.name || n.outputs[0];
    const axes = scanAxes(ctx, scanIns, inAxes);
    const L = ctx.shape(scanIns[0])[axes[0]];
    if (L === 0) throw new Unsupported('a Scan over zero iterations is not supported (onnxruntime refuses it)');
    if (typeof L !== 'number' || L > MAX_UNROLL) return scanLoop(ctx, n, body, nState, scanIns, axes, inDirs, outAxes, outDirs, tag);
    const { states, outs } = scanIterations(ctx, body, n.inputs.slice(0, nState), scanIns, scanAxes(ctx, scanIns, inAxes), inDirs, tag);
    states.forEach((v, k) => bindOut(ctx, v, n.outputs[k]));
    outs.forEach((parts, k) => {
      const dst = n.outputs[nState + k];
      if (!dst) return;
      const r = ctx.shape(parts[0])?.length;
      if (r === undefined) throw new Unsupported(`scan output ${k} has an unknown rank`);
      const ax = outAxes[k] < 0 ? outAxes[k] + r + 1 : outAxes[k];
      stack(ctx, outDirs[k] ? [...parts].reverse() : parts, ax, dst);
    });
  },
};

export const CONTROL_OPS = OPS;
