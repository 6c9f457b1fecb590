// Run-time sequences and optionals in the converter (docs/decisions.md 63).
// The converter tracks a sequence as a list of tensor values while every
// position folds (compiler/onnx-ops-seq.js, decision 41); where one must exist
// at run time -- a graph input or output, a position or split known only
// then, a value carried by a Loop or chosen by an If -- it is a value of
// dtype SEQ (128) or OPT (129), the encoding of docs/holo-format.md §4b, made
// and read by the backend's sequence kernels. `v.list` says what it holds:
// { elem: the tensors' dtype, elemSeq: an optional's element is a sequence }.
export const SEQ = 128, OPT = 129;

export const isList = (v) => v?.dtype === SEQ || v?.dtype === OPT;

/** Emits a sequence kernel and records what its output holds (dtype, list) in the IR. */
export function emitList(ctx, op, inputs, output, attrs, dtype, list) {
  const [y] = ctx.emit(op, inputs, [output], attrs);
  const v = ctx.value(y);
  v.dtype = dtype;
  if (v.kind !== 'const') v.shape = null;
  v.list = list;
  return y;
}

/**
 * The run-time value of `name`: itself when it is one already (or a tensor),
 * else the tracked list made by SequenceConstruct / SequenceEmpty / Optional.
 * `out` names the made value (default: a fresh name); `given`: the tracked
 * value when the IR no longer maps `name` to it (a graph output made anew).
 */
export function runtimeValue(ctx, name, out, given) {
  const v = given ?? ctx.value(name);
  if (v.kind !== 'seq') return name;
  const y = out ?? ctx.tmp(`${name}_rt`);
  const items = v.items.map((x) => runtimeValue(ctx, x));
  const elemSeq = v.optional && items.length === 1 && isList(ctx.value(items[0]));
  const elem = items.length ? (elemSeq ? ctx.value(items[0]).list.elem : ctx.value(items[0]).dtype) : v.dtype;
  let made;
  if (v.optional) {
    const attrs = items.length ? {} : { dtype: { type: 'int', value: v.dtype }, sequence: { type: 'int', value: v.elemSeq ? 1 : 0 } };
    made = emitList(ctx, 'Optional', items, y, attrs, OPT, { elem, elemSeq: items.length ? elemSeq : !!v.elemSeq });
  } else if (items.length) {
    if (items.length > 64) throw new Error(`unsupported sequence '${name}': ${items.length} tensors made at run time (at most 64 per SequenceConstruct)`);
    made = emitList(ctx, 'SequenceConstruct', items, y, {}, SEQ, { elem, elemSeq: false });
  } else made = emitList(ctx, 'SequenceEmpty', [], y, { dtype: { type: 'int', value: v.dtype } }, SEQ, { elem: v.dtype, elemSeq: false });
  // not cached on v: a nested graph may make it, and its value is not in scope outside
  return made;
}
