// Sequence and Optional ops, resolved at convert time (docs/decisions.md 41): a sequence
// is a list of tensor values the converter tracks (ctx.defineSeq); every
// position and split must fold to a constant, and what reaches the archive
// is the tensors' own nodes (Identity, Slice, Unsqueeze/Reshape, Concat). A
// sequence that would have to exist at run time (a graph input or output, a
// position known only then) is refused.
import { A, attr, DT, readElems, Unsupported, writeElems } from './ir.js';
import { reshapeTarget } from './onnx-ops.js';

const OPS = Object.create(null);

function seqOf(ctx, name) {
  const items = ctx.seq(name);
  if (!items || ctx.value(name).optional) throw new Unsupported(`'${name}' is not a sequence`);
  return items;
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

OPS.SequenceEmpty = {
  attrs: ['dtype'],
  in0Optional: true,
  norm: (ctx, n) => ctx.defineSeq(n.outputs[0], [], attr(n, 'dtype', DT.f32)),
};
OPS.SequenceConstruct = {
  attrs: [],
  norm(ctx, n) {
    const dts = new Set(n.inputs.map((x) => ctx.value(x).dtype));
    if (dts.size > 1) throw new Unsupported('the tensors have different dtypes');
    ctx.defineSeq(n.outputs[0], n.inputs, ctx.value(n.inputs[0]).dtype);
  },
};
OPS.SequenceInsert = {
  attrs: [],
  norm(ctx, n) {
    const items = [...seqOf(ctx, n.inputs[0])];
    const p = checkPos(position(ctx, n.inputs[2], items.length), items.length, true);
    if (items.length && ctx.value(n.inputs[1]).dtype !== ctx.value(items[0]).dtype) throw new Unsupported('the tensor\'s dtype differs from the sequence\'s');
    items.splice(p, 0, n.inputs[1]);
    ctx.defineSeq(n.outputs[0], items, ctx.value(n.inputs[1]).dtype);
  },
};
OPS.SequenceErase = {
  attrs: [],
  norm(ctx, n) {
    const items = [...seqOf(ctx, n.inputs[0])];
    if (!items.length) throw new Unsupported('erase from an empty sequence');
    items.splice(checkPos(position(ctx, n.inputs[1], -1), items.length, false), 1);
    ctx.defineSeq(n.outputs[0], items, ctx.value(n.inputs[0]).dtype);
  },
};
OPS.SequenceAt = {
  attrs: [],
  norm(ctx, n) {
    const items = seqOf(ctx, n.inputs[0]);
    ctx.emit('Identity', [items[checkPos(position(ctx, n.inputs[1], null), items.length, false)]], n.outputs, {});
  },
};
OPS.SequenceLength = {
  attrs: [],
  norm: (ctx, n) => ctx.defineConst(n.outputs[0], DT.i64, [], writeElems(DT.i64, [BigInt(seqOf(ctx, n.inputs[0]).length)])),
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
  },
};

OPS.ConcatFromSequence = {
  attrs: ['axis', 'new_axis'],
  norm(ctx, n) {
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
// is a list of zero or one value (ctx.defineSeq with `optional`), so whether
// it holds an element is always known here.
OPS.Optional = {
  attrs: ['type'],
  in0Optional: true,
  norm(ctx, n) {
    const x = n.inputs[0];
    if (!x && !n.attrs.type) throw new Unsupported("an empty Optional needs its 'type' attribute");
    if (x && ctx.seq(x)) throw new Unsupported('an optional sequence is not supported');
    const t = n.attrs.type;
    if (t && (t.type !== 'typeproto' || !t.value)) throw new Unsupported("attribute 'type' must be a tensor type (an optional sequence is not supported)");
    ctx.defineSeq(n.outputs[0], x ? [x] : [], x ? ctx.value(x).dtype : t.value, true);
  },
};
OPS.OptionalHasElement = {
  attrs: [],
  in0Optional: true,
  norm(ctx, n) {
    const x = n.inputs[0];
    const has = !x ? 0 : ctx.seq(x) && ctx.value(x).optional ? ctx.seq(x).length : 1;
    ctx.defineConst(n.outputs[0], DT.bool, [], writeElems(DT.bool, [has]));
  },
};
OPS.OptionalGetElement = {
  attrs: [],
  norm(ctx, n) {
    const x = n.inputs[0];
    const items = ctx.seq(x);
    if (items && !ctx.value(x).optional) throw new Unsupported('a sequence input is not supported (only an optional tensor)');
    if (items && !items.length) throw new Unsupported(`the optional '${x}' is empty`);
    ctx.emit('Identity', [items ? items[0] : x], n.outputs, {});
  },
};

export const SEQUENCE_OPS = OPS;
