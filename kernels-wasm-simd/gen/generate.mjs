// Generates the microkernels that differ only by instruction set from one
// template each, as XNNPACK's xngen does:
//
//   node kernels-wasm-simd/gen/generate.mjs           (re)writes them
//   node kernels-wasm-simd/gen/generate.mjs --check   exits 1 if any differs
//
// The generated files are checked in (the build needs no node), and
// tests/js/kernels-gen.test.mjs fails when one no longer equals what its
// template gives: edit the template, never the output.
//
// Template syntax, a line at a time:
//   $if EXPR / $elif EXPR / $else / $endif   keep the lines whose condition
//                                            holds (EXPR: JavaScript over the
//                                            instance's parameters)
//   ${EXPR}                                  anywhere in a kept line: its value
// Any other line is copied as it is.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

/** Every generated file: its template, its path and the template's parameters. */
export const INSTANCES = [
  { template: 'vbinary.c.in', out: 'vbinary-f32-scalar.c', params: { ISA: 'scalar', DT: 'f32', T: 'float', U: '', BITS: 32, SIGNED: true } },
  { template: 'vbinary.c.in', out: 'vbinary-f32-simd128.c', params: { ISA: 'simd128', DT: 'f32', T: 'float', U: '', BITS: 32, SIGNED: true } },
  { template: 'vbinary.c.in', out: 'vbinary-f64-scalar.c', params: { ISA: 'scalar', DT: 'f64', T: 'double', U: '', BITS: 64, SIGNED: true } },
  { template: 'vbinary.c.in', out: 'vbinary-i32-scalar.c', params: { ISA: 'scalar', DT: 'i32', T: 'int32_t', U: 'uint32_t', BITS: 32, SIGNED: true } },
  { template: 'vbinary.c.in', out: 'vbinary-i64-scalar.c', params: { ISA: 'scalar', DT: 'i64', T: 'int64_t', U: 'uint64_t', BITS: 64, SIGNED: true } },
  // the narrow and unsigned integers: arithmetic in a 32-bit unsigned type at least (no promotion to int)
  { template: 'vbinary.c.in', out: 'vbinary-i8-scalar.c', params: { ISA: 'scalar', DT: 'i8', T: 'int8_t', U: 'uint32_t', BITS: 8, SIGNED: true } },
  { template: 'vbinary.c.in', out: 'vbinary-i16-scalar.c', params: { ISA: 'scalar', DT: 'i16', T: 'int16_t', U: 'uint32_t', BITS: 16, SIGNED: true } },
  { template: 'vbinary.c.in', out: 'vbinary-u8-scalar.c', params: { ISA: 'scalar', DT: 'u8', T: 'uint8_t', U: 'uint32_t', BITS: 8, SIGNED: false } },
  { template: 'vbinary.c.in', out: 'vbinary-u16-scalar.c', params: { ISA: 'scalar', DT: 'u16', T: 'uint16_t', U: 'uint32_t', BITS: 16, SIGNED: false } },
  { template: 'vbinary.c.in', out: 'vbinary-u32-scalar.c', params: { ISA: 'scalar', DT: 'u32', T: 'uint32_t', U: 'uint32_t', BITS: 32, SIGNED: false } },
  { template: 'vbinary.c.in', out: 'vbinary-u64-scalar.c', params: { ISA: 'scalar', DT: 'u64', T: 'uint64_t', U: 'uint64_t', BITS: 64, SIGNED: false } },
  { template: 'gemm-f32-4x8.c.in', out: 'gemm-f32-4x8-simd128.c', params: { ISA: 'simd128' } },
  { template: 'gemm-f32-4x8.c.in', out: 'gemm-f32-4x8-relaxedsimd.c', params: { ISA: 'relaxedsimd' } },
  { template: 'dwconv2d-f32-rows.c.in', out: 'dwconv2d-f32-rows-scalar.c', params: { ISA: 'scalar' } },
  { template: 'dwconv2d-f32-rows.c.in', out: 'dwconv2d-f32-rows-relaxedsimd.c', params: { ISA: 'relaxedsimd' } },
  { template: 'dwconv2d-f32-plane.c.in', out: 'dwconv2d-f32-plane-simd128.c', params: { ISA: 'simd128' } },
  { template: 'dwconv2d-f32-plane.c.in', out: 'dwconv2d-f32-plane-relaxedsimd.c', params: { ISA: 'relaxedsimd' } },
];

const evaluate = (expr, params, where) => {
  try {
    return new Function(...Object.keys(params), `return (${expr});`)(...Object.values(params));
  } catch (e) {
    throw new Error(`${where}: cannot evaluate ${expr}: ${e.message}`);
  }
};

/** The text `template` (named `name` in messages) gives for `params`. */
export function expand(template, params, name = 'template') {
  const out = [];
  const stack = []; // per open $if: { outer: the lines around it are kept, taken: a branch was, on: this one is }
  const live = () => stack.every((f) => f.on);
  template.split('\n').forEach((line, i) => {
    const where = `${name}:${i + 1}`;
    const m = /^\s*\$(if|elif|else|endif)\b\s*(.*)$/.exec(line);
    if (m) {
      const [, kw, expr] = m;
      const top = stack[stack.length - 1];
      if (kw === 'if') {
        const outer = live();
        const on = outer && !!evaluate(expr, params, where);
        stack.push({ outer, taken: on, on });
      } else if (!top) {
        throw new Error(`${where}: $${kw} without $if`);
      } else if (kw === 'endif') {
        stack.pop();
      } else {
        top.on = top.outer && !top.taken && (kw === 'else' || !!evaluate(expr, params, where));
        top.taken ||= top.on;
      }
      return;
    }
    if (!live()) return;
    out.push(line.replace(/\$\{([^}]+)\}/g, (_, e) => String(evaluate(e, params, where))));
  });
  if (stack.length) throw new Error(`${name}: ${stack.length} $if left open`);
  return out.join('\n');
}

/** [path, text] of every generated file, as its template gives it now. */
export function generated() {
  return INSTANCES.map(({ template, out, params }) => {
    const path = join(ROOT, 'kernels-wasm-simd', 'microkernels', out);
    const src = readFileSync(join(HERE, template), 'utf8');
    const head = `/* Generated by kernels-wasm-simd/gen/generate.mjs from the template ${template} (${Object.entries(params)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}): do not edit, edit the template. */\n`;
    return [path, head + expand(src, params, template)];
  });
}

/** The paths among `files` ([path, text]) whose file on disk is not that text. */
export function stale(files = generated()) {
  return files.filter(([path, text]) => {
    try {
      return readFileSync(path, 'utf8') !== text;
    } catch {
      return true;
    }
  }).map(([path]) => path);
}

const main = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (main) {
  const files = generated();
  const old = stale(files);
  if (process.argv.includes('--check')) {
    for (const path of old) console.error(`stale: ${relative(ROOT, path)} (run node kernels-wasm-simd/gen/generate.mjs)`);
    process.exitCode = old.length ? 1 : 0;
  } else {
    for (const [path, text] of files.filter(([p]) => old.includes(p))) {
      writeFileSync(path, text);
      console.log(`wrote ${relative(ROOT, path)}`);
    }
  }
}
