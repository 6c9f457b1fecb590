// ONNX -> .holo converter.
//
//   convert(onnxBytes, { shapes, runtime, checkBackend, producer, externalData }) -> { holo, graph, report }
//
// externalData: the bytes of tensors the model keeps in side files (ONNX
//   external data): a function (location, offset, length) => Uint8Array or an
//   object { [location]: Uint8Array } (compiler/onnx-external.js; locations
//   are checked to stay inside the model's directory before either is asked).
//   Without it such a model is refused, saying how to give them.
//
// shapes: { inputName: [dims] } specialises symbolic input dims (a symbol bound
//   by one input is bound in every input that uses it).
// runtime: a Runtime from bindings-js `init()` used for checking that the
//   backend has a kernel for every op; by default one instance is created when
//   this module is imported (if the wasm is built). `runtime: null` disables
//   the check and folding through the runtime.
// fold: default true — all-constant nodes are computed by the runtime's own
//   kernels (compiler/fold-runtime.js: the shipped scalar core, one instance
//   per convert() call, whatever `runtime` is, so folded bytes do not depend
//   on the caller's variant or threads). `fold: false` leaves them in the
//   graph (the runtime's constant cone computes them at load); JS still folds
//   the symbolic shape arithmetic (rewrites/fold-constants.js).
// checkBackend: default true (needs a runtime) — refuse ops the backend lacks.
// halfRounding: where a float16 graph's values are rounded to float16 (they are
//   computed in f32: rewrites/widen-half.js). Default 'onnxruntime': where
//   onnxruntime's CPU provider rounds them (rewrites/f16-rounding-points.js,
//   docs/decisions.md 77: a chain of f16 ops it has no f16 kernel for runs in
//   f32); 'onnx': every f16 value, the ONNX rule.
// onProgress(stage, done, total): called as the conversion advances; stages
//   'decode', 'nodes' (done of total ONNX nodes), 'rewrites', 'emit'.
// fuse: default true — the kernel-contract rewrites (docs/converter.md):
//   fuse-layernorm, fuse-matmul-scale, fuse-matmul-bias, fuse-relu, fuse-clip. Same output bytes as the
//   unfused graph, but for fuse-qdq (QDQ onto the integer ops: onnxruntime's
//   default-level bytes, decision 66); `fuse: false` emits the op-for-op graph. Weight layouts are
//   the backend's (a MatMul/Gemm's constant B is packed by its kernel at the
//   first execution, docs/decisions.md 32): nothing here depends on a tile.
//
// Pipeline: decode (onnx-reader) -> import values -> normalize every node (opsets
// 1..23, compiler/onnx-ops-opset21.js for what 19..23 changed) to its
// opset-18 form with explicit attribute defaults (onnx-ops), inferring shapes
// and folding constants as it goes -> rewrites: remove-identity,
// fuse-batchnorm, fold-constants, dead-nodes, then (fuse) fuse-layernorm,
// fuse-matmul-scale, fuse-matmul-bias, fuse-relu, fuse-clip, dead-nodes -> backend check -> GraphBuilder
// -> writeHolo. Anything that cannot be converted exactly throws an Error
// naming the op, the node and what is missing.
import { readModel, dtypeName } from './onnx-reader.js';
import { IR, DT, DTYPE_SIZE } from './ir.js';
import { normalizeNodes, nodeDesc } from './normalize.js';
import { GraphBuilder } from './graph.js';
import { writeHolo } from './holo-writer.js';
import { removeIdentity } from './rewrites/remove-identity.js';
import { foldConstants, outputBytes, nodeWork, FOLD_TOTAL_FACTOR, FOLD_TOTAL_SLACK } from './rewrites/fold-constants.js';
import { compileFoldCore, foldHost, KernelFolder, FOLD_VARIANT } from './fold-runtime.js';
import { fuseBatchNorm } from './rewrites/fuse-batchnorm.js';
import { removeDeadNodes } from './rewrites/dead-nodes.js';
import { fuseMatMulBias } from './rewrites/fuse-matmul-bias.js';
import { fuseMatMulScale } from './rewrites/fuse-matmul-scale.js';
import { fuseQMatMulFloat } from './rewrites/fuse-qmatmul-float.js';
import { fuseRelu, fuseClip } from './rewrites/fuse-relu.js';
import { fuseSilu, fuseGelu, fuseActivation } from './rewrites/fuse-activation.js';
import { fuseLayerNorm } from './rewrites/fuse-layernorm.js';
import { topoSort } from './toposort.js';
import { widenHalf } from './rewrites/widen-half.js';
import { ortHalfCasts } from './rewrites/f16-rounding-points.js';
import { fuseQdq } from './rewrites/fuse-qdq.js';
import { allNodes } from './control-graphs.js';
import { emitNodes, emitGraphsOf, captureRename } from './emit-graphs.js';
import { TRAINING_OPS, TRAINING_DOMAIN } from './onnx-ops-training.js';
import { ML_DOMAIN } from './onnx-ops-ml.js';
import { settleEntropy } from './onnx-ops-random.js';

