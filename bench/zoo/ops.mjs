// What a zoo model needs that hologram-exec lacks, beyond the first refusal
// the converter stops at: every op type of the ONNX graph, split into ops the
// converter has no mapping for and ops it maps that have no kernel in the
// backend (shape ops like Shape/Gather/Range need none when they fold, which
// they do when the shapes are static). For docs/zoo.md's per-model table.
//   node bench/zoo/ops.mjs DIR KEY...        (one JSON line per model)
import fs from 'node:fs';
import path from 'node:path';
import { readModel } from '../../compiler/onnx-reader.js';
import { OPS } from '../../compiler/onnx-ops.js';
import { backendHasOp, getDefaultRuntime } from '../../compiler/convert.js';
import { loadManifest, selectModels } from './manifest.mjs';

const FOLDS = new Set(['Shape', 'Size', 'Gather', 'Unsqueeze', 'Squeeze', 'Cast', 'Slice', 'ConstantOfShape', 'Range', 'Constant']);
// removed or folded by the converter's rewrites (remove-identity, fuse-batchnorm), so no kernel is needed
const REWRITTEN = new Set(['Identity', 'Dropout', 'BatchNormalization']);
const [dir, ...keys] = process.argv.slice(2);
const rt = getDefaultRuntime();
for (const e of selectModels(loadManifest(dir), keys)) {
  if (e.error) continue;
  const g = readModel(fs.readFileSync(path.join(dir, e.file))).graph;
  const count = {};
  for (const n of g.nodes) { const k = n.domain && n.domain !== 'ai.onnx' ? `${n.domain}.${n.opType}` : n.opType; count[k] = (count[k] ?? 0) + 1; }
  const unmapped = Object.keys(count).filter((op) => !OPS[op]).sort();
  const noKernel = Object.keys(count).filter((op) => OPS[op] && !REWRITTEN.has(op) && !backendHasOp(rt, op)).sort();
  console.log(JSON.stringify({ key: e.key, nodes: g.nodes.length, unmapped, no_kernel: noKernel.filter((op) => !FOLDS.has(op)), no_kernel_shape_ops: noKernel.filter((op) => FOLDS.has(op)), count }));
}
process.exit(0);
