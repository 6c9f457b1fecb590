// Structured inputs for the converter fuzzer (issue 16): fast-check
// arbitraries for ONNX models that are valid protobuf but semantically
// broken, a hand-rolled protobuf-level mutator over real models, and a few
// hand-built hostile models. Used by properties.mjs (replayed with a fixed
// seed) and by gen-corpus.mjs (seeds for Jazzer).
//
// Models are built as plain onnx-proto objects and encoded with onnx-proto,
// so each is a well-formed ModelProto whose *meaning* is wrong: cycles,
// undefined inputs, duplicate names, wrong or unknown dtypes, negative or
// huge dims, 2^31-element shapes, nested subgraph attributes, attributes of
// the wrong type, opset 0 / 10000, missing fields, huge repeated fields.
import fc from 'fast-check';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
const AT = onnx.AttributeProto.AttributeType;

export const encodeModel = (m) => onnx.ModelProto.encode(onnx.ModelProto.create(m)).finish();

// int64 values worth trying: protobufjs encodes strings exactly.
const HUGE = ['2147483648', '2147483647', '4294967296', '9007199254740993', '9223372036854775807', '-9223372036854775808'];
const i64 = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -3, max: 6 }) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE, 65536, 32768, -1, 1 << 30) },
);

export const OP_NAMES = [
  'Add', 'Mul', 'Sub', 'Div', 'MatMul', 'Gemm', 'Relu', 'Conv', 'MaxPool', 'AveragePool', 'Reshape', 'Transpose',
  'Concat', 'Gather', 'Shape', 'Size', 'Slice', 'Squeeze', 'Unsqueeze', 'Expand', 'Tile', 'Pad', 'Cast', 'Constant',
  'ConstantOfShape', 'Range', 'ReduceSum', 'ReduceMean', 'Softmax', 'Flatten', 'Identity', 'Split', 'Where', 'Clip',
  'BatchNormalization', 'LayerNormalization', 'Resize', 'TopK', 'ArgMax', 'Einsum', 'If', 'Loop', 'Scan', 'NonZero',
  'CumSum', 'Neg', 'Not', 'Equal', 'Less', 'Max', 'Min', 'Sum', 'Pow', 'Sqrt', 'Dropout', 'GlobalAveragePool',
  'Trilu', 'OneHot', 'DepthToSpace', 'SpaceToDepth', 'LRN', 'InstanceNormalization', 'Gelu', 'Mod', 'BitShift',
  '', 'NoSuchOp', '__proto__', 'constructor', 'toString', 'hasOwnProperty',
];
const ATTR_NAMES = ['axis', 'axes', 'perm', 'to', 'value', 'shape', 'kernel_shape', 'pads', 'strides', 'dilations', 'group',
  'alpha', 'beta', 'transA', 'transB', 'allowzero', 'keepdims', 'epsilon', 'starts', 'ends', 'split', 'mode', 'auto_pad',
  'ceil_mode', 'then_branch', 'else_branch', 'body', 'value_float', 'value_ints', 'broadcast', 'start', 'end', 'min', 'max',
  '__proto__', 'constructor', ''];
const NAMES = ['x', 'y', 'z', 'w', 'a', 'b', 'c', '', '__proto__', 'constructor'];
const name = fc.constantFrom(...NAMES);
const dtype = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(1, 6, 7, 9, 11, 2, 3, 10) }, { weight: 1, arbitrary: fc.integer({ min: -2, max: 30 }) });

const dim = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 0, max: 4 }).map((v) => ({ dimValue: v })) },
  { weight: 2, arbitrary: fc.constantFrom('N', 'M', '', 'x').map((p) => ({ dimParam: p })) },
  { weight: 2, arbitrary: i64.map((v) => ({ dimValue: v })) },
  { weight: 1, arbitrary: fc.constant({}) },
);
const valueInfo = fc.record({
  name,
  type: fc.oneof(
    { weight: 8, arbitrary: fc.record({ tensorType: fc.record({ elemType: dtype, shape: fc.option(fc.record({ dim: fc.array(dim, { maxLength: 10 }) }), { nil: undefined }) }, { requiredKeys: [] }) }) },
    { weight: 1, arbitrary: fc.constant({ sequenceType: { elemType: { tensorType: { elemType: 1 } } } }) },
    { weight: 1, arbitrary: fc.constant({}) },
  ),
}, { requiredKeys: ['name'] });

