// The benchmark models, each described once and emitted twice from the same
// weights: as ONNX (onnx-proto; what onnxruntime-web runs) and as .holo
// (compiler/graph.js + writeHolo; what hologram-exec runs). The .holo graph is
// the op-for-op translation of the ONNX graph ("plain"), or with the
// documented kernel contracts applied ("packed": holo.PackB on every constant
// Gemm/MatMul weight + holo.MatMulPacked with fused bias and Relu; Conv with
// fused holo_activation = "Relu"), i.e. what the converter may emit.
// Shapes follow /work/shared/bench/make_models.py (torch export: Linear is
// Gemm(transB=1), x @ W is MatMul).
import onnxProto from 'onnx-proto';
import { GraphBuilder, DT } from '../compiler/graph.js';
import { writeHolo } from '../compiler/holo-writer.js';

const { onnx } = onnxProto;
const A = onnx.AttributeProto.AttributeType;

let seed = 42;
const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
const randf = (n, s) => Float32Array.from({ length: n }, () => rnd() * s);

// layers: {op:'linear', in, out, relu} | {op:'matmul', k, n} | {op:'conv', cin, cout, k, pad, relu}
//         | {op:'maxpool', k} | {op:'flatten'} | {op:'softmax'}
function build(name, inShape, layers) {
  seed = 42;
  const onnxNodes = [], inits = [];
  const g = new GraphBuilder(), gp = new GraphBuilder();
  let cur = 'x', shape = [...inShape];
  let h = g.input('x', DT.f32, shape), hp = gp.input('x', DT.f32, shape);
  let li = 0;
  const init = (n, dims, data) => inits.push({ name: n, dataType: 1, dims, rawData: new Uint8Array(data.buffer.slice(0)) });
  const attr = (n, v) => (typeof v === 'number' ? { name: n, type: A.INT, i: v } : typeof v === 'string' ? { name: n, type: A.STRING, s: new TextEncoder().encode(v) } : { name: n, type: A.INTS, ints: v });
  const node = (op, ins, attrs = {}) => {
    const out = `t${li++}`;
    onnxNodes.push({ opType: op, input: ins, output: [out], name: out, attribute: Object.entries(attrs).map(([k, v]) => attr(k, v)) });
    cur = out;
  };
  for (const L of layers) {
    if (L.op === 'linear') {
      const w = randf(L.out * L.in, 1 / Math.sqrt(L.in)), b = randf(L.out, 0.1);
      const wn = `w${li}`, bn = `b${li}`;
      init(wn, [L.out, L.in], w); init(bn, [L.out], b);
      node('Gemm', [cur, wn, bn], { transB: 1 });
      let [y] = g.node('Gemm', [h, g.constant(wn, DT.f32, [L.out, L.in], w), g.constant(bn, DT.f32, [L.out], b)], { attrs: { transB: 1 } });
      const [p] = gp.node('holo.PackB', [gp.constant(wn, DT.f32, [L.out, L.in], w)], { attrs: { transB: 1 } });
      const fa = L.relu ? { holo_activation: 'Relu' } : {};
      [hp] = gp.node('holo.MatMulPacked', [hp, p, gp.constant(bn, DT.f32, [L.out], b)], { attrs: { n: L.out, ...fa } });
      if (L.relu) { node('Relu', [cur]); [y] = g.node('Relu', [y]); }
      h = y;
      shape = [shape[0], L.out];
    } else if (L.op === 'matmul') {
      const w = randf(L.k * L.n, 1 / Math.sqrt(L.k)), wn = `w${li}`;
      init(wn, [L.k, L.n], w);
      node('MatMul', [cur, wn]);
      [h] = g.node('MatMul', [h, g.constant(wn, DT.f32, [L.k, L.n], w)]);
      const [p] = gp.node('holo.PackB', [gp.constant(wn, DT.f32, [L.k, L.n], w)]);
      [hp] = gp.node('holo.MatMulPacked', [hp, p], { attrs: { n: L.n } });
      shape = [...shape.slice(0, -1), L.n];
    } else if (L.op === 'conv') {
      const fan = L.cin * L.k * L.k, w = randf(L.cout * fan, 1 / Math.sqrt(fan)), b = randf(L.cout, 0.1);
      const wn = `w${li}`, bn = `b${li}`, ws = [L.cout, L.cin, L.k, L.k];
      init(wn, ws, w); init(bn, [L.cout], b);
      const at = { kernel_shape: [L.k, L.k], pads: [L.pad, L.pad, L.pad, L.pad] };
      node('Conv', [cur, wn, bn], at);
      let [y] = g.node('Conv', [h, g.constant(wn, DT.f32, ws, w), g.constant(bn, DT.f32, [L.cout], b)], { attrs: at });
      [hp] = gp.node('Conv', [hp, gp.constant(wn, DT.f32, ws, w), gp.constant(bn, DT.f32, [L.cout], b)], { attrs: L.relu ? { ...at, holo_activation: 'Relu' } : at });
      if (L.relu) { node('Relu', [cur]); [y] = g.node('Relu', [y]); }
      h = y;
      shape = [shape[0], L.cout, shape[2] + 2 * L.pad - L.k + 1, shape[3] + 2 * L.pad - L.k + 1];
    } else if (L.op === 'maxpool') {
      const at = { kernel_shape: [L.k, L.k], strides: [L.k, L.k] };
      node('MaxPool', [cur], at);
      [h] = g.node('MaxPool', [h], { attrs: at });
      [hp] = gp.node('MaxPool', [hp], { attrs: at });
      shape = [shape[0], shape[1], Math.floor(shape[2] / L.k), Math.floor(shape[3] / L.k)];
    } else if (L.op === 'flatten') {
      node('Flatten', [cur], { axis: 1 });
      [h] = g.node('Flatten', [h], { attrs: { axis: 1 } });
      [hp] = gp.node('Flatten', [hp], { attrs: { axis: 1 } });
      shape = [shape[0], shape.slice(1).reduce((a, b) => a * b, 1)];
    } else if (L.op === 'softmax') {
      node('Softmax', [cur], { axis: -1 });
      [h] = g.node('Softmax', [h], { attrs: { axis: -1 } });
      [hp] = gp.node('Softmax', [hp], { attrs: { axis: -1 } });
    }
  }
  g.output(h); gp.output(hp);
  const vi = (n, dims) => ({ name: n, type: { tensorType: { elemType: 1, shape: { dim: dims.map((d) => ({ dimValue: d })) } } } });
  const model = onnx.ModelProto.create({
    irVersion: 7, producerName: 'hologram-bench', opsetImport: [{ domain: '', version: 13 }],
    graph: { name, node: onnxNodes, input: [vi('x', inShape)], output: [vi(cur, shape)], initializer: inits },
  });
  return {
    name, inShape, outShape: shape,
    onnx: onnx.ModelProto.encode(model).finish(),
    holo: writeHolo(g.toJSON()),
    holoPacked: writeHolo(gp.toJSON()),
  };
}

const mlp = [{ op: 'linear', in: 784, out: 1024, relu: true }, { op: 'linear', in: 1024, out: 1024, relu: true }, { op: 'linear', in: 1024, out: 10 }];

export const MODELS = {
  mlp_b1: () => build('mlp_b1', [1, 784], mlp),
  mlp_b64: () => build('mlp_b64', [64, 784], mlp),
  matmul_512: () => build('matmul_512', [512, 512], [{ op: 'matmul', k: 512, n: 512 }]),
  conv_small: () => build('conv_small', [1, 3, 64, 64], [
    { op: 'conv', cin: 3, cout: 32, k: 3, pad: 1, relu: true }, { op: 'maxpool', k: 2 },
    { op: 'conv', cin: 32, cout: 64, k: 3, pad: 1, relu: true }, { op: 'maxpool', k: 2 },
    { op: 'conv', cin: 64, cout: 64, k: 3, pad: 1, relu: true }, { op: 'maxpool', k: 2 },
    { op: 'flatten' }, { op: 'linear', in: 64 * 8 * 8, out: 10 }, { op: 'softmax' }]),
};
