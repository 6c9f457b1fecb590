// Control flow: If, Loop and Scan, by inlining their subgraphs at convert
// time (docs/decisions.md 41). The archive format has no nested graphs: an If
// whose condition folds runs its taken branch only; an If on a runtime
// condition computes both branches and selects with Where, only where both
// are safe to compute whatever the condition (no op that can fail on the
// values it reads) and give outputs of one dtype and one known shape; a Loop
// whose trip count (and condition) fold is unrolled, up to MAX_UNROLL
// iterations; a Scan over a known sequence length is unrolled (Scan-8:
// per batch entry). Anything else
// is refused, saying why. Unrolled iterations are ordinary nodes, so each
// iteration's values are labelled from their operands as every value is.
import { A, attr, DT, readElems, isConcrete, Unsupported, writeElems, numel } from './ir.js';
import { reshapeTarget } from './onnx-ops.js';

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

/** Select between two branches' outputs on a runtime condition, after checking both are safe to compute. */
function selectBranches(ctx, n, cond0, t, e, emitted) {
  const bad = emitted.find((nd) => MAY_FAIL.has(nd.op) || (['Div', 'Mod'].includes(nd.op) && ctx.value(nd.outputs[0]).dtype !== DT.f32 && ctx.value(nd.outputs[0]).dtype !== DT.f64));
  if (bad)
    throw new Unsupported(`the condition '${cond0}' is known only at run time and a branch holds ${bad.op} (${bad.name}), which can fail on values the untaken branch would read; hologram-exec computes both branches of such an If and selects (control flow in the format is not implemented)`);
  // a condition of one element in any shape ([1] is common) is a scalar, so
  // that Where's broadcast leaves each output's shape the branch's
  const cs = ctx.shape(cond0);
  if (!cs || !cs.every((d) => d === 1)) throw new Unsupported(`the condition '${cond0}' must have one element, its shape is ${JSON.stringify(cs)}`);
  const cond = cs && cs.length ? ctx.reshapeTo(cond0, []) : cond0;
  n.outputs.forEach((o, k) => {
    if (!o) return;
    if (ctx.seq(t[k]) || ctx.seq(e[k])) throw new Unsupported(`output ${k} is a sequence chosen at run time (sequences exist only at convert time)`);
    const a = ctx.value(t[k]), b = ctx.value(e[k]);
    if (a.dtype !== b.dtype) throw new Unsupported(`output ${k}: the branches give dtypes ${a.dtype} and ${b.dtype}`);
    if (!a.shape || !b.shape || JSON.stringify(a.shape) !== JSON.stringify(b.shape))
      throw new Unsupported(`output ${k}: the branches' shapes ${JSON.stringify(a.shape)} and ${JSON.stringify(b.shape)} are not one known shape, which a select of both branches needs (the condition is known only at run time)`);
    ctx.emit('Where', [cond, t[k], e[k]], [o], {});
  });
}

const OPS = Object.create(null);

OPS.If = {
  attrs: ['then_branch', 'else_branch'],
  graphAttrs: ['then_branch', 'else_branch'],
  norm(ctx, n) {
    const thenG = graphAttr(n, 'then_branch'), elseG = graphAttr(n, 'else_branch');
    const cond = n.inputs[0];
    const c = scalarConst(ctx, cond);
    if (c !== undefined) {
      const outs = ctx.inlineGraph(c ? thenG : elseG, [], `${n.name || n.outputs[0]}/${c ? 'then' : 'else'}`);
      if (outs.length < n.outputs.length) throw new Unsupported(`the branch gives ${outs.length} outputs for ${n.outputs.length}`);
      n.outputs.forEach((o, k) => bindOut(ctx, outs[k], o));
      return;
    }
    const before = ctx.emitted().length;
    const t = ctx.inlineGraph(thenG, [], `${n.name || n.outputs[0]}/then`);
    const e = ctx.inlineGraph(elseG, [], `${n.name || n.outputs[0]}/else`);
    if (t.length < n.outputs.length || e.length < n.outputs.length) throw new Unsupported(`a branch gives fewer than ${n.outputs.length} outputs`);
    selectBranches(ctx, n, cond, t, e, ctx.emitted().slice(before));
  },
};

/** A Loop's trip count and whether its condition is read, from its (constant) M and cond inputs. */
function loopBounds(ctx, n) {
  const [m, cond] = n.inputs;
  const M = m ? scalarConst(ctx, m) : null;
  if (M === undefined) throw new Unsupported(`the trip count '${m}' is known only at run time; hologram-exec unrolls a Loop whose trip count folds at convert time (a loop in the format is not implemented)`);
  const c0 = cond ? scalarConst(ctx, cond) : null;
  if (c0 === undefined) throw new Unsupported(`the initial condition '${cond}' is known only at run time (a loop in the format is not implemented)`);
  if (M === null && c0 === null) throw new Unsupported('neither a trip count nor a condition: the loop never ends');
  const trips = M === null ? Infinity : Number(M);
  return { trips: trips < 0 ? 0 : trips, useCond: c0 !== null, c0: c0 === null ? 1 : Number(c0) };
}

OPS.Loop = {
  attrs: ['body'],
  graphAttrs: ['body'],
  in0Optional: true,
  norm(ctx, n) {
    const body = graphAttr(n, 'body');
    const { trips, useCond, c0 } = loopBounds(ctx, n);
    const nCarried = n.inputs.length - 2;
    if (body.inputs.length !== nCarried + 2) throw new Unsupported(`the body declares ${body.inputs.length} inputs for ${nCarried} loop-carried values (+ 2)`);
    const nScan = body.outputs.length - 1 - nCarried;
    if (nScan < 0) throw new Unsupported(`the body gives ${body.outputs.length} outputs for ${nCarried} loop-carried values (+ 1)`);
    let carried = n.inputs.slice(2), cond = c0;
    const scans = Array.from({ length: nScan }, () => []);
    const base = ctx.emitted().length;
    const tag = n.name || n.outputs[0];
    for (let i = 0; i < trips && (!useCond || cond); i++) {
      if (i >= MAX_UNROLL) throw new Unsupported(`the loop runs more than ${MAX_UNROLL} iterations, the unroll bound (a loop in the format is not implemented)`);
      if (ctx.emitted().length - base > MAX_UNROLLED_NODES) throw new Unsupported(`the unrolled loop exceeds ${MAX_UNROLLED_NODES} nodes after ${i} iterations`);
      const iter = ctx.constScalar(`${tag}_iter${i}`, DT.i64, i);
      const condIn = ctx.constRaw(`${tag}_cond${i}`, DT.bool, [], writeElems(DT.bool, [cond ? 1 : 0]));
      const outs = ctx.inlineGraph(body, [iter, condIn, ...carried], `${tag}/it${i}`);
      if (useCond) {
        const c = scalarConst(ctx, outs[0]);
        if (c === undefined) throw new Unsupported(`the condition the body computes ('${body.outputs[0].name}', iteration ${i}) is known only at run time; hologram-exec unrolls a Loop whose condition folds (a loop in the format is not implemented)`);
        cond = Number(c);
      }
      carried = outs.slice(1, 1 + nCarried);
      outs.slice(1 + nCarried).forEach((s, k) => scans[k].push(s));
    }
    carried.forEach((v, k) => bindOut(ctx, v, n.outputs[k]));
    scans.forEach((parts, k) => {
      const dst = n.outputs[nCarried + k];
      if (!dst) return;
      if (parts.length) return stack(ctx, parts, 0, dst);
      emptyScan(ctx, body.outputs[1 + nCarried + k], dst);
    });
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