const tensor = fc.record({
  name,
  dataType: dtype,
  dims: fc.array(i64, { maxLength: 5 }),
  rawData: fc.option(fc.uint8Array({ maxLength: 64 }), { nil: undefined }),
  floatData: fc.option(fc.array(fc.float(), { maxLength: 8 }), { nil: undefined }),
  int64Data: fc.option(fc.array(i64, { maxLength: 8 }), { nil: undefined }),
  int32Data: fc.option(fc.array(fc.integer(), { maxLength: 8 }), { nil: undefined }),
  dataLocation: fc.option(fc.constantFrom(0, 1), { nil: undefined }),
}, { requiredKeys: ['dataType'] });

const { graph } = fc.letrec((tie) => ({
  attribute: fc.record({
    name: fc.constantFrom(...ATTR_NAMES),
    type: fc.integer({ min: 0, max: 14 }),
    i: fc.option(i64, { nil: undefined }),
    f: fc.option(fc.float(), { nil: undefined }),
    s: fc.option(fc.uint8Array({ maxLength: 8 }), { nil: undefined }),
    ints: fc.option(fc.array(i64, { maxLength: 8 }), { nil: undefined }),
    floats: fc.option(fc.array(fc.float(), { maxLength: 4 }), { nil: undefined }),
    t: fc.option(tensor, { nil: undefined }),
    g: fc.option(tie('graph'), { nil: undefined, depthSize: 'small' }),
  }, { requiredKeys: ['name', 'type'] }),
  node: fc.record({
    opType: fc.constantFrom(...OP_NAMES),
    domain: fc.option(fc.constantFrom('', 'ai.onnx', 'com.microsoft'), { nil: undefined, freq: 8 }),
    name: fc.option(name, { nil: undefined }),
    input: fc.array(name, { maxLength: 4 }),
    output: fc.array(name, { maxLength: 3 }),
    attribute: fc.array(tie('attribute'), { maxLength: 3 }),
  }, { requiredKeys: ['opType'] }),
  graph: fc.record({
    name: fc.constant('g'),
    node: fc.array(tie('node'), { maxLength: 6, depthIdentifier: 'g' }),
    input: fc.array(valueInfo, { maxLength: 3 }),
    output: fc.array(valueInfo, { maxLength: 3 }),
    initializer: fc.array(tensor, { maxLength: 2 }),
  }, { requiredKeys: ['node'] }),
}));

const opset = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(6, 7, 11, 13, 17, 18) },
  { weight: 1, arbitrary: fc.constantFrom(0, 1, 5, 19, 10000, -1, '9223372036854775807') },
);

/** A random, semantically broken ModelProto (as bytes). */
export const brokenModel = fc.record({
  irVersion: fc.constantFrom(3, 7, 8, 0, -1),
  opsetImport: fc.array(fc.record({ domain: fc.constantFrom('', 'ai.onnx', 'x'), version: opset }), { maxLength: 2 }),
  graph: fc.option(graph, { nil: undefined, freq: 20 }),
}, { requiredKeys: [] }).map(encodeModel);

// ---------------------------------------------------------------- hand-built hostile models

export const vi = (n, elemType, dims) => ({ name: n, type: { tensorType: { elemType, ...(dims ? { shape: { dim: dims.map((d) => (typeof d === 'string' && !/^-?\d+$/.test(d) ? { dimParam: d } : { dimValue: d })) } } : {}) } } });
export const model = (g, opset = 13) => encodeModel({ irVersion: 8, opsetImport: [{ domain: '', version: opset }], graph: { name: 'g', ...g } });
const i64t = (n, vals) => ({ name: n, dataType: 7, dims: [vals.length], int64Data: vals });

