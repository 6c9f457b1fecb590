// LSTM, GRU and RNN through the converter (compiler/onnx-ops-rnn.js) and the
// kernels, against onnxruntime-node: activation lists (any case, one list for
// both directions), activation_alpha / activation_beta consumed in order by
// the activations that take them, clip, layout 1, sequence_lens, initial
// states, peepholes, absent Y; and the converter's refusals.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT32, F, Fs, Ss, rand } from './onnx-build.mjs';

const { onnx } = onnxProto;
const rt = await init(undefined, { variant: 'simd128' });
const G = { LSTM: 4, GRU: 3, RNN: 1 };

/** One recurrent node; W, R, B (and P) initializers; X, sequence_lens, initial states fed. */
function model(op, { S, B, I, H, D = 1, layout = 0, attrs = {}, lens = null, h0 = false, c0 = false, peep = false, outs, opset = 14 }) {
  const b = new OnnxBuilder(opset), gh = G[op] * H;
  const xs = layout ? [B, S, I] : [S, B, I], hs = layout ? [B, D, H] : [D, B, H];
  b.input('X', FLOAT, xs);
  b.init('W', FLOAT, [D, gh, I], rand(D * gh * I, 0.6)).init('R', FLOAT, [D, gh, H], rand(D * gh * H, 0.6)).init('Bs', FLOAT, [D, 2 * gh], rand(D * 2 * gh, 0.4));
  const ins = ['X', 'W', 'R', 'Bs', lens ? 'L' : '', h0 ? 'h0' : ''];
  const feeds = { X: { data: rand(S * B * I), shape: xs } };
  if (lens) { b.input('L', INT32, [B]); feeds.L = { data: Int32Array.from(lens), shape: [B] }; }
  if (h0) { b.input('h0', FLOAT, hs); feeds.h0 = { data: rand(D * B * H), shape: hs }; }
  if (op === 'LSTM') {
    ins.push(c0 ? 'c0' : '');
    if (c0) { b.input('c0', FLOAT, hs); feeds.c0 = { data: rand(D * B * H), shape: hs }; }
    if (peep) { ins.push('P'); b.init('P', FLOAT, [D, 3 * H], rand(D * 3 * H, 0.5)); }
  }
  while (!ins[ins.length - 1]) ins.pop();
  const o = outs ?? (op === 'LSTM' ? ['Y', 'Yh', 'Yc'] : ['Y', 'Yh']);
  b.node(op, ins, o, { hidden_size: H, ...(layout ? { layout } : {}), ...attrs });
  for (const n of o.filter(Boolean)) b.output(n, FLOAT, null);
  return { bytes: b.bytes(), feeds, names: o.filter(Boolean) };
}

async function againstOrt(op, cfg) {
  const { bytes, feeds, names } = model(op, cfg);
  const s = await ort.InferenceSession.create(bytes);
  const want = await s.run(Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, new ort.Tensor(v.data instanceof Int32Array ? 'int32' : 'float32', v.data, v.shape)])));
  const { holo } = convert(bytes);
  const hs = rt.load(holo);
  const order = s.inputNames; // the converted graph keeps the model's input order
  const got = hs.execute(order.map((k) => feeds[k]));
  hs.dispose();
  names.forEach((n, k) => {
    const w = want[n], g = got[k];
    assert.equal(g.shape, [...w.dims], `${op} ${n}: shape`);
    for (let i = 0; i < w.data.length; i++)
      if (!(Math.abs(g.data[i] - w.data[i]) <= 1e-5 + 1e-4 * Math.abs(w.data[i])))
        assert.unreachable(`${op} ${JSON.stringify(cfg.attrs ?? {})} ${n}[${i}]: ${g.data[i]} vs onnxruntime ${w.data[i]}`);
  });
}

test('LSTM: bidirectional with activations (mixed case) and their alpha/beta, clip, peepholes, initial states, sequence_lens = onnxruntime', async () => {
  await againstOrt('LSTM', {
    S: 5, B: 3, I: 4, H: 6, D: 2, lens: [5, 2, 4], h0: true, c0: true, peep: true,
    attrs: { direction: 'bidirectional', clip: F(2.5), activations: Ss(['hardsigmoid', 'ScaledTanh', 'Tanh', 'Sigmoid', 'softsign', 'ScaledTanh']), activation_alpha: Fs([0.3, 0.8, 1.1]), activation_beta: Fs([0.45, 1.2, 0.9]) },
  });
  await againstOrt('LSTM', { S: 4, B: 2, I: 3, H: 5, attrs: { input_forget: 1, direction: 'reverse' }, h0: true });
});

