// Sequence and Optional ops, resolved at convert time where they fold
// (docs/decisions.md 41): a sequence is a list of tensor values the converter
// tracks (ctx.defineSeq) while every position and split folds to a constant,
// and what reaches the archive is the tensors' own nodes (Identity, Slice,
// Unsqueeze/Reshape, Concat). Where a sequence must exist at run time (a graph
// input or output, a position known only then, a value a construct carries),
// the op is the backend's sequence kernel over a value of dtype SEQ or OPT
// (compiler/seq-values.js, docs/decisions.md 63).
import { A, attr, DT, readElems, Unsupported, writeElems } from './ir.js';
import { reshapeTarget } from './onnx-ops.js';
import { emitList, isList, OPT, runtimeValue, SEQ } from './seq-values.js';

const OPS = Object.create(null);

function seqOf(ctx, name) {
  const items = ctx.seq(name);
  if (!items || ctx.value(name).optional) throw new Unsupported(`'${name}' is not a sequence`);
  return items;
}

/** True when `name` is a sequence known at run time only (a SEQ value). */
const atRuntime = (ctx, name) => !ctx.seq(name) && ctx.value(name).dtype === SEQ;
/** True when the op folds: its sequence is tracked and `pos` (if given) is a constant. */
const folds = (ctx, sq, pos) => !!ctx.seq(sq) && !ctx.value(sq).optional && (!pos || ctx.isConst(pos));

function runtimeSeqIn(ctx, name) {
  const v = ctx.value(name);
  if (ctx.seq(name) ? v.optional : v.dtype !== SEQ) throw new Unsupported(`'${name}' is not a sequence`);
  return runtimeValue(ctx, name);
}
function tensorIn(ctx, name) {
  if (ctx.seq(name) || isList(ctx.value(name))) throw new Unsupported(`'${name}' is a sequence or optional, a tensor is expected (a sequence of sequences is not supported)`);
  return name;
}
const listOf = (ctx, name) => ctx.value(name).list;
/** A run-time tensor output's dtype and shape (the converter cannot infer what a sequence holds). */
function setOut(ctx, y, dtype, shape) {
  const v = ctx.value(y);
  if (v.kind !== 'const') Object.assign(v, { dtype, shape });
}

/** A constant integer scalar input (a position), or `dflt` when absent. */
function position(ctx, name, dflt) {
  if (!name) return dflt;
  if (!ctx.isConst(name)) throw new Unsupported(`the position '${name}' is known only at run time (sequences exist only at convert time)`);
  const v = ctx.value(name);
  const e = readElems(v.dtype, v.bytes);
  if (e.length !== 1) throw new Unsupported(`the position '${name}' has ${e.length} elements`);
  return Number(e[0]);
}

/** A position in [-n, n - 1] (or [-n, n] when `insert`), made non-negative. */
function checkPos(p, n, insert) {
  const hi = insert ? n : n - 1;
  if (p < -n || p > hi) throw new Unsupported(`position ${p} is outside [${-n}, ${hi}] of a sequence of ${n}`);
  return p < 0 ? p + n : p;
}

const dtypeOf = (ctx, items, dflt) => (items.length ? ctx.value(items[0]).dtype : dflt);

// Identity lives here: on a sequence it is the same list under a new name.
OPS.Identity = {
  attrs: [],
  // a sequence (compiler/onnx-ops-seq.js) is the same list under a new name
  norm(ctx, n) {
    const x = ctx.value(n.inputs[0]);
    if (ctx.seq(n.inputs[0])) {
      ctx.defineSeq(n.outputs[0], ctx.seq(n.inputs[0]), x.dtype, x.optional);
      ctx.value(n.outputs[0]).elemSeq = x.elemSeq;
      return;
    }
    ctx.emit('Identity', n.inputs, n.outputs, {});
    // a run-time sequence keeps what it holds (compiler/seq-values.js)
    if (x.list) Object.assign(ctx.value(n.outputs[0]), { dtype: x.dtype, shape: x.shape, list: x.list });
  },
};

