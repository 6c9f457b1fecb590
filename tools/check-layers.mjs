#!/usr/bin/env node
// The layer check (`make test`, suite "layers"): which folder may include
// which, made mechanical (docs/architecture.md "Layers").
//
//   node tools/check-layers.mjs              the repository, then the fixture
//                                            trees of tests/layers/; prints
//                                            "layers: N passed, N failed"
//   node tools/check-layers.mjs --root DIR   one tree, every violation listed
//
// Rules, for the C sources of runtime/, kernels-wasm-simd/, generation/,
// wasi/, bindings-js/src-c/ and boards/:
//   parent-include  no `#include "../..."`: a layer names the headers of
//                   another only through an include directory (hologram/x.h)
//   cross-layer     an include resolves (as the compiler would: the file's
//                   folder, the -I directories, or any folder some build adds
//                   with -I) to a header the including layer may not see --
//                   see ALLOWED: a kernel never sees runtime-private or
//                   archive headers, generation and refinement see only
//                   public headers (hologram/*.h), the runtime never sees a
//                   kernel's or generation's header
//   libc            the core (runtime, kernels, generation) includes only
//                   freestanding system headers (the threads variant's
//                   worker pool, parallel-pthread.c, also pthread and stdlib)
//   op-name         no string literal in runtime/ or generation/ equals an op
//                   the CPU backend's registry serves ("MatMul"): the runtime
//                   asks the backend, it never decides by op name
//   unresolved      a quoted include that names no file in the tree
// The one exception: wasi/cli-dump.c (`holo dump`, an archive tool) includes
// ../runtime/archive.h to print the archive's tables (docs/decisions.md 4).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const SCANNED = ['runtime', 'kernels-wasm-simd', 'generation', 'wasi', 'bindings-js/src-c', 'boards'];
const DEFAULT_INC = ['runtime/include', 'kernels-wasm-simd/include', 'generation/include'];

/** `text` with every comment blanked (newlines kept, so line numbers hold);
 * string and character literals are kept as they are. */
