// LSTM, GRU and RNN (versions 1, 3 (GRU), 7, 14; 22 adds types only) onto one canonical form
// for the kernels (kernels-wasm-simd/operators/recurrent.c): the inputs as
// the model gives them ('' where absent), and every attribute written out:
// hidden_size (from R's shape when the model leaves it out), direction,
// layout (0 before opset 14), activations as ONE string of the names joined
// by ',' (the .holo format has no STRINGS attribute), and activation_alpha /
// activation_beta with one value per activation.
//
// ONNX says the alpha/beta lists are "consumed in the order of activation
// functions": as onnxruntime reads it, each activation that takes an alpha
// (beta) takes the next value of the list, or its ONNX default when the
// list is used up; the others take none. Names are matched without regard
// to case (onnxruntime does too). A list of another length than
// per-direction count x directions is refused (onnxruntime refuses it too).
// Y, Y_h and Y_c may each be absent: the converter names the ones before the
// last present output (the kernel writes its outputs in order).
import { A, attr, Unsupported } from './ir.js';

const CELLS = {
  RNN: { acts: ['Tanh'], own: [] },
  GRU: { acts: ['Sigmoid', 'Tanh'], own: ['linear_before_reset'] },
  LSTM: { acts: ['Sigmoid', 'Tanh', 'Tanh'], own: ['input_forget'] },
};
// [alpha default, beta default]; null: the function takes no such value
const ACTS = {
  Relu: [null, null], Tanh: [null, null], Sigmoid: [null, null], Affine: [1.0, 0.0], LeakyRelu: [0.01, null],
  ThresholdedRelu: [1.0, null], ScaledTanh: [null, null] /* both required: below */, HardSigmoid: [0.2, 0.5], Elu: [1.0, null],
  Softsign: [null, null], Softplus: [null, null],
};
const BY_LOWER = new Map(Object.keys(ACTS).map((k) => [k.toLowerCase(), k]));

function activations(n, op, D) {
  const per = CELLS[op].acts.length;
  const given = n.attrs.activations;
  if (given && given.type !== 'strings') throw new Unsupported(`attribute 'activations' is of type ${given.type}, expected strings`);
  let names = given ? given.value : Array.from({ length: D }, () => CELLS[op].acts).flat();
  names = names.map((s) => {
    const k = BY_LOWER.get(String(s).toLowerCase());
    if (!k) throw new Unsupported(`activation '${s}' is not one ONNX defines for ${op}`);
    return k;
  });
  if (names.length !== per * D) throw new Unsupported(`${names.length} activations given, ${op} with ${D} direction(s) takes ${per * D}`);
  const al = [...attr(n, 'activation_alpha', [])], be = [...attr(n, 'activation_beta', [])];
  const alpha = [], beta = [];
  for (const k of names) {
    const [da, db] = ACTS[k];
    // ONNX's ScaledTanh op never gave its alpha and beta defaults (onnxruntime reads 0): refused rather than guessed
    if (k === 'ScaledTanh' && !(al.length && be.length)) throw new Unsupported(`activation ScaledTanh needs its alpha and beta in activation_alpha / activation_beta (ONNX defines no default)`);
    alpha.push(k === 'ScaledTanh' ? al.shift() : da === null ? 0 : al.length ? al.shift() : da);
    beta.push(k === 'ScaledTanh' ? be.shift() : db === null ? 0 : be.length ? be.shift() : db);
  }
  return { activations: A.string(names.join(',')), activation_alpha: A.floats(alpha), activation_beta: A.floats(beta) };
}

function recurrent(op) {
  const own = CELLS[op].own;
  return {
    attrs: ['activation_alpha', 'activation_beta', 'activations', 'clip', 'direction', 'hidden_size', 'layout', 'output_sequence', ...own],
    out0Optional: true,
    norm(ctx, n) {
      if (n.attrs.layout && ctx.opset < 14) throw new Unsupported(`attribute 'layout' is not part of opset ${ctx.opset}`);
      if (n.attrs.output_sequence && ctx.opset >= 7) throw new Unsupported(`attribute 'output_sequence' is not part of opset ${ctx.opset}`);
      if (op === 'GRU' && n.attrs.linear_before_reset && ctx.opset < 3) throw new Unsupported(`attribute 'linear_before_reset' is not part of opset ${ctx.opset}`);
      const direction = attr(n, 'direction', 'forward');
      if (!['forward', 'reverse', 'bidirectional'].includes(direction)) throw new Unsupported(`direction '${direction}' is not forward, reverse or bidirectional`);
      const D = direction === 'bidirectional' ? 2 : 1;
      let hs = attr(n, 'hidden_size', null);
      if (hs === null) {
        const r = ctx.shape(n.inputs[2]);
        if (!r || typeof r[2] !== 'number') throw new Unsupported(`attribute 'hidden_size' is absent and R's shape is not known`);
        hs = r[2];
      }
      const a = { hidden_size: A.int(hs), direction: A.string(direction), layout: A.int(attr(n, 'layout', 0)), ...activations(n, op, D) };
      if (n.attrs.clip !== undefined) a.clip = A.float(attr(n, 'clip', 0));
      for (const k of own) a[k] = A.int(attr(n, k, 0));
      const outs = ctx.trimOutputs(n.outputs).map((o, k) => o || ctx.tmp(`${n.outputs.find(Boolean)}_${op}_out${k}`));
      ctx.emit(op, n.inputs, outs, a);
    },
  };
}

export const RNN_OPS = { RNN: recurrent('RNN'), GRU: recurrent('GRU'), LSTM: recurrent('LSTM') };