OPS.SequenceEmpty = {
  attrs: ['dtype'],
  in0Optional: true,
  norm: (ctx, n) => ctx.defineSeq(n.outputs[0], [], attr(n, 'dtype', DT.f32)),
};
OPS.SequenceConstruct = {
  attrs: [],
  norm(ctx, n) {
    for (const x of n.inputs) tensorIn(ctx, x);
    const dts = new Set(n.inputs.map((x) => ctx.value(x).dtype));
    if (dts.size > 1) throw new Unsupported('the tensors have different dtypes');
    ctx.defineSeq(n.outputs[0], n.inputs, ctx.value(n.inputs[0]).dtype);
  },
};
OPS.SequenceInsert = {
  attrs: [],
  norm(ctx, n) {
    if (!folds(ctx, n.inputs[0], n.inputs[2])) {
      const S = runtimeSeqIn(ctx, n.inputs[0]), t = tensorIn(ctx, n.inputs[1]), l = listOf(ctx, S);
      if (l.elem && ctx.value(t).dtype !== l.elem) throw new Unsupported('the tensor\'s dtype differs from the sequence\'s');
      emitList(ctx, 'SequenceInsert', [S, t, ...(n.inputs[2] ? [n.inputs[2]] : [])], n.outputs[0], {}, SEQ, { elem: ctx.value(t).dtype, elemSeq: false });
      return;
    }
    const items = [...seqOf(ctx, n.inputs[0])];
    const p = checkPos(position(ctx, n.inputs[2], items.length), items.length, true);
    if (items.length && ctx.value(n.inputs[1]).dtype !== ctx.value(items[0]).dtype) throw new Unsupported('the tensor\'s dtype differs from the sequence\'s');
    items.splice(p, 0, tensorIn(ctx, n.inputs[1]));
    ctx.defineSeq(n.outputs[0], items, ctx.value(n.inputs[1]).dtype);
  },
};
OPS.SequenceErase = {
  attrs: [],
  norm(ctx, n) {
    if (!folds(ctx, n.inputs[0], n.inputs[1])) {
      const S = runtimeSeqIn(ctx, n.inputs[0]);
      emitList(ctx, 'SequenceErase', [S, ...(n.inputs[1] ? [n.inputs[1]] : [])], n.outputs[0], {}, SEQ, listOf(ctx, S));
      return;
    }
    const items = [...seqOf(ctx, n.inputs[0])];
    if (!items.length) throw new Unsupported('erase from an empty sequence');
    items.splice(checkPos(position(ctx, n.inputs[1], -1), items.length, false), 1);
    ctx.defineSeq(n.outputs[0], items, ctx.value(n.inputs[0]).dtype);
  },
};
OPS.SequenceAt = {
  attrs: [],
  norm(ctx, n) {
    if (!folds(ctx, n.inputs[0], n.inputs[1])) {
      const S = runtimeSeqIn(ctx, n.inputs[0]);
      setOut(ctx, ctx.emit('SequenceAt', [S, n.inputs[1]], n.outputs, {})[0], listOf(ctx, S).elem || DT.f32, null);
      return;
    }
    const items = seqOf(ctx, n.inputs[0]);
    ctx.emit('Identity', [items[checkPos(position(ctx, n.inputs[1], null), items.length, false)]], n.outputs, {});
  },
};
OPS.SequenceLength = {
  attrs: [],
  norm(ctx, n) {
    if (atRuntime(ctx, n.inputs[0])) {
      setOut(ctx, ctx.emit('SequenceLength', [n.inputs[0]], n.outputs, {})[0], DT.i64, []);
      return;
    }
    ctx.defineConst(n.outputs[0], DT.i64, [], writeElems(DT.i64, [BigInt(seqOf(ctx, n.inputs[0]).length)]));
  },
};

/** Chunk lengths SplitToSequence cuts an axis of length `d` into (split absent: 1s; scalar: equal, the last shorter). */
function chunkLengths(ctx, split, d) {
  if (!split) return Array(d).fill(1);
  if (!ctx.isConst(split)) throw new Unsupported(`the split '${split}' is known only at run time`);
  const v = ctx.value(split);
  const e = readElems(v.dtype, v.bytes).map(Number);
  if (v.shape.length === 0) {
    if (e[0] < 1) throw new Unsupported(`split ${e[0]} must be positive`);
    return Array.from({ length: Math.ceil(d / e[0]) }, (_, k) => Math.min(e[0], d - k * e[0]));
  }
  if (e.some((x) => x < 0) || e.reduce((a, b) => a + b, 0) !== d) throw new Unsupported(`split ${JSON.stringify(e)} does not sum to the axis length ${d}`);
  return e;
}