/** Deterministic hostile models: [label, bytes]. */
export function hostileModels() {
  const out = [];
  const add = (label, bytes) => out.push([label, bytes]);
  add('cycle', model({ input: [vi('x', 1, [2])], output: [vi('b', 1, [2])], node: [
    { opType: 'Add', input: ['x', 'b'], output: ['a'] }, { opType: 'Relu', input: ['a'], output: ['b'] }] }));
  add('self-loop', model({ input: [vi('x', 1, [2])], output: [vi('a', 1, [2])], node: [{ opType: 'Add', input: ['x', 'a'], output: ['a'] }] }));
  add('undefined-input', model({ input: [vi('x', 1, [2])], output: [vi('y', 1, [2])], node: [{ opType: 'Add', input: ['x', 'nope'], output: ['y'] }] }));
  add('duplicate-output', model({ input: [vi('x', 1, [2])], output: [vi('y', 1, [2])], node: [
    { opType: 'Relu', input: ['x'], output: ['y'] }, { opType: 'Neg', input: ['x'], output: ['y'] }] }));
  add('output-is-input', model({ input: [vi('x', 1, [2])], output: [vi('x', 1, [2])], node: [] }));
  add('input-twice', model({ input: [vi('x', 1, [2]), vi('x', 6, [3])], output: [vi('y', 1, [2])], node: [{ opType: 'Relu', input: ['x'], output: ['y'] }] }));
  add('elems-2^31', model({ input: [vi('x', 1, [65536, 32768])], output: [vi('y', 1, null)], node: [{ opType: 'Relu', input: ['x'], output: ['y'] }] }));
  add('dim-int64-max', model({ input: [vi('x', 1, ['9223372036854775807'])], output: [vi('y', 1, null)], node: [{ opType: 'Relu', input: ['x'], output: ['y'] }] }));
  add('dim-negative', model({ input: [vi('x', 1, ['-7', 2])], output: [vi('y', 1, null)], node: [{ opType: 'Relu', input: ['x'], output: ['y'] }] }));
  add('const-of-shape-2^31', model({ input: [], output: [vi('y', 1, null)], initializer: [i64t('s', [2147483648])],
    node: [{ opType: 'ConstantOfShape', input: ['s'], output: ['y'] }] }));
  add('const-of-shape-2^40', model({ input: [vi('x', 1, [1])], output: [vi('z', 1, null)], initializer: [i64t('s', [1048576, 1048576])],
    node: [{ opType: 'ConstantOfShape', input: ['s'], output: ['y'] }, { opType: 'Add', input: ['x', 'y'], output: ['z'] }] }));
  add('expand-huge', model({ input: [vi('x', 1, [1])], output: [vi('y', 1, null)], initializer: [i64t('s', [65536, 65536, 16])],
    node: [{ opType: 'Expand', input: ['x', 's'], output: ['y'] }] }));
  add('range-huge', model({ input: [], output: [vi('y', 7, null)], initializer: [{ name: 'a', dataType: 7, dims: [], int64Data: [0] },
    { name: 'l', dataType: 7, dims: [], int64Data: ['4000000000'] }, { name: 'd', dataType: 7, dims: [], int64Data: [1] }],
    node: [{ opType: 'Range', input: ['a', 'l', 'd'], output: ['y'] }] }));
  add('tile-huge', model({ input: [], output: [vi('y', 1, null)], initializer: [{ name: 't', dataType: 1, dims: [2], floatData: [1, 2] }, i64t('r', [1073741824])],
    node: [{ opType: 'Tile', input: ['t', 'r'], output: ['y'] }] }));
  add('initializer-dims-2^40', model({ input: [], output: [vi('w', 1, null)], initializer: [{ name: 'w', dataType: 1, dims: [1048576, 1048576], rawData: new Uint8Array(8) }], node: [] }));
  add('initializer-dims-2^31', model({ input: [], output: [vi('w', 1, null)], initializer: [{ name: 'w', dataType: 2, dims: [2147483647] }], node: [] }));
  for (const v of [0, 1, 5, 19, 10000]) add(`opset-${v}`, model({ input: [vi('x', 1, [2])], output: [vi('y', 1, [2])], node: [{ opType: 'Relu', input: ['x'], output: ['y'] }] }, v));
  add('no-opset', encodeModel({ irVersion: 8, graph: { name: 'g', input: [vi('x', 1, [2])], output: [vi('y', 1, [2])], node: [{ opType: 'Relu', input: ['x'], output: ['y'] }] } }));
  add('no-graph', encodeModel({ irVersion: 8, opsetImport: [{ domain: '', version: 13 }] }));
  add('empty-graph', model({}));
  add('attr-wrong-type', model({ input: [vi('x', 1, [2, 3])], output: [vi('y', 1, null)], node: [
    { opType: 'Transpose', input: ['x'], output: ['y'], attribute: [{ name: 'perm', type: AT.FLOAT, f: 1.5 }] }] }));
  add('attr-string-as-int', model({ input: [vi('x', 1, [2, 3])], output: [vi('y', 1, null)], node: [
    { opType: 'Softmax', input: ['x'], output: ['y'], attribute: [{ name: 'axis', type: AT.STRING, s: new Uint8Array([49]) }] }] }));
  add('cast-to-bogus', model({ input: [vi('x', 1, [2])], output: [vi('y', 1, null)], node: [
    { opType: 'Cast', input: ['x'], output: ['y'], attribute: [{ name: 'to', type: AT.INT, i: 99 }] }] }));
  add('proto-op', model({ input: [vi('x', 1, [2])], output: [vi('y', 1, null)], node: [{ opType: 'constructor', input: ['x'], output: ['y'] }] }));
  add('proto-attr', model({ input: [vi('x', 1, [2])], output: [vi('y', 1, null)], node: [
    { opType: 'Relu', input: ['x'], output: ['y'], attribute: [{ name: '__proto__', type: AT.INT, i: 1 }] }] }));
  add('perm-out-of-range', model({ input: [vi('x', 1, [2, 3])], output: [vi('y', 1, null)], node: [
    { opType: 'Transpose', input: ['x'], output: ['y'], attribute: [{ name: 'perm', type: AT.INTS, ints: [5, -9] }] }] }));
  add('wrong-dtype-matmul', model({ input: [vi('x', 9, [2, 2]), vi('w', 7, [2, 2])], output: [vi('y', 1, null)], node: [{ opType: 'MatMul', input: ['x', 'w'], output: ['y'] }] }));
  add('unknown-dtype-input', model({ input: [vi('x', 42, [2])], output: [vi('y', 1, null)], node: [{ opType: 'Relu', input: ['x'], output: ['y'] }] }));
  // deep nesting: If nodes whose then_branch holds a graph with an If node ...,
  // encoded by hand (protobufjs's own encoder recurses and overflows first)
  for (const depth of [64, 3000]) add(`nested-${depth}`, nestedModel(depth));
  // huge repeated fields
  add('many-dims', model({ input: [vi('x', 1, Array(5000).fill(1))], output: [vi('y', 1, null)], node: [{ opType: 'Relu', input: ['x'], output: ['y'] }] }));
  add('many-nodes', model({ input: [vi('x', 1, [1])], output: [vi('x20000', 1, null)],
    node: Array.from({ length: 20000 }, (_, k) => ({ opType: 'Relu', input: [`x${k || ''}`], output: [`x${k + 1}`] })) }));
  add('many-ints', model({ input: [vi('x', 1, [2, 3])], output: [vi('y', 1, null)], node: [
    { opType: 'Transpose', input: ['x'], output: ['y'], attribute: [{ name: 'perm', type: AT.INTS, ints: Array(200000).fill(0) }] }] }));
  add('reshape-huge', model({ input: [vi('x', 1, [2])], output: [vi('y', 1, null)], initializer: [i64t('s', ['4611686018427387904', 0])],
    node: [{ opType: 'Reshape', input: ['x', 's'], output: ['y'] }] }));
  add('pad-huge', model({ input: [vi('x', 1, [2])], output: [vi('y', 1, null)], initializer: [i64t('p', [0, 2147483647])],
    node: [{ opType: 'Pad', input: ['x', 'p'], output: ['y'] }] }));
  return out.filter(([, b]) => b);
}