export const MIN_OPSET = 1;
// Opsets 22 and 23 changed no semantics of an op the converter takes: 22 added
// bfloat16 to 48 ops, 23 added float4e2m1 to 18 and the new ops Attention,
// RMSNormalization and RotaryEmbedding (onnx-ops-opset21.js; docs/decisions.md 79).
// 24 (Swish, TensorScatter, Attention-24, float8e8m0) is refused until each
// change is read.
export const MAX_OPSET = 23;
export const PRODUCER = 'hologram-exec onnx converter 1';

// One runtime for backend checks, created at import when possible, and the
// compiled fold core (instantiated once per convert() call that folds).
// (make pkg-compiler points this path at the package's own index.js.)
const SHIM = '../bindings-js/index.js';
let defaultRuntime = null, foldCore = null, foldHostFns = {}, ShimRuntime = null;
try {
  const shim = await import(SHIM);
  ShimRuntime = shim.Runtime;
  [defaultRuntime, foldCore, foldHostFns] = await Promise.all([shim.init(), compileFoldCore(new URL(SHIM, import.meta.url)).catch(() => null), foldHost()]);
} catch {
  defaultRuntime = null;
}
export const getDefaultRuntime = () => defaultRuntime;

const backendOps = new WeakMap(); // runtime -> Map(op -> bool)

/** Does the runtime's backend have a kernel for `op`? (Loads a one-node archive; cached.) */
export function backendHasOp(rt, op) {
  let m = backendOps.get(rt);
  if (!m) backendOps.set(rt, (m = new Map()));
  if (m.has(op)) return m.get(op);
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, [1]);
  const [y] = g.node(op, [x], { name: 'probe' });
  g.output(y);
  let ok = true;
  try {
    rt.load(writeHolo(g.toJSON())).dispose();
  } catch (e) {
    ok = !(e.code === 'UNSUPPORTED' && /unsupported op/.test(e.message));
  }
  m.set(op, ok);
  return ok;
}

export const TRIAL_LOAD_FACTOR = 2;
export const TRIAL_LOAD_SLACK = 64 * 1024 * 1024;
export const TRIAL_LOAD_WORK = 2 ** 28;

/**
 * How convert() trial-loads its own archive: { memoryBudget, warmCone,
 * coneBytes } (the first two are load() options; report.trialLoad). The budget is 64 MiB + 2x the archive: the runtime
 * refuses (BUDGET) any constant-cone value over it before allocating it. The
 * cone's values are pinned, so the budget bounds each, not their sum: when
 * the values the load would compute before its first over-budget one
 * (sizes from shape inference; an unknown size counts as its inputs') add up
 * to more than the budget, or their MatMul/Gemm/Conv work to more than 2^28
 * multiply-adds (seconds of a 32 MiB MatMul's time), the trial load does not
 * compute the cone (warmCone: false) and checks everything else.
 */
