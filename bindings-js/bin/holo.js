#!/usr/bin/env node
// holo — the hologram-exec Node CLI.
//
//   holo convert model.onnx -o model.holo [--shape name=1,3,224,224]... [--no-fold] [--no-fuse]
//   holo info model.holo
//
// Errors are printed as `holo: <message>`; exit code 2 when the converter
// refuses a model (unsupported op / opset / dtype...), 1 for anything else.
import fs from 'node:fs';
import { readHolo } from '../../compiler/holo-reader.js';

const USAGE = `usage:
  holo convert <model.onnx> -o <model.holo> [--shape name=d0,d1,...]... [--no-fold] [--no-fuse]
  holo info <model.holo>`;

class UsageError extends Error {}

function parseShape(spec) {
  const eq = spec.lastIndexOf('=');
  if (eq <= 0) throw new UsageError(`--shape expects name=d0,d1,... (got '${spec}')`);
  const name = spec.slice(0, eq), rest = spec.slice(eq + 1);
  const dims = rest === '' ? [] : rest.split(',').map((d) => {
    if (!/^[0-9]+$/.test(d.trim())) throw new UsageError(`--shape ${name}: '${d}' is not a non-negative integer`);
    return Number(d.trim());
  });
  return [name, dims];
}

async function cmdConvert(args) {
  let input, output, fold = true, fuse = true;
  const shapes = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-o' || a === '--output') output = args[++i];
    else if (a.startsWith('--output=')) output = a.slice(9);
    else if (a === '--shape') { const [k, v] = parseShape(args[++i] ?? ''); shapes[k] = v; }
    else if (a.startsWith('--shape=')) { const [k, v] = parseShape(a.slice(8)); shapes[k] = v; }
    else if (a === '--no-fold') fold = false;
    else if (a === '--no-fuse') fuse = false;
    else if (a.startsWith('-')) throw new UsageError(`unknown option '${a}'`);
    else if (!input) input = a;
    else throw new UsageError(`unexpected argument '${a}'`);
  }
  if (!input || !output) throw new UsageError('convert needs an input model and -o <output>');
  const bytes = fs.readFileSync(input);
  const { convert } = await import('../../compiler/convert.js');
  let r;
  try {
    r = convert(bytes, { shapes, fold, fuse });
  } catch (e) {
    e.refusal = !(e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError);
    throw e;
  }
  fs.writeFileSync(output, r.holo);
  const rep = r.report;
  const ops = Object.entries(rep.opsOut).map(([k, v]) => `${k}x${v}`).join(' ');
  console.log(`wrote ${output}: ${r.holo.length} bytes, ${rep.nodes} nodes (${ops || 'none'}), ${rep.constants} constants, opset ${rep.opset}`);
  for (const p of rep.inputs) console.log(`  input  ${p.name}: ${p.dtype}[${p.shape.join(',')}]`);
  for (const p of rep.outputs) console.log(`  output ${p.name}: ${p.dtype}${p.shape ? `[${p.shape.join(',')}]` : '[?]'}`);
  for (const l of rep.rewrites) console.log(`  ${l}`);
  if (!rep.backendChecked) console.error('holo: warning: the wasm runtime is unavailable (build it with make build); ops were not checked against the backend and nothing was folded through it');
}

async function cmdInfo(args) {
  if (args.length !== 1) throw new UsageError('info needs one archive');
  const bytes = new Uint8Array(fs.readFileSync(args[0]));
  const { init } = await import('../index.js');
  const rt = await init();
  const s = rt.load(bytes);
  try {
    const shape = (sh) => (sh ? `[${sh.join(',')}]` : '[?]');
    console.log(`archive  ${args[0]} (${bytes.length} bytes)`);
    console.log(`label    ${s.archiveLabel}`);
    console.log(`backend  ${s.backend}`);
    console.log(`kernels  ${s.kernelCount}`);
    console.log(`resident ${s.residentCount} constants, ${s.residentBytes} bytes`);
    for (const p of s.inputs) console.log(`input    ${p.name}: ${p.dtype}${shape(p.shape)}`);
    for (const p of s.outputs) console.log(`output   ${p.name}: ${p.dtype}${shape(p.shape)}`);
    const g = readHolo(bytes);
    const ops = {};
    for (const n of g.nodes) ops[n.op] = (ops[n.op] ?? 0) + 1;
    console.log(`nodes    ${g.nodes.length}${g.nodes.length ? ': ' + Object.entries(ops).map(([k, v]) => `${k}x${v}`).join(' ') : ''}`);
    for (const [k, v] of g.meta ?? []) console.log(`meta     ${k} = ${v}`);
  } finally {
    s.dispose();
  }
}

async function main(argv) {
  const [cmd, ...args] = argv;
  if (!cmd || cmd === '-h' || cmd === '--help' || cmd === 'help') { console.log(USAGE); return 0; }
  if (cmd === 'convert') await cmdConvert(args);
  else if (cmd === 'info') await cmdInfo(args);
  else throw new UsageError(`unknown command '${cmd}'`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (e) => {
    if (e instanceof UsageError) { console.error(`holo: ${e.message}\n${USAGE}`); process.exitCode = 1; return; }
    console.error(`holo: ${e.message}`);
    process.exitCode = e.refusal ? 2 : 1;
  },
);
