// `make run`, WASI step: the WASI program build/wasm/holo.wasm (under
// node:wasi; wasmtime runs the same file) classifies the first held-out digit,
// which examples/digits.mjs left in build/demo/, and its output is compared
// byte for byte with the npm package's.
//
//   node examples/digits-wasi.mjs [archive]
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';

const archive = process.argv[2] ?? 'web-demo/model/digits.holo';
const js = JSON.parse(fs.readFileSync('build/demo/digit.json', 'utf8'));
const px = new Float32Array(new Uint8Array(fs.readFileSync('build/demo/digit.f32')).buffer);
const jsProbs = new Uint8Array(fs.readFileSync('build/demo/digit-probs.f32'));
const out = 'build/demo/wasi-probs.npy';
fs.rmSync(out, { force: true });

const shades = ' .:-=+*#%@';
const rows = [];
for (let y = 0; y < 28; y += 2) {
  let r = '';
  for (let x = 0; x < 28; x++) r += shades[Math.min(9, Math.round(((px[y * 28 + x] + px[(y + 1) * 28 + x]) / 2) * 9))];
  if (r.trim()) rows.push('  |' + r + '|');
}
console.log(`held-out digit #0 (true class ${js.truth}):`);
console.log(rows.join('\n'));

const argv = ['run', archive, '-i', 'build/demo/digit.f32', '--input-dtype', 'float32', '--shape', '1,1,28,28', '--output', `probs=${out}`];
console.log(`$ wasmtime run --dir . build/wasm/holo.wasm ${argv.join(' ')}   (here: node tools/wasi-run.mjs ...)`);
const r = spawnSync(process.execPath, ['tools/wasi-run.mjs', ...argv], { encoding: 'utf8', timeout: 20000 });
if (r.error || r.status !== 0) {
  console.error(r.stdout, r.stderr, r.error ?? '');
  console.error(`WASI program failed (exit ${r.status})`);
  process.exit(1);
}
for (const line of r.stdout.split('\n')) {
  if (/^(load_ms|output|execute_ms)/.test(line)) console.log('  ' + line);
  else if (line.startsWith('counters:')) console.log('  counters: ' + line.split(' ').filter((f) => /^(executions|dispatches|elided|memo_hits|resident_bytes)=/.test(f)).join(' '));
}

// .npy v1-3: magic, version, header length (u16 v1, u32 v2+), header, data.
const npy = new Uint8Array(fs.readFileSync(out));
const major = npy[6];
const hlen = major === 1 ? npy[8] | (npy[9] << 8) : new DataView(npy.buffer, npy.byteOffset).getUint32(8, true);
const data = npy.slice((major === 1 ? 10 : 12) + hlen);
const probs = new Float32Array(data.buffer);
const pred = probs.reduce((b, v, k) => (v > probs[b] ? k : b), 0);
const same = data.length === jsProbs.length && data.every((b, i) => b === jsProbs[i]);
console.log(`WASI predicts ${pred} (p = ${probs[pred].toFixed(4)}); npm package predicted ${js.pred}; true class ${js.truth}`);
console.log(`output bytes ${same ? 'identical to' : 'DIFFER from'} the npm package's (${probs.length} float32)`);
if (!same || pred !== js.pred) process.exitCode = 1;