export function trialLoadOptions(ir, holo) {
  const memoryBudget = TRIAL_LOAD_SLACK + TRIAL_LOAD_FACTOR * holo.length;
  const size = new Map(); // cone value -> bytes
  const bytesOf = (i) => (ir.isConst(i) ? ir.get(i).bytes.length : size.get(i));
  let sum = 0, work = 0;
  for (const n of ir.nodes) {
    const ins = n.inputs.filter(Boolean);
    if (!ins.every((i) => ir.isConst(i) || size.has(i))) continue;
    const b = outputBytes(ir, n) ?? ins.reduce((a, i) => a + bytesOf(i), 0);
    if (b > memoryBudget) break; // the load stops here, with BUDGET
    for (const o of n.outputs) if (o) size.set(o, b);
    sum += b;
    work += nodeWork(ir, n);
  }
  return { memoryBudget, warmCone: sum <= memoryBudget && work <= TRIAL_LOAD_WORK, coneBytes: sum, coneWork: work };
}

function symbolFor(inputName, k, used) {
  let s = `${inputName}_d${k}`, i = 0;
  while (used.has(s)) s = `${inputName}_d${k}_${++i}`;
  used.add(s);
  return s;
}

export function convert(onnxBytes, opts = {}) {
  const runtimeRt = opts.runtime === undefined ? defaultRuntime : opts.runtime;
  const canFold = opts.fold !== false && opts.runtime !== null && foldCore && ShimRuntime;
  const fold = new KernelFolder(canFold ? () => new ShimRuntime(foldCore, FOLD_VARIANT, foldHostFns) : null);
  try {
    return convertWith(onnxBytes, opts, runtimeRt, fold);
  } finally {
    fold.dispose();
  }
}

/**
 * The model's default-domain opset; refuses other domains in use and opsets
 * outside MIN_OPSET..MAX_OPSET. ai.onnx.preview.training version 1 is
 * accepted for its deterministic ops (onnx-ops-training.js); a model of
 * those ops alone, with no default-domain import, is read as opset 18 (the
 * canonical form they are lowered to).
 */
function modelOpset(model) {
  for (const [dom, v] of Object.entries(model.opsets)) {
    if (dom === ML_DOMAIN && !(v >= 1 && v <= 5) && model.graph.nodes.some((n) => n.domain === dom))
      throw new Error(`unsupported opset domain '${dom}' version ${v}: versions 1..5 are supported`);
    // com.microsoft and ai.onnx.ml: their ops are taken or refused one by one (onnx-ops-msft.js, onnx-ops-ml.js)
    if (dom === '' || dom === 'ai.onnx' || dom === 'com.microsoft' || dom === ML_DOMAIN || !model.graph.nodes.some((n) => n.domain === dom)) continue;
    if (dom === TRAINING_DOMAIN) {
      if (v !== 1) throw new Error(`unsupported opset domain '${dom}' version ${v}: only version 1 is supported`);
      const other = model.graph.nodes.find((n) => n.domain === dom && !TRAINING_OPS[n.opType]);
      if (other) throw new Error(`unsupported op '${dom}.${other.opType}': only ${Object.keys(TRAINING_OPS).join(', ')} of domain '${dom}' are supported`);
      continue;
    }
    throw new Error(`unsupported opset domain '${dom}' (version ${v}): only the default ONNX domain is supported (and com.microsoft's, ${ML_DOMAIN}'s and ${TRAINING_DOMAIN}'s ops one by one)`);
  }
  let opset = model.opsets[''] ?? model.opsets['ai.onnx'];
  if (opset === undefined && model.graph.nodes.length && model.graph.nodes.every((n) => n.domain === TRAINING_DOMAIN)) opset = 18;
  if (opset === undefined) throw new Error('unsupported model: no default-domain opset_import');
  if (opset < MIN_OPSET || opset > MAX_OPSET) throw new Error(`unsupported opset ${opset}: hologram-exec converts opsets ${MIN_OPSET}..${MAX_OPSET}`);
  return opset;
}

