// The benchmark models, each described once as ONNX (onnx-proto; what
// onnxruntime-web runs) and converted to .holo by the converter users run
// (compiler/convert.js), so the measured archives are what `holo convert`
// emits:
//   holo       = convert(onnx, { fuse: false })  — op for op;
//   holoPacked = convert(onnx)                   — the default: fuse-matmul-bias,
//                fuse-relu (weights packed by the kernels at the first
//                execution, docs/decisions.md 32), docs/converter.md.
// Shapes follow /work/shared/bench/make_models.py (torch export: Linear is
// Gemm(transB=1), x @ W + b is MatMul + Add(out, b)).
import onnxProto from 'onnx-proto';
import { convert } from '../compiler/convert.js';

const { onnx } = onnxProto;
const A = onnx.AttributeProto.AttributeType;

let seed = 42;
const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
const randf = (n, s) => Float32Array.from({ length: n }, () => rnd() * s);

// layers: {op:'linear', in, out, relu} | {op:'matmul', k, n} | {op:'conv', cin, cout, k, pad, relu, group?}
//         | {op:'maxpool', k} | {op:'flatten'} | {op:'softmax'}
//         | {op:'attention', d, heads, ff} (one post-residual transformer layer
//           without normalization: torch-style MatMul + Add(out, bias) projections)
//         | {op:'mbblock', c, expand} (MobileNetV2 inverted residual: 1x1 Conv+Relu,
//           3x3 depthwise Conv+Relu, 1x1 Conv, Add residual)
function build(name, inShape, layers) {
  seed = 42;
  const nodes = [], inits = [];
  let cur = 'x', shape = [...inShape], li = 0;
  const attr = (n, v) => (typeof v === 'number' ? { name: n, type: A.INT, i: v } : typeof v === 'string' ? { name: n, type: A.STRING, s: new TextEncoder().encode(v) } : { name: n, type: A.INTS, ints: v });
  const init = (dims, data, dataType = 1) => {
    const n = `c${li++}`;
    inits.push({ name: n, dataType, dims, rawData: new Uint8Array(data.buffer.slice(0)) });
    return n;
  };
  const node = (op, ins, attrs = {}) => {
    const out = `t${li++}`;
    nodes.push({ opType: op, input: ins, output: [out], name: out, attribute: Object.entries(attrs).map(([k, v]) => attr(k, v)) });
    return out;
  };
  const linearMM = (x, k, n, relu) => {
    const w = init([k, n], randf(k * n, 1 / Math.sqrt(k))), b = init([n], randf(n, 0.1));
    const y = node('Add', [node('MatMul', [x, w]), b]);
    return relu ? node('Relu', [y]) : y;
  };
  const conv = (x, cin, cout, k, pad, relu, group = 1) => {
    const fan = (cin / group) * k * k;
    const w = init([cout, cin / group, k, k], randf(cout * fan, 1 / Math.sqrt(fan))), b = init([cout], randf(cout, 0.1));
    const y = node('Conv', [x, w, b], { kernel_shape: [k, k], pads: [pad, pad, pad, pad], group });
    return relu ? node('Relu', [y]) : y;
  };
  for (const L of layers) {
    if (L.op === 'linear') {
      const w = init([L.out, L.in], randf(L.out * L.in, 1 / Math.sqrt(L.in))), b = init([L.out], randf(L.out, 0.1));
      cur = node('Gemm', [cur, w, b], { transB: 1 });
      if (L.relu) cur = node('Relu', [cur]);
      shape = [shape[0], L.out];
    } else if (L.op === 'matmul') {
      cur = node('MatMul', [cur, init([L.k, L.n], randf(L.k * L.n, 1 / Math.sqrt(L.k)))]);
      shape = [...shape.slice(0, -1), L.n];
    } else if (L.op === 'conv') {
      cur = conv(cur, L.cin, L.cout, L.k, L.pad, L.relu, L.group);
      shape = [shape[0], L.cout, shape[2] + 2 * L.pad - L.k + 1, shape[3] + 2 * L.pad - L.k + 1];
    } else if (L.op === 'maxpool') {
      cur = node('MaxPool', [cur], { kernel_shape: [L.k, L.k], strides: [L.k, L.k] });
      shape = [shape[0], shape[1], Math.floor(shape[2] / L.k), Math.floor(shape[3] / L.k)];
    } else if (L.op === 'flatten') {
      cur = node('Flatten', [cur], { axis: 1 });
      shape = [shape[0], shape.slice(1).reduce((a, b) => a * b, 1)];
    } else if (L.op === 'softmax') {
      cur = node('Softmax', [cur], { axis: -1 });
    } else if (L.op === 'attention') {
      const [B, S, D] = shape, H = L.heads, dh = D / H;
      const heads = (t) => node('Transpose', [node('Reshape', [t, init([4], BigInt64Array.from([B, S, H, dh].map(BigInt)), 7)])], { perm: [0, 2, 1, 3] });
      const q = heads(linearMM(cur, D, D)), k = heads(linearMM(cur, D, D)), v = heads(linearMM(cur, D, D));
      const kt = node('Transpose', [k], { perm: [0, 1, 3, 2] });
      const sc = node('Mul', [node('MatMul', [q, kt]), init([], Float32Array.of(1 / Math.sqrt(dh)))]);
      const p = node('Softmax', [sc], { axis: -1 });
      const ctx = node('Reshape', [node('Transpose', [node('MatMul', [p, v])], { perm: [0, 2, 1, 3] }), init([3], BigInt64Array.from([B, S, D].map(BigInt)), 7)]);
      const h = node('Add', [cur, linearMM(ctx, D, D)]);
      cur = node('Add', [h, linearMM(linearMM(h, D, L.ff, true), L.ff, D)]);
    } else if (L.op === 'mbblock') {
      const c = L.c, e = c * L.expand;
      const y = conv(conv(conv(cur, c, e, 1, 0, true), e, e, 3, 1, true, e), e, c, 1, 0, false);
      cur = node('Add', [cur, y]);
    }
  }
  const vi = (n, dims) => ({ name: n, type: { tensorType: { elemType: 1, shape: { dim: dims.map((d) => ({ dimValue: d })) } } } });
  const model = onnx.ModelProto.create({
    irVersion: 7, producerName: 'hologram-bench', opsetImport: [{ domain: '', version: 13 }],
    graph: { name, node: nodes, input: [vi('x', inShape)], output: [vi(cur, shape)], initializer: inits },
  });
  const bytes = onnx.ModelProto.encode(model).finish();
  const packed = convert(bytes), plain = convert(bytes, { fuse: false });
  return { name, inShape, outShape: shape, onnx: bytes, holo: plain.holo, holoPacked: packed.holo, rewrites: packed.report.rewrites, opsOut: packed.report.opsOut };
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
  transformer_layer: () => build('transformer_layer', [1, 64, 128], [{ op: 'attention', d: 128, heads: 4, ff: 512 }]),
  mobilenet_block: () => build('mobilenet_block', [1, 32, 28, 28], [{ op: 'mbblock', c: 32, expand: 6 }]),
};
