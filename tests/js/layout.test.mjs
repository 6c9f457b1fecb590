// The JS/wasm struct layouts (docs/decisions.md 29): bindings-js/dist/layout.js
// is generated from the C offsetof/sizeof values of bindings-js/src-c/layout.c,
// every core module carries the same table, the shim declares every field of
// every boundary struct and reads them only by name, and a module whose table
// differs is refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, PKG } from './helpers.mjs';
import { ROWS } from '../../bindings-js/dist/layout.js';
import { checkLayout, CONST, layoutDifferences, Struct } from '../../bindings-js/src/layout.js';
import { readRows } from '../../bindings-js/src/layout-rows.js';
import { statusCode } from '../../bindings-js/src/errors.js';
import { dtypeName } from '../../bindings-js/src/tensors.js';
import { layoutModuleText } from '../../tools/gen-layout.mjs';
import { init, HologramError } from '../../bindings-js/index.js';

const SRC = join(PKG, 'src');
const sources = readdirSync(SRC).filter((f) => f.endsWith('.js')).map((f) => [`src/${f}`, readFileSync(join(SRC, f), 'utf8')]);
sources.push(['index.js', readFileSync(join(PKG, 'index.js'), 'utf8')]);
const structs = [...new Set(ROWS.filter((r) => r[0]).map((r) => r[0]))];
const fieldsOf = (type) => ROWS.filter((r) => r[0] === type && r[1]);

