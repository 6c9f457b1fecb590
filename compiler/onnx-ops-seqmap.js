// SequenceMap (opset 17) as the Loop its ONNX function body is: a trip
// count of the first sequence's length, one output sequence per body output
// carried (SequenceEmpty, then SequenceInsert of each iteration's value),
// each sequence input read at the iteration by SequenceAt and each tensor
// input as it is. The Loop's normalizer then does the rest: over a sequence
// the converter tracks, the trip count folds and the loop unrolls into the
// body's own nodes; over a run-time sequence it is a Loop construct.
import { Unsupported } from './ir.js';
import { CONTROL_OPS } from './onnx-ops-control.js';
import { SEQUENCE_OPS } from './onnx-ops-seq.js';
import { isList, SEQ } from './seq-values.js';

const OPS = Object.create(null);

function loopBody(ctx, n, body, tag) {
  const it = `${tag}/iter`, condIn = `${tag}/cond_in`, condOut = `${tag}/cond_out`;
  const accIn = body.outputs.map((_, j) => `${tag}/acc${j}_in`), accOut = body.outputs.map((_, j) => `${tag}/acc${j}_out`);
  const nodes = [{ opType: 'Identity', domain: '', name: `${tag}/cond`, inputs: [condIn], outputs: [condOut], attrs: Object.create(null) }];
  n.inputs.forEach((x, i) => {
    const seq = ctx.seq(x) ? !ctx.value(x).optional : ctx.value(x).dtype === SEQ;
    if (!seq && (ctx.seq(x) || isList(ctx.value(x)))) throw new Unsupported(`input ${i} is an optional; SequenceMap takes sequences and tensors`);
    const op = seq ? 'SequenceAt' : 'Identity';
    nodes.push({ opType: op, domain: '', name: `${tag}/in${i}`, inputs: seq ? [x, it] : [x], outputs: [body.inputs[i].name], attrs: Object.create(null) });
  });
  nodes.push(...body.nodes);
  body.outputs.forEach((o, j) => nodes.push({ opType: 'SequenceInsert', domain: '', name: `${tag}/out${j}`, inputs: [accIn[j], o.name], outputs: [accOut[j]], attrs: Object.create(null) }));
  const scalar = (name, dtype) => ({ name, dtype, shape: [] });
  return {
    name: `${tag}/body`, nodes, initializers: body.initializers ?? [],
    inputs: [scalar(it, 7), scalar(condIn, 9), ...accIn.map((name) => ({ name, dtype: SEQ, shape: null }))],
    outputs: [scalar(condOut, 9), ...accOut.map((name) => ({ name, dtype: SEQ, shape: null }))],
  };
}

OPS.SequenceMap = {
  attrs: ['body'],
  graphAttrs: ['body'],
  norm(ctx, n) {
    const body = n.attrs.body?.value;
    if (!body) throw new Unsupported("required subgraph attribute 'body' is missing");
    if (body.inputs.length !== n.inputs.length) throw new Unsupported(`the body declares ${body.inputs.length} inputs for ${n.inputs.length}`);
    if (body.outputs.length !== n.outputs.length) throw new Unsupported(`the body gives ${body.outputs.length} outputs for ${n.outputs.length}`);
    const tag = n.name || n.outputs[0];
    const len = ctx.tmp(`${tag}/len`);
    SEQUENCE_OPS.SequenceLength.norm(ctx, { ...n, opType: 'SequenceLength', inputs: [n.inputs[0]], outputs: [len], attrs: Object.create(null) });
    const inits = body.outputs.map((o, j) => {
      if (!o.dtype || o.list) throw new Unsupported(`body output ${j} must be a tensor of a declared dtype`);
      const e = ctx.tmp(`${tag}/empty${j}`);
      SEQUENCE_OPS.SequenceEmpty.norm(ctx, { ...n, opType: 'SequenceEmpty', inputs: [], outputs: [e], attrs: { dtype: { type: 'int', value: o.dtype } } });
      return e;
    });
    const loop = { ...n, opType: 'Loop', inputs: [len, '', ...inits], attrs: { body: { type: 'graph', value: loopBody(ctx, n, body, tag) } } };
    CONTROL_OPS.Loop.norm(ctx, loop);
  },
};

export const SEQMAP_OPS = OPS;