const varint = (n) => { const b = []; while (n > 127) { b.push((n & 127) | 128); n >>>= 7; } b.push(n); return b; };
const field = (no, bytes) => Buffer.concat([Buffer.from(varint((no << 3) | 2)), Buffer.from(varint(bytes.length)), bytes]);
const str = (x) => Buffer.from(x);

/** ModelProto (opset 13) whose graph nests `depth` If nodes through then_branch. */
export function nestedModel(depth) {
  let g = field(2, str('leaf')); // GraphProto.name
  for (let k = 0; k < depth; k++) {
    const attr = Buffer.concat([field(1, str('then_branch')), Buffer.from([...varint(20 << 3), ...varint(AT.GRAPH)]), field(6, g)]);
    const node = Buffer.concat([field(1, str('c')), field(2, str('o')), field(4, str('If')), field(5, attr)]);
    g = field(1, node); // GraphProto.node
  }
  const head = encodeModel({ irVersion: 8, opsetImport: [{ domain: '', version: 13 }] });
  const io = onnx.GraphProto.encode(onnx.GraphProto.create({ input: [vi('c', 9, [])], output: [vi('o', 1, null)] })).finish();
  return new Uint8Array(Buffer.concat([head, field(7, Buffer.concat([g, io]))]));
}

// ---------------------------------------------------------------- protobuf-level mutator

