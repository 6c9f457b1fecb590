// Tiny ONNX model builder for the converter tests (encodes with onnx-proto).
//   const b = new OnnxBuilder(13);
//   b.input('x', FLOAT, ['N', 4]); b.init('w', FLOAT, [4, 3], data); b.node('MatMul', ['x', 'w'], ['y']);
//   b.output('y', FLOAT, ['N', 3]); const bytes = b.bytes();
// Attributes: integer number -> INT, F(x) -> FLOAT, integer array -> INTS,
// Fs([...]) -> FLOATS, string -> STRING, Ss([...]) -> STRINGS, T(dtype, dims, data) -> TENSOR,
// G(builder) -> GRAPH (a subgraph: If's branches, Loop's/Scan's body; its
// inputs/outputs/initializers/nodes are the builder's; names it reads but
// does not define are the enclosing graph's).
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
export const FLOAT = 1, INT64 = 7, INT32 = 6, BOOL = 9, DOUBLE = 11, FLOAT16 = 10, BFLOAT16 = 16;
export const F = (v) => ({ __f: v });
export const Fs = (v) => ({ __fs: v });
export const Ss = (v) => ({ __ss: v });
export const T = (dtype, dims, data) => ({ __t: tensor('', dtype, dims, data) });
export const G = (builder) => ({ __g: builder.graph() });

export function tensor(name, dtype, dims, data) {
  const t = { name, dataType: dtype, dims };
  if (dtype === FLOAT) t.floatData = [...data];
  else if (dtype === INT64) t.int64Data = [...data].map((x) => Number(x));
  // float16 (10) and bfloat16 (16): data are the raw 16-bit patterns, as ONNX stores them in int32_data
  else if ([2, 3, 4, 5, 6, 9, 10, 16].includes(dtype)) t.int32Data = [...data].map(Number);
  else if (dtype === DOUBLE) t.doubleData = [...data];
  else throw new Error('tensor: dtype');
  return onnx.TensorProto.create(t);
}

function attribute(name, v) {
  const A = onnx.AttributeProto.AttributeType;
  if (v && v.__f !== undefined) return { name, type: A.FLOAT, f: v.__f };
  if (v && v.__fs !== undefined) return { name, type: A.FLOATS, floats: v.__fs };
  if (v && v.__t !== undefined) return { name, type: A.TENSOR, t: v.__t };
  if (v && v.__g !== undefined) return { name, type: A.GRAPH, g: v.__g };
  if (v && v.__tp !== undefined) return { name, type: A.TYPE_PROTO, tp: { tensorType: { elemType: v.__tp } } };
  if (v && v.__ss !== undefined) return { name, type: A.STRINGS, strings: v.__ss.map((x) => new TextEncoder().encode(x)) };
  if (typeof v === 'number') return { name, type: A.INT, i: v };
  if (typeof v === 'string') return { name, type: A.STRING, s: new TextEncoder().encode(v) };
  if (Array.isArray(v)) return { name, type: A.INTS, ints: v };
  throw new Error(`attribute ${name}`);
}

function valueInfo(name, elemType, dims) {
  const t = { tensorType: { elemType } };
  if (dims) t.tensorType.shape = { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : d === null ? {} : { dimValue: d })) };
  return { name, type: t };
}

export class OnnxBuilder {
  constructor(opset = 13) { this.opset = opset; this.nodes = []; this.inputs = []; this.outputs = []; this.inits = []; this.n = 0; }
  input(name, t, dims) { this.inputs.push(valueInfo(name, t, dims)); return this; }
  output(name, t, dims) { this.outputs.push(valueInfo(name, t, dims)); return this; }
  init(name, t, dims, data) { this.inits.push(tensor(name, t, dims, data)); return this; }
  node(op, inputs, outputs, attrs = {}, name = `${op.toLowerCase()}_${this.n++}`) {
    this.nodes.push({ opType: op, input: inputs, output: outputs, name, attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)) });
    return this;
  }
  graph(name = 'g') {
    return { name, node: this.nodes, input: this.inputs, output: this.outputs, initializer: this.inits };
  }
  bytes() {
    const m = onnx.ModelProto.create({
      irVersion: 7, producerName: 'test', opsetImport: [{ domain: '', version: this.opset }],
      graph: this.graph(),
    });
    return onnx.ModelProto.encode(m).finish();
  }
}

let seed = 12345;
export const rand = (n, s = 1) => Float32Array.from({ length: n }, () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32 * 2 - 1) * s);

/** max |a-b| <= atol + rtol |b| over all elements */
export function close(a, b, rtol = 1e-4, atol = 1e-5) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!(Math.abs(a[i] - b[i]) <= atol + rtol * Math.abs(b[i]))) return false;
  return true;
}

/** The builder's bytes with the nodes whose op is in `ops` (default: every node) in domain com.microsoft. */
export function msftDomain(b, ops) {
  const m = onnx.ModelProto.decode(b.bytes());
  for (const n of m.graph.node) if (!ops || ops.includes(n.opType)) n.domain = 'com.microsoft';
  m.opsetImport.push({ domain: 'com.microsoft', version: 1 });
  return onnx.ModelProto.encode(m).finish();
}
