// The float32 twin of a float16 model (issue 40 item 8, docs/zoo.md "Float16
// outputs"): the same graph and the same weights, every float16 tensor
// widened to float32 (initializers, Constant and ConstantOfShape values,
// Cast/CastLike targets, declared value types), so it computes in float32
// what the model computes in float16. Its outputs, from onnxruntime-node,
// stand for the exact answer the float16 model approximates: a float16
// engine's error is its distance from them. Any other float16 construct
// (an op with a dtype attribute that names float16, a subgraph) is refused:
// a twin that still rounds somewhere is not a twin.
import onnxProto from 'onnx-proto';
import { halfToFloat } from '../../compiler/half.js';

const { onnx } = onnxProto;
const F16 = 10, F32 = 1;

/** Widens one TensorProto in place when it is float16. */
function widenTensor(t) {
  if (t.dataType !== F16) return;
  if (t.dataLocation === 1 || t.externalData?.length) throw new Error(`f32 twin: tensor '${t.name}' has external data`);
  let bits;
  if (t.rawData?.length) {
    const raw = t.rawData;
    bits = new Uint16Array(raw.length / 2);
    for (let i = 0; i < bits.length; i++) bits[i] = raw[2 * i] | (raw[2 * i + 1] << 8);
  } else {
    bits = Uint16Array.from(t.int32Data ?? []); // float16 bit patterns in int32_data
  }
  const f = new Float32Array(bits.length);
  for (let i = 0; i < bits.length; i++) f[i] = halfToFloat(bits[i]);
  t.dataType = F32;
  t.int32Data = [];
  t.rawData = new Uint8Array(f.buffer);
}

function widenType(v) {
  const tt = v.type?.tensorType;
  if (tt && tt.elemType === F16) tt.elemType = F32;
  if (v.type && !tt && JSON.stringify(v.type).includes(`"elemType":${F16}`)) throw new Error(`f32 twin: '${v.name}' has a non-tensor float16 type`);
}

const DTYPE_ATTRS = new Set(['dtype', 'output_datatype']);

function widenGraph(g) {
  for (const t of g.initializer) widenTensor(t);
  for (const v of [...g.input, ...g.output, ...g.valueInfo]) widenType(v);
  for (const n of g.node) {
    for (const a of n.attribute) {
      if (a.g || a.graphs?.length) throw new Error(`f32 twin: ${n.opType} '${n.name}' has a subgraph`);
      if (a.t) widenTensor(a.t);
      if (a.tensors?.length) a.tensors.forEach(widenTensor);
      if (n.opType === 'Cast' && a.name === 'to' && Number(a.i) === F16) a.i = F32;
      else if (DTYPE_ATTRS.has(a.name) && Number(a.i) === F16) throw new Error(`f32 twin: ${n.opType} '${n.name}' names float16 in '${a.name}'`);
    }
  }
}

/** The float32 twin of an ONNX model (bytes in, bytes out). */
export function float32Twin(bytes) {
  const m = onnx.ModelProto.decode(bytes);
  if (m.functions?.length) throw new Error('f32 twin: model-local functions are not widened');
  widenGraph(m.graph);
  return onnx.ModelProto.encode(m).finish();
}