/** Symbol -> number from opts.shapes (--shape), checked against the model's inputs. */
function bindShapes(g, shapes, inits) {
  const bind = new Map();
  for (const [name, dims] of Object.entries(shapes)) {
    const inp = g.inputs.find((i) => i.name === name && !inits.has(i.name));
    if (!inp) throw new Error(`--shape: '${name}' is not a graph input (inputs: ${g.inputs.filter((i) => !inits.has(i.name)).map((i) => i.name).join(', ')})`);
    if (!Array.isArray(dims) || !dims.every((d) => Number.isSafeInteger(d) && d >= 0)) throw new Error(`--shape ${name}: dims must be non-negative integers`);
    if (inp.shape && inp.shape.length !== dims.length) throw new Error(`--shape ${name}: rank ${dims.length} differs from the model's rank ${inp.shape.length}`);
    (inp.shape ?? []).forEach((d, k) => {
      if (typeof d === 'number' && d !== dims[k]) throw new Error(`--shape ${name}: dim ${k} is ${d} in the model, not ${dims[k]}`);
      if (typeof d === 'string') {
        if (bind.has(d) && bind.get(d) !== dims[k]) throw new Error(`--shape: symbol '${d}' bound to both ${bind.get(d)} and ${dims[k]}`);
        bind.set(d, dims[k]);
      }
    });
  }
  return bind;
}

/**
 * The graph's values into `ir`: initializers as constants, the other inputs
 * with their (specialised) shapes. Returns the initializers' names.
 */
function importValues(ir, g, shapes, report) {
  const inits = new Set();
  for (const t of g.initializers) {
    if (ir.has(t.name)) throw new Error(`initializer '${t.name}' is defined twice`);
    ir.addValue({ name: t.name, dtype: t.dtype, shape: t.dims, kind: 'const', bytes: t.bytes });
    inits.add(t.name);
  }
  const usedSyms = new Set();
  for (const inp of g.inputs) for (const d of inp.shape ?? []) if (typeof d === 'string') usedSyms.add(d);
  const bind = bindShapes(g, shapes, inits);
  for (const inp of g.inputs) {
    if (inits.has(inp.name)) continue; // an initializer that is also an input is a constant
    if (inp.list) {
      // a sequence or optional: one byte string of the encoding (docs/holo-format.md §4b)
      const shape = [symbolFor(inp.name, 0, usedSyms)];
      ir.addValue({ name: inp.name, dtype: inp.list.dtype, shape, kind: 'input', list: { elem: inp.list.elem, elemSeq: inp.list.elemSeq } });
      ir.inputs.push(inp.name);
      report.inputs.push({ name: inp.name, dtype: inp.list.dtype === 128 ? 'sequence' : 'optional', shape });
      continue;
    }
    if (inp.nonTensor) throw new Error(`unsupported input '${inp.name}': type ${inp.nonTensor} (only tensors are supported)`);
    if (!DTYPE_SIZE.has(inp.dtype)) throw new Error(`unsupported input '${inp.name}': data type ${dtypeName(inp.dtype)}`);
    let shape;
    if (Object.hasOwn(shapes, inp.name)) shape = [...shapes[inp.name]]; // own keys only: an input may be named 'constructor'
    else if (inp.shape === null) throw new Error(`unsupported input '${inp.name}': unknown rank (give it with --shape ${inp.name}=d0,d1,...)`);
    else shape = inp.shape.map((d, k) => (typeof d === 'string' ? (bind.has(d) ? bind.get(d) : d) : d === null ? symbolFor(inp.name, k, usedSyms) : d));
    if (shape.length > 8) throw new Error(`unsupported input '${inp.name}': rank ${shape.length} exceeds 8`);
    ir.addValue({ name: inp.name, dtype: inp.dtype, shape, kind: 'input' });
    ir.inputs.push(inp.name);
    report.inputs.push({ name: inp.name, dtype: dtypeName(inp.dtype), shape });
  }
  return inits;
}

function addGraphOutputs(ir, g) {
  for (const o of g.outputs) {
    // ir.get, not ir.has: '' (an absent optional) may be in the map as a placeholder
    const v = ir.get(o.name);
    if (!v) throw new Error(`graph output '${o.name}' is not produced by any node`);
    ir.outputs.push(o.name);
  }
}

/** Where float16 values round: onnxruntime's CPU provider's points (default) or every value ('onnx'). */
function halfRounding(opts) {
  const h = opts.halfRounding ?? 'onnxruntime';
  if (h !== 'onnxruntime' && h !== 'onnx') throw new Error(`halfRounding: '${h}' is not 'onnxruntime' or 'onnx'`);
  return h;
}

