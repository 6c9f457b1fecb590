#!/usr/bin/env node
// holo -- the hologram-exec command shipped in the npm package
// (`npx hologram-exec VERB ...`, or `holo VERB ...` once installed).
//
// One implementation per verb (docs/decisions.md 31): info, run, bench,
// verify, refine, generate, dump and --help are the C program (wasi/cli-*.c),
// run here as dist/wasi/holo.wasm under node:wasi (./wasi-runner.js) -- the same
// code and bytes as `wasmtime run --dir . holo.wasm VERB ...` and the native
// build/native/holo. Only `convert` is JavaScript, because the converter is
// (compiler/); `--version` is the package's.
//
//   holo convert model.onnx -o model.holo [--shape name=1,3,224,224]... [--no-fold] [--no-fuse] [--progress]
//   holo info model.holo        holo run model.holo -i x.npy -o out        holo --help
//
// Exit codes: 0 ok, 1 usage, 2 bad archive or model, 3 bad input, 4 resource
// (docs/cli.md). Every failure is one stderr line `holo: <file>: <cause>`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runHolo, holoOptions } from './wasi-runner.js';
import { externalFiles, ioCause } from './external-files.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const EXIT = { ok: 0, usage: 1, archive: 2, input: 3, resource: 4 };

const CONVERT_HELP = `usage: holo convert MODEL.onnx -o FILE.holo [--shape NAME=D0,D1,...]... [--no-fold] [--no-fuse] [--progress]
Converts an ONNX model (opsets 1..23) to a .holo archive.
  -o, --output FILE             the archive to write
  --shape NAME=D0,D1,...        specialise an input's symbolic dims (repeatable)
  --no-fold                     do not fold constant sub-graphs through the runtime
  --no-fuse                     emit the op-for-op graph (no bias/Relu fusion, no weight packing)
  --progress                    report progress on stderr (default: only when stderr is a terminal)
Needs the package onnx-proto (npm install onnx-proto); without it the verb explains and exits 4.
Tensors kept as ONNX external data are read from their side files beside the model
(their locations, relative to the model's directory; absolute paths, '..' and links out
of the directory are refused), only the byte ranges the tensors need.
A model the converter refuses (unsupported op, opset, dtype, missing side file...) exits 2.`;

class CliError extends Error {
  constructor(code, message) {
    super(message);
    this.exit = code;
  }
}
const usage = (msg) => new CliError(EXIT.usage, msg);
const fail = (code, file, cause) => new CliError(code, file ? `${file}: ${cause}` : cause);

function readFile(file, code) {
  try {
    return new Uint8Array(fs.readFileSync(file));
  } catch (e) {
    throw fail(e && (e.code === 'ENOMEM' || e.code === 'ERR_FS_FILE_TOO_LARGE') ? EXIT.resource : code, file, `cannot read: ${ioCause(e)}`);
  }
}
function writeFile(file, bytes) {
  try {
    fs.writeFileSync(file, bytes);
  } catch (e) {
    throw fail(e && e.code === 'ENOSPC' ? EXIT.resource : EXIT.input, file, `cannot write: ${ioCause(e)}`);
  }
}

// ---------------------------------------------------------------- convert

/** Splits argv by a spec { '--flag': 'value' | 'bool' }, accepting --flag=value; aliases map to a canonical name. */
function parseArgs(args, spec, aliases = {}) {
  const opts = { _: [], list: [] };
  for (let i = 0; i < args.length; i++) {
    let a = args[i], val;
    if (a === '--') { opts._.push(...args.slice(i + 1)); break; }
    if (!a.startsWith('-') || a === '-') { opts._.push(a); continue; }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) { val = a.slice(eq + 1); a = a.slice(0, eq); }
    const name = aliases[a] ?? a;
    const kind = spec[name];
    if (!kind) throw usage(`unknown option '${a}'`);
    if (kind === 'bool') {
      if (val !== undefined) throw usage(`${a} takes no value`);
      opts[name] = true;
      continue;
    }
    if (val === undefined) {
      if (i + 1 >= args.length) throw usage(`${a} needs a value`);
      val = args[++i];
    }
    opts.list.push([name, val]);
    opts[name] = val;
  }
  return opts;
}

function parseDims(s, what) {
  if (s === '' || s === '()' || s === 'scalar') return [];
  const parts = s.split(/[,x]/);
  if (!parts.every((d) => /^[0-9]+$/.test(d.trim()))) throw usage(`${what} ${s}: expected dims like 1,3,224,224`);
  return parts.map((d) => Number(d.trim()));
}

/**
 * The converter: in the repository, compiler/ (the sources); in the installed
 * package, bindings-js/compiler/ (the copy `make build` places there).
 */
async function importCompiler(file) {
  const repo = path.join(HERE, '..', '..', 'compiler', file);
  const inRepo = fs.existsSync(repo) && fs.existsSync(path.join(HERE, '..', '..', 'bindings-js', 'package.json'));
  return import(pathToFileURL(inRepo ? repo : path.join(HERE, '..', 'compiler', file)).href);
}

