// ai.onnx.ml LabelEncoder, its numeric forms, LOWERED to standard ops
// (decision 81) as onnxruntime 1.30's kernels compute them (label_encoder.cc,
// measured with onnxruntime-node; docs/decisions.md 89):
//   opset 2-4: keys_int64s | keys_floats (| keys_tensor, opset 4) mapped to
//   values_int64s | values_floats (| values_tensor); X of the keys' dtype
//   (int64 or float), Y of the values' dtype and X's shape. A key not in the
//   table gives the default: default_tensor (opset 4, one element), else
//   default_int64 (-1) / default_float (-0.0). A key listed twice maps to
//   its first value. Float keys compare as floats (-0 matches 0); a NaN key
//   matches a NaN X from opset 4 on and never before (onnxruntime's NaN-aware
//   map of opset 4; measured). An empty table gives the default everywhere.
//   The lowering is a binary search over the sorted keys (the table padded to
//   a power of two with its last entry): log2(table) rounds of Gather,
//   LessOrEqual and Where on X's shape, then an Equal against the key found,
//   so neither the archive nor the run grows with table x X.
//   Refused by name: string keys or values (classes_strings, *_strings,
//   string tensors), double and int32 tensors, keys and values of different
//   lengths (onnxruntime refuses them too).
import { A, attr, DT, dtypeName, readElems, Unsupported, writeElems } from './ir.js';

const OPS = Object.create(null);
const emitter = (ctx, o) => (op, ins, attrs = {}, out) => ctx.emit(op, ins, [out ?? ctx.tmp(`${o}_${op}`)], attrs)[0];
const STRINGS = 'string keys/values need string tensors (issue 41)';
const has = (n, k) => n.attrs[k] !== undefined;
const DT_STRING = 8; // ONNX's string dtype (no string tensors here)

/** One side of the table (keys or values): { dtype, list } from the *_int64s / *_floats / *_tensor attributes. */
function side(n, what, ml) {
  const forms = [`${what}_int64s`, `${what}_floats`, `${what}_tensor`, `${what}_strings`].filter((k) => has(n, k));
  if (forms.length !== 1) throw new Unsupported(`exactly one of ${what}_int64s, ${what}_floats, ${what}_tensor, ${what}_strings is required (got ${forms.length})`);
  const k = forms[0];
  if (k.endsWith('_strings')) throw new Unsupported(STRINGS);
  if (k.endsWith('_tensor')) {
    if (ml < 4) throw new Unsupported(`${k} is ai.onnx.ml opset 4 (this model imports opset ${ml})`);
    const t = n.attrs[k];
    if (t.type !== 'tensor') throw new Unsupported(`${k} must be a tensor`);
    const { dtype, dims, bytes } = t.value;
    if (dtype === DT_STRING) throw new Unsupported(STRINGS);
    if (dtype !== DT.i64 && dtype !== DT.f32) throw new Unsupported(`${k} of ${dtypeName(dtype)} is not supported (int64 and float are)`);
    if (dims.length !== 1) throw new Unsupported(`${k} must be 1-D (got rank ${dims.length})`);
    return { dtype, list: [...readElems(dtype, bytes)] };
  }
  const list = attr(n, k, []);
  return k.endsWith('_int64s') ? { dtype: DT.i64, list: [...list].map((x) => BigInt(x)) } : { dtype: DT.f32, list: [...list].map((x) => Math.fround(Number(x))) };
}

/** The default value of dtype `dt`: default_tensor (opset 4), else default_int64 / default_float. */
function defaultValue(n, dt) {
  if (has(n, 'default_tensor')) {
    const t = n.attrs.default_tensor.value;
    if (t.dtype === DT_STRING) throw new Unsupported(STRINGS);
    if (t.dtype !== dt) throw new Unsupported(`default_tensor is ${dtypeName(t.dtype)}, the values ${dtypeName(dt)}`);
    const e = readElems(t.dtype, t.bytes);
    if (e.length !== 1) throw new Unsupported(`default_tensor has ${e.length} elements (one is required)`);
    return e[0];
  }
  return dt === DT.i64 ? BigInt(attr(n, 'default_int64', -1)) : Math.fround(attr(n, 'default_float', -0));
}