/** widen-half rewrites the top level only: a construct's graphs would keep their 16-bit values. */
function refuseHalfConstructs(ir) {
  const ctl = ir.nodes.find((n) => n.graphs);
  if (ctl && [...ir.values.values()].some((v) => v.dtype === DT.f16 || v.dtype === DT.bf16))
    throw new Error(`unsupported op '${ctl.op}' (${nodeDesc(ctl)}): a model with float16/bfloat16 values and an ${ctl.op} executed at run time (the converter widens 16-bit floats outside nested graphs only)`);
}

/** The graph rewrites, in order (docs/converter.md). */
function rewrite(ir, opts, fold) {
  removeIdentity(ir);
  fuseBatchNorm(ir);
  foldConstants(ir, { runtime: fold });
  removeDeadNodes(ir);
  // kernel-contract fusions run after folding (a fused node is no fold's business)
  if (opts.fuse !== false) {
    fuseLayerNorm(ir);
    fuseMatMulScale(ir);
    fuseMatMulBias(ir);
    fuseQMatMulFloat(ir);
    fuseRelu(ir);
    fuseClip(ir);
    fuseSilu(ir);
    fuseGelu(ir);
    fuseActivation(ir);
    removeDeadNodes(ir);
  }
}

/** What is left must be expressible (stored attribute types, distinct outputs) and, with `backendRt`, executable. */
function checkExpressible(ir, backendRt) {
  for (const n of allNodes(ir.nodes)) {
    if (n.graphs) continue; // a construct the runtime executes (docs/holo-format.md §4a), not a kernel
    for (const [k, a] of Object.entries(n.attrs))
      if (!['int', 'float', 'ints', 'floats', 'string'].includes(a.type))
        throw new Error(`unsupported op '${n.op}' (${nodeDesc(n)}): attribute '${k}' of type ${a.type} cannot be stored (it must fold to a constant)`);
    if (backendRt && !backendHasOp(backendRt, n.op))
      throw new Error(`unsupported op '${n.op}' (${nodeDesc(n)}): not implemented by hologram-exec (backend has no ${n.op} kernel${['Shape', 'Size', 'Gather', 'Unsqueeze', 'Squeeze', 'Cast', 'Slice', 'ConstantOfShape', 'Range'].includes(n.op) ? '; it did not fold to a constant' : ''})`);
  }
  const seenOut = new Set();
  for (const o of ir.outputs) {
    if (seenOut.has(o)) throw new Error(`graph outputs list value '${o}' twice after Identity removal (not expressible in .holo)`);
    seenOut.add(o);
  }
}

/** The graph JSON of `ir` (docs/holo-format.md §8): meta, inputs, constants at first use, nodes, outputs. */
function emitGraph(ir, model, opset, opts) {
  const gb = new GraphBuilder();
  gb.meta('producer', opts.producer ?? PRODUCER);
  if (model.producer) gb.meta('source', model.producer);
  gb.meta('opset', String(opset));
  const ids = new Map();
  const valueId = (name) => {
    if (!name) return null;
    if (ids.has(name)) return ids.get(name);
    const v = ir.get(name);
    if (v.kind !== 'const') throw new Error(`internal: value '${name}' used before definition`);
    const id = gb.constant(name, v.dtype, v.shape, v.bytes);
    ids.set(name, id);
    return id;
  };
  for (const name of ir.inputs) { const v = ir.get(name); ids.set(name, gb.input(name, v.dtype, v.shape)); }
  for (const n of ir.nodes) {
    const [ctl] = emitNodes(gb, ir, [n], valueId, ids, (x) => x);
    // a construct's graphs follow it (compiler/emit-graphs.js)
    if (ctl) emitGraphsOf(gb, ir, n, ctl[1], valueId, ids, captureRename(n));
  }
  for (const o of ir.outputs) gb.output(valueId(o));
  return gb.toJSON();
}

/**
 * The backend's own load is the last check: a graph it refuses (a kernel
 * that lacks these dtypes, an output too large to address) is refused
 * here, naming why, rather than written as a file that never loads. Only
 * this host's memory (MEMORY, BUDGET) is not held against the graph: the
 * trial load runs under a memory budget (trialLoadOptions), and a value
 * over it is 'converted; needs that memory at load'.
 */