export function stripComments(text) {
  let out = '';
  for (let i = 0; i < text.length;) {
    const c = text[i], d = text[i + 1];
    if (c === '/' && d === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && d === '*') {
      const end = text.indexOf('*/', i + 2), stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The string literals of comment-free `code` outside #include lines, with their lines. */
export function stringLiterals(code) {
  const out = [];
  code.split('\n').forEach((line, i) => {
    if (/^\s*#\s*include/.test(line)) return;
    for (const m of line.matchAll(/'(?:[^'\\]|\\.)*'|"((?:[^"\\]|\\.)*)"/g))
      if (m[1] !== undefined) out.push({ text: m[1], line: i + 1 });
  });
  return out;
}

/** The layer a repository path belongs to, or null when no rule applies to it. */
export function layerOf(path) {
  if (path.startsWith('runtime/include/')) return 'runtime-public';
  if (path === 'runtime/refine.c') return 'refinement';
  if (path.startsWith('runtime/')) return 'runtime';
  if (path.startsWith('kernels-wasm-simd/include/')) return 'kernels-public';
  if (path.startsWith('kernels-wasm-simd/')) return 'kernels';
  if (path.startsWith('generation/include/')) return 'generation-public';
  if (path.startsWith('generation/')) return 'generation';
  if (path.startsWith('wasi/')) return 'wasi';
  if (path.startsWith('bindings-js/src-c/')) return 'bindings';
  if (path.startsWith('boards/')) return 'boards';
  return null;
}

// Which layers' headers each layer may include. Refinement and generation
// are strategies over the public session API (hologram/resident.h): they
// see only public headers. The hosts (wasi, bindings, boards) see every
// public header and their own.
const PUBLIC = ['runtime-public', 'kernels-public', 'generation-public'];
const ALLOWED = {
  'runtime-public': ['runtime-public'],
  runtime: ['runtime-public', 'runtime'],
  refinement: ['runtime-public'],
  'kernels-public': ['runtime-public', 'kernels-public'],
  kernels: ['runtime-public', 'kernels-public', 'kernels'],
  'generation-public': ['runtime-public', 'generation-public'],
  generation: ['runtime-public', 'generation-public', 'generation'],
  wasi: [...PUBLIC, 'wasi'],
  bindings: [...PUBLIC, 'bindings'],
  boards: [...PUBLIC, 'boards'],
};
const CORE = new Set(['runtime-public', 'runtime', 'refinement', 'kernels-public', 'kernels', 'generation-public', 'generation']);
const OP_FREE = new Set(['runtime-public', 'runtime', 'refinement', 'generation-public', 'generation']);
// C11's freestanding headers, and the SIMD intrinsics the kernels are made of.
const FREESTANDING = new Set(['float.h', 'iso646.h', 'limits.h', 'stdalign.h', 'stdarg.h', 'stdatomic.h', 'stdbool.h',
  'stddef.h', 'stdint.h', 'stdnoreturn.h', 'wasm_simd128.h', 'arm_neon.h', 'immintrin.h']);
const POOL_HEADERS = new Set(['pthread.h', 'stdlib.h']);
const EXCEPTIONS = [{ file: 'wasi/cli-dump.c', header: 'runtime/archive.h',
  why: '`holo dump` is an archive tool: it prints the archive tables (docs/decisions.md 4)' }];

function walk(root, dir, out) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return out;
  for (const name of readdirSync(abs).sort()) {
    if (name === 'node_modules' || name === 'build' || name.startsWith('.')) continue;
    const rel = posix.join(dir, name);
    if (statSync(join(root, rel)).isDirectory()) walk(root, rel, out);
    else if (/\.(c|h)$/.test(name)) out.push(rel);
  }
  return out;
}

/** The -I directories the Makefile gives every core compile (INC :=), else the usual three. */
function includeDirs(root) {
  const mk = join(root, 'Makefile');
  if (!existsSync(mk)) return DEFAULT_INC;
  const line = readFileSync(mk, 'utf8').split('\n').find((l) => /^INC\s*:?=/.test(l));
  const dirs = line ? [...line.matchAll(/-I(\S+)/g)].map((m) => m[1]) : [];
  return dirs.length ? dirs : DEFAULT_INC;
}

/** Where `#include` of `name` from `file` lands: a tree path, or null (a system header). */
function resolve(ctx, file, name, quoted) {
  const cands = [...(quoted ? [posix.join(posix.dirname(file), name)] : []), ...ctx.inc.map((d) => posix.join(d, name))];
  for (const c of cands) if (!c.startsWith('..') && ctx.files.has(c)) return { path: c, how: 'direct' };
  // Found only through a directory some build adds with -I (the CLI and the
  // board build with -Iruntime): still the same header, still checked.
  const tail = posix.normalize(name).replace(/^(\.\.\/)+/, '');
  const hit = [...ctx.files].filter((f) => f === tail || f.endsWith('/' + tail));
  if (!hit.length) return null;
  const bad = hit.find((h) => !allowedTarget(ctx, file, h));
  return { path: bad ?? hit[0], how: 'via -I' };
}

function allowedTarget(ctx, file, target) {
  const from = layerOf(file), to = layerOf(target);
  if (EXCEPTIONS.some((e) => e.file === file && e.header === target)) return true;
  if (!to || !ALLOWED[from].includes(to)) return false;
  // A host's own headers are its own folder's (one board does not include another's).
  if (['bindings', 'boards'].includes(to) && from === to) return posix.dirname(target).startsWith(posix.dirname(file));
  return true;
}

function checkIncludes(ctx, file, code, report) {
  const layer = layerOf(file);
  code.split('\n').forEach((line, i) => {
    const m = /^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>|(\S.*))/.exec(line);
    if (!m) return;
    const at = `${file}:${i + 1}`;
    if (m[3]) return report('unresolved', at, `computed include ${m[3].trim()}`);
    const name = m[1] ?? m[2], quoted = m[1] !== undefined;
    const exception = EXCEPTIONS.find((e) => e.file === file && posix.normalize(posix.join(posix.dirname(file), name)) === e.header);
    if (name.startsWith('../') && !exception) report('parent-include', at, `"${name}": no #include "../" (another layer's header through an include directory, hologram/x.h)`);
    const r = resolve(ctx, file, name, quoted);
    if (!r) {
      if (quoted) return report('unresolved', at, `"${name}" names no file in the tree`);
      if (CORE.has(layer) && !FREESTANDING.has(name) && !(layer === 'kernels' && /(^|\/)parallel-pthread[^/]*\.c$/.test(file) && POOL_HEADERS.has(name)))
        report('libc', at, `<${name}> is not a freestanding header (no libc in the ${layer} layer)`);
      return;
    }
    if (!allowedTarget(ctx, file, r.path))
      report('cross-layer', at, `${layer} includes ${r.path} (${layerOf(r.path) ?? 'outside every layer'}${r.how === 'via -I' ? ', found via an -I directory' : ''}); it may include ${ALLOWED[layer].join(', ')}`);
  });
}

/** The op names among `candidates` that the CPU backend's registry serves (asked through its lookup). */
function servedOps(candidates) {
  const lib = join(REPO, 'build/native/libholo.a'), exe = join(REPO, 'build/check-layers-ops');
  const src = join(REPO, 'tools/check-layers.c');
  if (!existsSync(lib)) throw new Error('build/native/libholo.a is missing (make build): cannot ask the registry which ops it serves');
  if (!existsSync(exe) || statSync(exe).mtimeMs < Math.max(statSync(lib).mtimeMs, statSync(src).mtimeMs)) {
    execFileSync(process.env.CC || 'gcc', ['-std=c11', '-O1', '-Iruntime/include', '-Ikernels-wasm-simd/include', src, lib, '-lm', '-lpthread', '-o', exe],
      { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  const out = execFileSync(exe, { input: candidates.join('\n') + '\n', encoding: 'utf8' });
  return new Set(out.split('\n').filter(Boolean));
}

/** Every violation in the tree at `root` (repository-relative paths), as {rule, at, detail}. */
export function checkTree(root) {
  const list = SCANNED.flatMap((d) => walk(root, d, []));
  const ctx = { files: new Set(list), inc: includeDirs(root) };
  const out = [];
  const literals = [];
  for (const file of list) {
    const code = stripComments(readFileSync(join(root, file), 'utf8'));
    checkIncludes(ctx, file, code, (rule, at, detail) => out.push({ rule, at, detail }));
    if (OP_FREE.has(layerOf(file))) for (const s of stringLiterals(code)) literals.push({ ...s, file });
  }
  const words = [...new Set(literals.map((l) => l.text).filter((t) => /^[A-Za-z_][A-Za-z0-9_.]*$/.test(t)))];
  const ops = words.length ? servedOps(words) : new Set();
  for (const l of literals)
    if (ops.has(l.text)) out.push({ rule: 'op-name', at: `${l.file}:${l.line}`, detail: `"${l.text}" is an op the registry serves: the ${layerOf(l.file)} layer must not decide by op name` });
  return { files: list, violations: out };
}

function runOne(root) {
  const { files, violations } = checkTree(root);
  for (const v of violations) console.log(`${v.at}: ${v.rule}: ${v.detail}`);
  console.log(`${relative(process.cwd(), root) || '.'}: ${files.length} files, ${violations.length} violations`);
  return violations.length ? 1 : 0;
}

/** The suite: the repository (one test per file), then each planted fixture
 * must be rejected for its EXPECT rule and the clean fixture accepted. */
function suite() {
  let pass = 0, fail = 0;
  const ok = (good, what) => { if (good) pass++; else { fail++; console.log(`FAIL ${what}`); } };
  try {
    const { files, violations } = checkTree(REPO);
    for (const v of violations) console.log(`${v.at}: ${v.rule}: ${v.detail}`);
    for (const f of files) ok(!violations.some((v) => v.at.startsWith(f + ':')), `${f}: crosses a layer`);
    for (const e of EXCEPTIONS) console.log(`exception: ${e.file} includes ${e.header}: ${e.why}`);
    const planted = join(REPO, 'tests/layers/planted');
    for (const name of existsSync(planted) ? readdirSync(planted).sort() : []) {
      const want = readFileSync(join(planted, name, 'EXPECT'), 'utf8').trim().split('\n');
      const got = checkTree(join(planted, name)).violations;
      const caught = want.every((w) => got.some((v) => `${v.at}: ${v.rule}` === w));
      console.log(`planted ${name}: ${caught ? 'rejected' : 'NOT CAUGHT'} (${got.map((v) => `${v.at}: ${v.rule}`).join('; ') || 'no violation'})`);
      ok(caught, `planted ${name}: expected ${want.join('; ')}`);
    }
    const clean = checkTree(join(REPO, 'tests/layers/clean'));
    for (const v of clean.violations) console.log(`clean: ${v.at}: ${v.rule}: ${v.detail}`);
    ok(clean.files.length > 0 && clean.violations.length === 0, 'the clean fixture tree is accepted');
    ok(existsSync(planted) && readdirSync(planted).length > 0, 'there are planted violations to catch');
  } catch (e) {
    console.log(`layers: ${e.message}`);
    fail++;
  }
  console.log(`layers: ${pass} passed, ${fail} failed`);
  return fail ? 1 : 0;
}

const i = process.argv.indexOf('--root');
process.exitCode = i > 0 ? runOne(process.argv[i + 1]) : suite();