test('dist/layout.js is what layout.c and the headers compile to now (clang-19, wasm32)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'holo-layout-'));
  try {
    const inc = ['runtime/include', 'generation/include', 'bindings-js/src-c'].flatMap((d) => ['-I', join(ROOT, d)]);
    const cc = spawnSync('clang-19', ['--target=wasm32', '-std=c11', '-Wall', '-Wextra', '-Werror', '-O2', '-ffreestanding', '-nostdlib', ...inc,
      '-c', join(PKG, 'src-c', 'layout.c'), '-o', join(dir, 'layout.o')], { encoding: 'utf8' });
    assert.is(cc.status, 0, `clang-19: ${cc.error ?? ''}${cc.stderr}`);
    const ld = spawnSync('wasm-ld-19', ['--no-entry', join(dir, 'layout.o'), '-o', join(dir, 'layout.wasm')], { encoding: 'utf8' });
    assert.is(ld.status, 0, `wasm-ld-19: ${ld.error ?? ''}${ld.stderr}`);
    const want = layoutModuleText(readFileSync(join(dir, 'layout.wasm')));
    assert.ok(want === readFileSync(join(PKG, 'dist', 'layout.js'), 'utf8'), 'bindings-js/dist/layout.js is stale: make build');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every shipped core module carries exactly the rows of dist/layout.js', () => {
  const wasm = readdirSync(join(PKG, 'dist')).filter((f) => f.endsWith('.wasm'));
  assert.ok(wasm.includes('hologram-simd128.wasm') && wasm.includes('hologram-simd128-threads.wasm'), wasm.join(' '));
  // A child: Node 20 compiles the relaxed module only behind a flag.
  const code = `import { readRows } from ${JSON.stringify(join(SRC, 'layout-rows.js'))};
    import { readFileSync } from 'node:fs';
    const out = {};
    for (const f of ${JSON.stringify(wasm)}) {
      const m = new WebAssembly.Module(readFileSync(${JSON.stringify(join(PKG, 'dist'))} + '/' + f));
      const env = {};
      for (const i of WebAssembly.Module.imports(m)) env[i.name] = i.kind === 'memory' ? new WebAssembly.Memory({ initial: 32, maximum: 32768, shared: true }) : () => 1;
      const x = new WebAssembly.Instance(m, { env }).exports;
      out[f] = readRows((x.memory ?? env.memory).buffer, x.holo_wasm_layout_table() >>> 0, x.holo_wasm_layout_rows());
    }
    console.log(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', '--input-type=module', '-e', code], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout);
  for (const f of wasm) assert.equal(got[f], ROWS.map((row) => [...row]), f);
});

test('no field of a boundary struct is missing from the table: fields in order, aligned, only padding between, sizeof reached', () => {
  assert.ok(structs.length >= 12, structs.join(' '));
  for (const type of structs) {
    const [, , size, align] = ROWS.find((r) => r[0] === type && !r[1]);
    const fields = fieldsOf(type).map(([, name, offset, elem, count]) => ({ name, offset, bytes: elem * count, align: Math.min(elem, 8) }));
    let end = 0;
    for (const f of [...fields].sort((a, b) => a.offset - b.offset)) {
      assert.ok(f.offset % f.align === 0, `${type}.${f.name} at ${f.offset} is not ${f.align}-aligned`);
      assert.ok(f.offset >= end && f.offset - end < f.align, `${type}.${f.name} at ${f.offset}: a gap of ${f.offset - end} bytes after ${end} (a field missing from layout.c?)`);
      end = f.offset + f.bytes;
    }
    assert.is(Math.ceil(end / align) * align, size, `${type}: fields end at ${end}, sizeof is ${size} (a field missing from layout.c?)`);
  }
});

test('the shim declares every field of every boundary struct, and every struct it declares is in the table', () => {
  const declared = new Map();
  for (const [file, text] of sources) {
    for (const m of text.matchAll(/new Struct\('(\w+)', \[([^\]]*)\]\)/g)) {
      assert.not.ok(declared.has(m[1]), `${m[1]} declared twice (${declared.get(m[1])?.file}, ${file})`);
      declared.set(m[1], { file, fields: [...m[2].matchAll(/'(\w+)'/g)].map((f) => f[1]) });
    }
  }
  for (const type of structs) {
    assert.ok(declared.has(type), `no module declares new Struct('${type}', ...)`);
    assert.equal(declared.get(type).fields, fieldsOf(type).map((r) => r[1]), `${type} in ${declared.get(type).file}`);
  }
  for (const type of declared.keys()) assert.ok(structs.includes(type), `${type} is not in layout.c`);
  assert.throws(() => new Struct('holo_view', ['label', 'no_such_field']), /no field holo_view\.no_such_field/);
  assert.throws(() => new Struct('holo_nothing', []), /no struct holo_nothing/);
  assert.throws(() => CONST.HOLO_NO_SUCH_CONSTANT, /no constant HOLO_NO_SUCH_CONSTANT/);
});

test('no literal offsets: every DataView access and wasm-memory view of the shim takes a named offset', () => {
  const bad = [];
  for (const [file, text] of sources) {
    text.split('\n').forEach((line, i) => {
      if (/^\s*\/\//.test(line)) return;
      // the offset argument: up to the first comma or the closing parenthesis
      for (const m of line.matchAll(/\.(?:get|set)(?:Big)?(?:Uint|Int|Float)\d+\(([^,)]*)/g)) if (/\b\d+\b/.test(m[1])) bad.push(`${file}:${i + 1}: ${m[0]}`);
      for (const m of line.matchAll(/new (?:Uint8|Uint16|Uint32|Int32|Float32|BigInt64|BigUint64)Array\((?:rt\.)?mem, ([^,)]*)/g)) if (/\b\d+\b/.test(m[1])) bad.push(`${file}:${i + 1}: ${m[0]}`);
      if (/\b(?:p|info|v|q|args|extra|buf|rep|outp|err|errPtr|views|inArr|o)\s*\+\s*\d/.test(line)) bad.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.equal(bad, []);
});

test('a module whose table differs is refused (ABI), naming the row; rows only the module has are ignored', async () => {
  const rt = await init(undefined, { variant: 'scalar' });
  const x = rt.x, at = x.holo_wasm_layout_table(), n = x.holo_wasm_layout_rows();
  const rows = readRows(rt.mem, at, n);
  assert.equal(layoutDifferences(rows), []);
  const fake = (buffer, count = n) => [{ holo_wasm_layout_table: () => at, holo_wasm_layout_rows: () => count }, () => buffer];
  checkLayout(...fake(rt.mem));
  const word = (row, k) => at + (row * 6 + k) * 4; // layout-rows.js: six u32 words a row
  const mutate = (row, k, v) => { const b = rt.mem.slice(0); new DataView(b).setUint32(word(row, k), v, true); return b; };
  const symbol = rows.findIndex((r) => r[0] === 'holo_port_info' && r[1] === 'symbol');
  const gen = rows.findIndex((r) => r[0] === 'wasm_gen_args' && !r[1]);
  for (const [buffer, count, want] of [
    [mutate(symbol, 2, rows[symbol][2] + 4), n, /holo_port_info\.symbol: module \[84,4,8,p\], shim \[80,4,8,p\]/],
    [mutate(gen, 2, rows[gen][2] + 8), n, new RegExp(`wasm_gen_args: module \\[${rows[gen][2] + 8},4,0,\\], shim \\[${rows[gen][2]},4,0,\\]`)],
    [mutate(symbol, 5, 'u'.charCodeAt(0)), n, /holo_port_info\.symbol: module \[80,4,8,u\]/],
    [rt.mem, n - 1, /wasm_pcache_stats\.store_corrupt: missing from the module/],
  ]) {
    try {
      checkLayout(...fake(buffer, count));
      assert.unreachable('accepted a different table');
    } catch (e) {
      assert.instance(e, HologramError);
      assert.is(e.code, 'ABI');
      assert.match(e.message, want);
    }
  }
  assert.throws(() => checkLayout({}, () => rt.mem), (e) => e.code === 'ABI' && /lacks the export holo_wasm_layout_table/.test(e.message));
  assert.equal(layoutDifferences([...rows, ['holo_future', '', 8, 8, 0, '']]), []);
});

test('the status codes and dtype names of the shim are the C enums', () => {
  const dts = readFileSync(join(PKG, 'index.d.ts'), 'utf8');
  const consts = ROWS.filter((r) => !r[0]);
  const status = consts.filter((r) => /^HOLO_(OK|ERR_\w+)$/.test(r[1]));
  assert.is(status.length, 11);
  for (const [, name, v] of status) {
    const code = name.replace(/^HOLO_(ERR_)?/, '');
    assert.is(statusCode(v), code, name);
    if (code !== 'OK') assert.match(dts, new RegExp(`'${code}'`), `index.d.ts ErrorCode lacks ${code}`);
  }
  const dt = consts.filter((r) => r[1].startsWith('HOLO_DT_'));
  assert.is(dt.length, 13);
  const nameOf = (c) => (c === 'BOOL' ? 'bool' : c === 'BF16' ? 'bfloat16' : `${{ F: 'float', U: 'uint', I: 'int' }[c[0]]}${c.slice(1)}`); // F32 -> float32
  for (const [, name, v] of dt) assert.is(dtypeName(v), nameOf(name.slice('HOLO_DT_'.length)), name);
});

test.run();