const MUTATIONS = ['dim', 'dtype', 'dupNode', 'reverse', 'cycle', 'dropField', 'attrType', 'opset', 'hugeRepeated', 'nest', 'rename', 'initDims'];

/** Apply mutation `m` (a MUTATIONS entry), driven by integers r0..r2, to a decoded model object. */
function mutate(mp, m, r) {
  const g = mp.graph ?? (mp.graph = { node: [] });
  const nodes = g.node ?? (g.node = []);
  const pick = (arr, k) => (arr && arr.length ? arr[k % arr.length] : undefined);
  const vis = [...(g.input ?? []), ...(g.output ?? []), ...(g.valueInfo ?? [])];
  const dims = ['0', '-1', '2147483648', '9223372036854775807', '65536', '1', '3'];
  switch (m) {
    case 'dim': {
      const v = pick(vis, r[0]);
      const d = v?.type?.tensorType?.shape?.dim;
      if (d && d.length) d[r[1] % d.length] = { dimValue: dims[r[2] % dims.length] };
      else if (v?.type?.tensorType) v.type.tensorType.shape = { dim: [{ dimValue: dims[r[2] % dims.length] }] };
      break;
    }
    case 'dtype': {
      const v = pick(vis, r[0]);
      if (v?.type?.tensorType) v.type.tensorType.elemType = [0, 8, 14, 16, 99, 7, 9][r[1] % 7];
      const t = pick(g.initializer, r[2]);
      if (t) t.dataType = [0, 8, 14, 16, 99, 7, 9, 1][r[1] % 8];
      break;
    }
    case 'dupNode': { const n = pick(nodes, r[0]); if (n) nodes.splice(r[1] % (nodes.length + 1), 0, structuredClone(n)); break; }
    case 'reverse': nodes.reverse(); break;
    case 'cycle': { const a = pick(nodes, r[0]), b = pick(nodes, r[1]); if (a && b && b.output?.length) (a.input ??= []).push(b.output[0]); break; }
    case 'dropField': {
      const fields = ['input', 'output', 'initializer', 'node', 'valueInfo'];
      const f = fields[r[0] % fields.length];
      if (Array.isArray(g[f]) && g[f].length) g[f].splice(r[1] % g[f].length, 1);
      const n = pick(nodes, r[2]);
      if (n && n.attribute?.length) n.attribute.splice(0, 1);
      break;
    }
    case 'attrType': {
      const n = pick(nodes, r[0]);
      const a = pick(n?.attribute, r[1]);
      if (a) a.type = r[2] % 15;
      else if (n) (n.attribute ??= []).push({ name: ATTR_NAMES[r[2] % ATTR_NAMES.length], type: r[1] % 15, i: 1, f: 2, ints: [1, 2] });
      break;
    }
    case 'opset': mp.opsetImport = [{ domain: '', version: [0, 1, 6, 10000, -3, 18, 19][r[0] % 7] }]; break;
    case 'hugeRepeated': {
      const n = pick(nodes, r[0]);
      if (n) (n.attribute ??= []).push({ name: 'axes', type: AT.INTS, ints: Array(50000 + (r[1] % 1000)).fill(r[2] % 3) });
      break;
    }
    case 'nest': { const n = pick(nodes, r[0]); if (n) (n.attribute ??= []).push({ name: 'body', type: AT.GRAPH, g: structuredClone(g) }); break; }
    case 'rename': { const n = pick(nodes, r[0]); if (n && n.output?.length) n.output[0] = pick(n.input, r[1]) ?? NAMES[r[2] % NAMES.length]; break; }
    case 'initDims': { const t = pick(g.initializer, r[0]); if (t) t.dims = [dims[r[1] % dims.length], dims[r[2] % dims.length]]; break; }
  }
}

/** fast-check arbitrary: a seed model with 1..4 protobuf-level mutations, as bytes. */
export function mutatedModel(seeds) {
  const step = fc.tuple(fc.constantFrom(...MUTATIONS), fc.tuple(fc.nat(), fc.nat(), fc.nat()));
  return fc.tuple(fc.nat({ max: seeds.length - 1 }), fc.array(step, { minLength: 1, maxLength: 4 })).map(([k, steps]) => {
    const mp = onnx.ModelProto.toObject(onnx.ModelProto.decode(seeds[k]), { longs: String });
    for (const [m, r] of steps) mutate(mp, m, r);
    return encodeModel(mp);
  });
}