function progressReporter(enabled) {
  if (!enabled) return undefined;
  const t0 = performance.now();
  let last = -1, lastT = 0;
  const tty = process.stderr.isTTY;
  return (stage, done, total) => {
    const now = performance.now();
    const pct = total ? Math.floor((100 * done) / total) : 0;
    if (stage === 'nodes' && done < total && (pct === last || now - lastT < (tty ? 100 : 1000)) && done !== 0) return;
    last = pct; lastT = now;
    const msg = stage === 'nodes' ? `holo: converting: node ${done}/${total} (${pct}%)` : `holo: converting: ${{ decode: 'decoding the model', rewrites: 'rewriting and folding constants', emit: 'writing the archive' }[stage] ?? stage}${done ? ' done' : ''}`;
    const line = `${msg}, ${((now - t0) / 1000).toFixed(1)} s`;
    if (tty) process.stderr.write(`\r\x1b[K${line}`);
    else process.stderr.write(`${line}\n`);
  };
}

async function cmdConvert(args) {
  const o = parseArgs(args, { '--output': 'value', '--shape': 'value', '--no-fold': 'bool', '--no-fuse': 'bool', '--progress': 'bool' }, { '-o': '--output' });
  const shapes = {};
  for (const [flag, spec] of o.list) {
    if (flag !== '--shape') continue;
    const eq = spec.lastIndexOf('=');
    if (eq <= 0) throw usage(`--shape expects name=d0,d1,... (got '${spec}')`);
    shapes[spec.slice(0, eq)] = parseDims(spec.slice(eq + 1), `--shape ${spec.slice(0, eq)}:`);
  }
  if (o._.length > 1) throw usage(`unexpected argument '${o._[1]}'`);
  const input = o._[0], output = o['--output'];
  if (!input || !output) throw usage('convert needs an input model and -o <output>');
  const bytes = readFile(input, EXIT.archive);
  let convert;
  try {
    ({ convert } = await importCompiler('convert.js'));
  } catch (e) {
    if (e && e.code === 'ERR_MODULE_NOT_FOUND' && /onnx-proto|protobufjs/.test(e.message)) {
      throw fail(EXIT.resource, input, 'holo convert needs the optional package onnx-proto to read ONNX (npm install onnx-proto); run, info and bench do not');
    }
    if (e && e.code === 'ERR_MODULE_NOT_FOUND') throw fail(EXIT.resource, input, `the converter is not installed with this package (${e.message})`);
    throw e;
  }
  const tty = process.stderr.isTTY && !process.env.CI;
  const onProgress = progressReporter(o['--progress'] || (tty && bytes.length >= 1 << 20));
  let r;
  const ext = externalFiles(path.dirname(path.resolve(input)));
  try {
    const { init } = await import('../index.js');
    let runtime;
    try { runtime = await init(); } catch { runtime = undefined; }
    r = convert(bytes, { shapes, fold: !o['--no-fold'], fuse: !o['--no-fuse'], onProgress, externalData: ext.read, ...(runtime ? { runtime } : {}) });
  } catch (e) {
    if (onProgress && tty) process.stderr.write('\n');
    if (e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError) throw e;
    // a refusal: the converter's message names the op/opset/dtype (and starts with the subject)
    throw fail(EXIT.archive, input, e.message);
  } finally {
    ext.close();
  }
  if (onProgress && tty) process.stderr.write('\n');
  writeFile(output, r.holo);
  const rep = r.report;
  const ops = Object.entries(rep.opsOut).map(([k, v]) => `${k}x${v}`).join(' ');
  console.log(`wrote ${output}: ${r.holo.length} bytes, ${rep.nodes} nodes (${ops || 'none'}), ${rep.constants} constants, opset ${rep.opset}`);
  if (rep.externalBytes) console.log(`  external data: ${rep.externalBytes} bytes read from side files`);
  for (const p of rep.inputs) console.log(`  input  ${p.name}: ${p.dtype}[${p.shape.join(',')}]`);
  for (const p of rep.outputs) console.log(`  output ${p.name}: ${p.dtype}${p.shape ? `[${p.shape.join(',')}]` : '[?]'}`);
  for (const l of rep.rewrites) console.log(`  ${l}`);
  if (!rep.backendChecked) console.error('holo: warning: the wasm runtime is unavailable; ops were not checked against the backend and nothing was folded through it');
}

async function main(argv) {
  const [cmd, ...args] = argv;
  if (cmd === '--version' || cmd === '-V') {
    console.log(JSON.parse(fs.readFileSync(path.join(HERE, '..', 'package.json'), 'utf8')).version);
    return 0;
  }
  const convertHelp = cmd === 'help' && args[0] === 'convert';
  if (cmd !== 'convert' && !convertHelp) return runHolo(argv, holoOptions()); // every other verb, and --help: the C program
  if (convertHelp || args.includes('--help') || args.includes('-h')) {
    console.log(CONVERT_HELP);
    return 0;
  }
  await cmdConvert(args);
  return 0;
}

const isMain = process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url));
if (isMain) {
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; },
    (e) => {
      if (e instanceof CliError) {
        console.error(`holo: ${e.message}`);
        process.exitCode = e.exit;
        return;
      }
      console.error(`holo: ${e && e.message ? e.message : e}`);
      process.exitCode = e && e.code === 'ERR_WASM_OUT_OF_MEMORY' ? EXIT.resource : EXIT.archive;
    },
  );
}