function trialLoad(rt, ir, holo, report) {
  report.trialLoad = trialLoadOptions(ir, holo);
  try {
    rt.load(holo, { memoryBudget: report.trialLoad.memoryBudget, warmCone: report.trialLoad.warmCone }).dispose();
  } catch (e) {
    if (e?.code !== 'MEMORY' && e?.code !== 'BUDGET') throw new Error(`the backend refuses the converted graph: ${e?.message ?? String(e)}`, { cause: e });
    report.loadNeedsMemory = e.message;
  }
}

/** The report's summary of what was written. */
function summarize(report, ir, graph, fold, backendChecked) {
  report.backendChecked = backendChecked;
  report.wasmFolding = fold.available;
  report.folded = { runtime: { ...ir.foldStats?.runtime }, js: { ...ir.foldStats?.js }, overBudget: { ...ir.foldStats?.overBudget } };
  report.nodes = ir.nodes.length;
  report.constants = graph.values.filter((v) => v.kind === 'const').length;
  report.opsOut = {};
  for (const n of ir.nodes) report.opsOut[n.op] = (report.opsOut[n.op] ?? 0) + 1;
  report.outputs = ir.outputs.map((o) => ({ name: o, dtype: dtypeName(ir.get(o).dtype), shape: ir.get(o).shape }));
}

// Pipeline: decode -> opset -> values -> normalize -> outputs -> rewrites -> checks -> emit -> trial load.
function convertWith(onnxBytes, opts, runtimeRt, fold) {
  const checkBackend = opts.checkBackend ?? true;
  const shapes = opts.shapes ?? {};
  const progress = typeof opts.onProgress === 'function' ? opts.onProgress : () => {};
  progress('decode', 0, 1);
  const model = readModel(onnxBytes, { externalData: opts.externalData });
  progress('decode', 1, 1);
  const opset = modelOpset(model);
  const ir = new IR();
  ir.opset = opset;
  ir.mlOpset = model.opsets[ML_DOMAIN] ?? null; // ai.onnx.ml's version (LabelEncoder's NaN keys depend on it)
  // all folds of this conversion together: in proportion to the file, so a
  // chain of folds that each stay within 4x their inputs cannot compound;
  // the model's side files are part of it (a 1 GiB weight beside a 1 KiB graph)
  const modelBytes = (onnxBytes.byteLength ?? onnxBytes.length) + model.externalBytes;
  ir.foldLimit = { total: FOLD_TOTAL_FACTOR * modelBytes + FOLD_TOTAL_SLACK, used: 0 };
  const report = { opset, producer: model.producer, externalBytes: model.externalBytes, ops: {}, rewrites: ir.log, inputs: [], outputs: [] };
  // QDQ patterns onto the integer ops: before normalization lowers DequantizeLinear (rewrites/fuse-qdq.js)
  const q = opts.fuse !== false ? fuseQdq(model.graph) : { graph: model.graph, fused: 0 };
  if (q.fused) ir.log.push(`fuse-qdq: ${q.fused} DequantizeLinear -> op -> QuantizeLinear onto the integer core`);
  const g = q.graph;
  const inits = importValues(ir, g, shapes, report);
  const nodes = topoSort(g.nodes, new Set([...inits, ...g.inputs.map((i) => i.name)]));
  normalizeNodes(ir, g, nodes, { opset, fold, report, progress });
  addGraphOutputs(ir, g);
  progress('rewrites', 0, 1);
  // before the other rewrites: they and every kernel but Cast see f32 only
  refuseHalfConstructs(ir);
  report.halfCasts = halfRounding(opts) === 'onnxruntime' ? ortHalfCasts(ir) : null;
  report.half = widenHalf(ir);
  rewrite(ir, opts, fold);
  settleEntropy(ir, report, allNodes);
  const backendRt = checkBackend && runtimeRt ? runtimeRt : null;
  checkExpressible(ir, backendRt);
  progress('emit', 0, 1);
  const graph = emitGraph(ir, model, opset, opts);
  const holo = writeHolo(graph);
  if (backendRt) trialLoad(backendRt, ir, holo, report);
  summarize(report, ir, graph, fold, !!backendRt);
  return { holo, graph, report };
}
