// Which graph outputs carry float16 values: declared float16, or float32
// made by a Cast from a float16 value (isnet_medium computes in float16 and
// casts its 12 outputs to float32 at the end). Such an output is judged in
// float16 ulps by bench/zoo/check.mjs (docs/zoo.md, "Float16 outputs"). The
// dtype of the Cast's input is found by walking producers back through ops
// that keep their first input's dtype, to a Cast to float16, a float16
// initializer or a float16 graph input; any other op ends the walk with
// "not float16", so a doubt keeps the float32 bar.
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
const F16 = 10;
const KEEPS = new Set(['Abs', 'Add', 'AveragePool', 'BatchNormalization', 'Clip', 'Concat', 'Conv', 'ConvTranspose', 'Div', 'Elu',
  'Erf', 'Exp', 'Expand', 'Flatten', 'Gemm', 'GlobalAveragePool', 'HardSigmoid', 'Identity', 'InstanceNormalization',
  'LayerNormalization', 'LeakyRelu', 'MatMul', 'Max', 'MaxPool', 'Min', 'Mul', 'Neg', 'Pad', 'Pow', 'PRelu', 'ReduceMean',
  'Relu', 'Reshape', 'Resize', 'Sigmoid', 'Slice', 'Softmax', 'Split', 'Sqrt', 'Squeeze', 'Sub', 'Tanh', 'Transpose',
  'Unsqueeze', 'Upsample']);

const castTo = (n) => Number(n.attribute.find((a) => a.name === 'to')?.i ?? 0);

/** Names of the graph outputs whose values are float16 (a Set). */
export function halfValuedOutputs(bytes) {
  const g = onnx.ModelProto.decode(bytes).graph;
  const producer = new Map();
  for (const n of g.node) for (const o of n.output) producer.set(o, n);
  const typed = new Map();
  for (const t of g.initializer) typed.set(t.name, t.dataType);
  for (const v of [...g.input, ...g.valueInfo, ...g.output]) if (v.type?.tensorType) typed.set(v.name, v.type.tensorType.elemType);
  const isHalf = (name) => {
    for (let steps = 0; steps < 100000; steps++) {
      const n = producer.get(name);
      if (!n) return typed.get(name) === F16;
      if (n.opType === 'Cast') return castTo(n) === F16;
      if (!KEEPS.has(n.opType) || !n.input[0]) return false;
      name = n.input[0];
    }
    return false;
  };
  const out = new Set();
  for (const o of g.output) {
    const dt = o.type?.tensorType?.elemType;
    const n = producer.get(o.name);
    if (dt === F16 || (n && n.opType === 'Cast' && castTo(n) === 1 && isHalf(n.input[0]))) out.add(o.name);
  }
  return out;
}