OPS.LabelEncoder = {
  attrs: ['classes_strings', 'default_float', 'default_int64', 'default_string', 'default_tensor', 'keys_floats', 'keys_int64s', 'keys_strings', 'keys_tensor',
    'values_floats', 'values_int64s', 'values_strings', 'values_tensor'],
  norm(ctx, n) {
    const x = n.inputs[0], o = n.outputs[0], e = emitter(ctx, o);
    const ml = ctx.mlOpset ?? 4;
    if (has(n, 'classes_strings') || has(n, 'default_string')) throw new Unsupported(STRINGS);
    if (ml < 2) throw new Unsupported('ai.onnx.ml opset 1 LabelEncoder maps strings (classes_strings): ' + STRINGS);
    if (ml < 4 && has(n, 'default_tensor')) throw new Unsupported(`default_tensor is ai.onnx.ml opset 4 (this model imports opset ${ml})`);
    const keys = side(n, 'keys', ml), vals = side(n, 'values', ml);
    if (keys.list.length !== vals.list.length) throw new Unsupported(`${keys.list.length} keys and ${vals.list.length} values: they must be of one length`);
    const xdt = ctx.value(x).dtype;
    if (xdt !== keys.dtype) throw new Unsupported(`X is ${dtypeName(xdt)}, the keys ${dtypeName(keys.dtype)} (they must agree)`);
    const vdt = vals.dtype, dflt = defaultValue(n, vdt);
    // the table: first occurrence wins; -0 is 0; a NaN key matches only from opset 4 on
    const isF = keys.dtype === DT.f32;
    const first = new Map();
    let nanValue;
    keys.list.forEach((k, i) => {
      if (isF && Number.isNaN(k)) { if (ml >= 4 && nanValue === undefined) nanValue = vals.list[i]; return; }
      if (!first.has(k)) first.set(k, vals.list[i]); // a Map's keys compare as SameValueZero: -0 is 0
    });
    const ks = [...first.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const M = ks.length;
    const constK = (hint, dims, arr) => ctx.constRaw(hint, keys.dtype, dims, writeElems(keys.dtype, arr));
    const constV = (hint, dims, arr) => ctx.constRaw(hint, vdt, dims, writeElems(vdt, arr));
    const dv = constV(`${o}_default`, [], [dflt]);
    let y;
    if (!M) {
      y = e('Expand', [dv, ctx.emit('Shape', [x], [ctx.tmp(`${o}_shape`)], {})[0]], {}, nanValue === undefined ? o : undefined);
    } else {
      let P = 1;
      while (P < M) P *= 2;
      const kp = Array.from({ length: P }, (_, i) => ks[Math.min(i, M - 1)]);
      const vp = kp.map((k) => first.get(k));
      const kt = constK(`${o}_keys`, [P], kp), vt = constV(`${o}_values`, [P], vp);
      const idx = (v) => ctx.constScalar(`${o}_i${v}`, DT.i64, v);
      // lo: the last index whose key is <= x (0 when none is: then keys[0] != x)
      let lo = null;
      for (let s = P / 2; s >= 1; s /= 2) {
        if (lo === null) {
          lo = e('Where', [e('LessOrEqual', [constK(`${o}_k${s}`, [], [kp[s]]), x]), idx(s), idx(0)]);
          continue;
        }
        const c = e('Add', [lo, idx(s)]);
        lo = e('Where', [e('LessOrEqual', [e('Gather', [kt, c], { axis: A.int(0) }), x]), c, lo]);
      }
      const kAt = lo === null ? constK(`${o}_k0`, [], [kp[0]]) : e('Gather', [kt, lo], { axis: A.int(0) });
      const vAt = lo === null ? constV(`${o}_v0`, [], [vp[0]]) : e('Gather', [vt, lo], { axis: A.int(0) });
      y = e('Where', [e('Equal', [kAt, x]), vAt, dv], {}, nanValue === undefined ? o : undefined);
    }
    if (nanValue !== undefined) e('Where', [e('IsNaN', [x]), constV(`${o}_vnan`, [], [nanValue]), y], {}, o);
  },
};

export const ML_LABEL_OPS = OPS;
