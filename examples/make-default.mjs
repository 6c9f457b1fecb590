// Builds the bundled default archive: a small CNN over a 1x1x28x28 image
// (Conv 3x3 -> Relu -> MaxPool -> Conv -> Relu -> GlobalAveragePool ->
// Flatten -> Gemm -> Softmax) with fixed pseudo-random weights. It stands in
// until the trained digit classifier lands; same shapes as MNIST.
// usage: node examples/make-default.mjs OUT.holo
import fs from 'node:fs';
import { GraphBuilder, DT } from '../compiler/graph.js';
import { writeHolo } from '../compiler/holo-writer.js';

let seed = 42;
const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
const weights = (n, scale) => Float32Array.from({ length: n }, () => rand() * scale);

const g = new GraphBuilder();
g.meta('producer', 'hologram-exec examples/make-default.mjs');
const x = g.input('image', DT.f32, [1, 1, 28, 28]);
const w1 = g.constant('conv1.w', DT.f32, [8, 1, 3, 3], weights(72, 0.5));
const b1 = g.constant('conv1.b', DT.f32, [8], weights(8, 0.1));
const [c1] = g.node('Conv', [x, w1, b1], { name: 'conv1', attrs: { pads: [1, 1, 1, 1], kernel_shape: [3, 3] } });
const [r1] = g.node('Relu', [c1], { name: 'relu1' });
const [p1] = g.node('MaxPool', [r1], { name: 'pool1', attrs: { kernel_shape: [2, 2], strides: [2, 2] } });
const w2 = g.constant('conv2.w', DT.f32, [16, 8, 3, 3], weights(16 * 72, 0.2));
const [c2] = g.node('Conv', [p1, w2, null], { name: 'conv2', attrs: { pads: [1, 1, 1, 1], group: 1 } });
const [r2] = g.node('Relu', [c2], { name: 'relu2' });
const [gap] = g.node('GlobalAveragePool', [r2], { name: 'gap' });
const [flat] = g.node('Flatten', [gap], { name: 'flatten', attrs: { axis: 1 } });
const wf = g.constant('fc.w', DT.f32, [10, 16], weights(160, 0.5));
const bf = g.constant('fc.b', DT.f32, [10], weights(10, 0.1));
const [logits] = g.node('Gemm', [flat, wf, bf], { name: 'fc', attrs: { transB: 1 } });
const [probs] = g.node('Softmax', [logits], { name: 'softmax', attrs: { axis: 1 } });
g.output(probs);
fs.writeFileSync(process.argv[2] ?? 'examples/default.holo', writeHolo(g.toJSON()));