OPS.SplitToSequence = {
  attrs: ['axis', 'keepdims'],
  norm(ctx, n) {
    const [x, split] = n.inputs;
    const s = ctx.shape(x);
    const axis0 = attr(n, 'axis', 0);
    const d = s ? s[axis0 < 0 ? axis0 + s.length : axis0] : undefined;
    if (!s || typeof d !== 'number' || (split && !ctx.isConst(split))) {
      // the pieces are known only at run time: the kernel cuts them
      const attrs = { axis: A.int(axis0), keepdims: A.int(attr(n, 'keepdims', 1)) };
      emitList(ctx, 'SplitToSequence', [tensorIn(ctx, x), ...(split ? [split] : [])], n.outputs[0], attrs, SEQ, { elem: ctx.value(x).dtype, elemSeq: false });
      return;
    }
    splitStatic(ctx, n);
  },
};

function splitStatic(ctx, n) {
  {
    const [x, split] = n.inputs;
    const s = ctx.shape(x);
    if (!s) throw new Unsupported('the input rank is unknown');
    const axis = attr(n, 'axis', 0) < 0 ? attr(n, 'axis', 0) + s.length : attr(n, 'axis', 0);
    const d = s[axis];
    if (typeof d !== 'number') throw new Unsupported(`the split axis' length '${d}' is known only at run time`);
    const lens = chunkLengths(ctx, split, d);
    const squeeze = !split && attr(n, 'keepdims', 1) === 0;
    const tag = n.outputs[0];
    const axes = ctx.constI64(`${tag}_axes`, [axis]);
    let at = 0;
    const items = lens.map((len, k) => {
      const ins = [x, ctx.constI64(`${tag}_s${k}`, [at]), ctx.constI64(`${tag}_e${k}`, [at + len]), axes];
      at += len;
      const [y] = ctx.emit('Slice', ins, [ctx.tmp(`${tag}_${k}`)], {});
      if (!squeeze) return y;
      const ys = s.filter((_, i) => i !== axis);
      const t = reshapeTarget(ctx.shape(y), ys);
      return t
        ? ctx.emit('Reshape', [y, ctx.constI64(`${tag}_${k}_shape`, t)], [ctx.tmp(`${tag}_${k}_sq`)], { allowzero: A.int(0) })[0]
        : ctx.emit('Squeeze', [y, axes], [ctx.tmp(`${tag}_${k}_sq`)], {})[0];
    });
    ctx.defineSeq(tag, items, ctx.value(x).dtype);
  }
}

OPS.ConcatFromSequence = {
  attrs: ['axis', 'new_axis'],
  norm(ctx, n) {
    if (atRuntime(ctx, n.inputs[0])) {
      if (attr(n, 'axis', null) === null) throw new Unsupported("required attribute 'axis' is missing");
      const attrs = { axis: A.int(attr(n, 'axis', 0)), new_axis: A.int(attr(n, 'new_axis', 0)) };
      setOut(ctx, ctx.emit('ConcatFromSequence', [n.inputs[0]], n.outputs, attrs)[0], listOf(ctx, n.inputs[0]).elem || DT.f32, null);
      return;
    }
    const items = seqOf(ctx, n.inputs[0]);
    if (!items.length) throw new Unsupported('concatenating an empty sequence');
    const r = ctx.shape(items[0])?.length;
    if (r === undefined) throw new Unsupported('the tensors\' rank is unknown');
    const newAxis = attr(n, 'new_axis', 0) === 1;
    const a0 = attr(n, 'axis', null);
    if (a0 === null) throw new Unsupported("required attribute 'axis' is missing");
    const axis = a0 < 0 ? a0 + r + (newAxis ? 1 : 0) : a0;
    const parts = newAxis
      ? items.map((x, k) => {
        const xs = ctx.shape(x);
        const t = reshapeTarget(xs, [...xs.slice(0, axis), 1, ...xs.slice(axis)]);
        const hint = `${n.outputs[0]}_u${k}`;
        return t && !ctx.isConst(x)
          ? ctx.emit('Reshape', [x, ctx.constI64(`${hint}_shape`, t)], [ctx.tmp(hint)], { allowzero: A.int(0) })[0]
          : ctx.emit('Unsqueeze', [x, ctx.constI64(`${hint}_axes`, [axis])], [ctx.tmp(hint)], {})[0];
      })
      : items;
    if (parts.length === 1) ctx.emit('Identity', parts, n.outputs, {});
    else ctx.emit('Concat', parts, n.outputs, { axis: A.int(axis) });
  },
};