test('GRU: both linear_before_reset, LeakyRelu with alpha, absent Y, bidirectional with sequence_lens = onnxruntime (onnxruntime has no layout 1: the C test and the node suite cover it)', async () => {
  for (const lbr of [0, 1]) {
    await againstOrt('GRU', { S: 4, B: 2, I: 3, H: 5, attrs: { linear_before_reset: lbr, activations: Ss(['Sigmoid', 'LeakyRelu']), activation_alpha: Fs([0.2]) }, h0: true });
    await againstOrt('GRU', { S: 3, B: 2, I: 2, H: 4, D: 2, outs: ['', 'Yh'], attrs: { direction: 'bidirectional', linear_before_reset: lbr }, lens: [3, 1] });
  }
});

test('RNN: Relu / Affine / Elu activations, opset 7, bidirectional with sequence_lens = onnxruntime', async () => {
  await againstOrt('RNN', { S: 4, B: 2, I: 3, H: 5, opset: 7, attrs: { activations: Ss(['Relu']) } });
  await againstOrt('RNN', { S: 3, B: 3, I: 2, H: 4, D: 2, attrs: { direction: 'bidirectional', activations: Ss(['Affine', 'Elu']), activation_alpha: Fs([0.5, 0.7]), activation_beta: Fs([0.1]) }, lens: [3, 2, 1], h0: true });
});

test('opset 6 models (RNN-1, GRU-3, LSTM-1: output_sequence allowed) give the bytes of the same node at opset 7', () => {
  // onnxruntime implements only versions 7+ of these ops, so the older form is held to the newer
  for (const [op, attrs] of [['RNN', { output_sequence: 1 }], ['GRU', { linear_before_reset: 1 }], ['LSTM', { output_sequence: 0 }]]) {
    const m = model(op, { S: 3, B: 2, I: 3, H: 4, opset: 6, attrs });
    // the same model (same weights) as an opset-7 one without output_sequence
    const p7 = onnx.ModelProto.decode(m.bytes);
    p7.opsetImport[0].version = 7;
    p7.graph.node[0].attribute = p7.graph.node[0].attribute.filter((a) => a.name !== 'output_sequence');
    const run = (bytes) => {
      const s = rt.load(convert(bytes).holo);
      const out = s.execute([m.feeds.X]);
      s.dispose();
      return out.map((o) => Buffer.from(o.data.buffer, o.data.byteOffset, o.data.byteLength).toString('hex'));
    };
    assert.equal(run(m.bytes), run(onnx.ModelProto.encode(p7).finish()), op);
  }
  assert.throws(() => convert(model('RNN', { S: 2, B: 1, I: 2, H: 2, opset: 7, attrs: { output_sequence: 1 } }).bytes), /attribute 'output_sequence' is not part of opset 7/);
});

test('converter refusals name the op and the reason', () => {
  const refuse = (op, cfg, re) => assert.throws(() => convert(model(op, cfg).bytes), re);
  refuse('LSTM', { S: 2, B: 1, I: 2, H: 2, layout: 1, opset: 13 }, /attribute 'layout' is not part of opset 13/);
  refuse('GRU', { S: 2, B: 1, I: 2, H: 2, attrs: { activations: Ss(['Sigmoid', 'Swish']) } }, /activation 'Swish' is not one ONNX defines for GRU/);
  refuse('RNN', { S: 2, B: 1, I: 2, H: 2, attrs: { activations: Ss(['Tanh', 'Tanh']) } }, /2 activations given, RNN with 1 direction\(s\) takes 1/);
  refuse('LSTM', { S: 2, B: 1, I: 2, H: 2, D: 2, attrs: { direction: 'bidirectional', activations: Ss(['Sigmoid', 'Tanh', 'Tanh']) } }, /3 activations given, LSTM with 2 direction\(s\) takes 6/);
  refuse('LSTM', { S: 2, B: 1, I: 2, H: 2, attrs: { direction: 'sideways' } }, /direction 'sideways'/);
  refuse('RNN', { S: 2, B: 1, I: 2, H: 2, attrs: { activations: Ss(['ScaledTanh']), activation_alpha: Fs([0.5]) } }, /ScaledTanh needs its alpha and beta/);
});

test.run();