// Optional (opset 15+), resolved at convert time like a sequence: an optional
// is a list of zero or one value (ctx.defineSeq with `optional`) -- a tensor,
// or a sequence, tracked or run-time --, so whether it holds an element is
// known here; an optional that is a graph input (or made at run time) is an
// OPT value and the ops are the backend's kernels.
OPS.Optional = {
  attrs: ['type'],
  in0Optional: true,
  norm(ctx, n) {
    const x = n.inputs[0];
    const t = n.attrs.type;
    if (!x && !t) throw new Unsupported("an empty Optional needs its 'type' attribute");
    if (t && (t.type !== 'typeproto' || !t.value)) throw new Unsupported("attribute 'type' must be a tensor type or a sequence of tensors");
    if (x && ctx.seq(x) && ctx.value(x).optional) throw new Unsupported('an optional of an optional is not supported');
    if (x && ctx.value(x).dtype === OPT) throw new Unsupported('an optional of an optional is not supported');
    const xs = x && (ctx.seq(x) || ctx.value(x).dtype === SEQ);
    const dtype = x ? (xs ? (ctx.seq(x) ? ctx.value(x).dtype : ctx.value(x).list.elem) : ctx.value(x).dtype) : t.value;
    ctx.defineSeq(n.outputs[0], x ? [x] : [], dtype, true);
    ctx.value(n.outputs[0]).elemSeq = x ? !!xs : !!t.seq;
  },
};
OPS.OptionalHasElement = {
  attrs: [],
  in0Optional: true,
  norm(ctx, n) {
    const x = n.inputs[0];
    if (x && ctx.value(x).dtype === OPT && !ctx.seq(x)) {
      setOut(ctx, ctx.emit('OptionalHasElement', [x], n.outputs, {})[0], DT.bool, []);
      return;
    }
    const has = !x ? 0 : ctx.seq(x) && ctx.value(x).optional ? ctx.seq(x).length : 1;
    ctx.defineConst(n.outputs[0], DT.bool, [], writeElems(DT.bool, [has]));
  },
};
OPS.OptionalGetElement = {
  attrs: [],
  norm(ctx, n) {
    const x = n.inputs[0];
    const v = ctx.value(x);
    if (v.dtype === OPT && !ctx.seq(x)) {
      const l = v.list;
      if (l.elemSeq) emitList(ctx, 'OptionalGetElement', [x], n.outputs[0], {}, SEQ, { elem: l.elem, elemSeq: false });
      else setOut(ctx, ctx.emit('OptionalGetElement', [x], n.outputs, {})[0], l.elem || DT.f32, null);
      return;
    }
    const items = ctx.seq(x);
    if (items && !v.optional) {
      // opset 18: a sequence is its own element
      ctx.defineSeq(n.outputs[0], items, v.dtype);
      return;
    }
    if (items && !items.length) throw new Unsupported(`the optional '${x}' is empty`);
    const e = items ? items[0] : x;
    if (ctx.seq(e)) ctx.defineSeq(n.outputs[0], ctx.seq(e), ctx.value(e).dtype);
    else if (isList(ctx.value(e))) emitAlias(ctx, e, n.outputs[0]);
    else ctx.emit('Identity', [e], n.outputs, {});
  },
};

/** `out` as another name of the run-time sequence `x` (removed with the Identity rewrites). */
function emitAlias(ctx, x, out) {
  const [y] = ctx.emit('Identity', [x], [out], {});
  Object.assign(ctx.value(y), { dtype: ctx.value(x).dtype, shape: ctx.value(x).shape, list: ctx.value(x).list });
}

export const SEQUENCE_OPS = OPS;
