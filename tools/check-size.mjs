#!/usr/bin/env node
// The project's size limits, checked: no C or JS function over 120 lines and
// no source file (.c .h .js .mjs) over 600 lines, outside tests/.
//
//   node tools/check-size.mjs            self-test on tests/size/, then the tree
//   node tools/check-size.mjs FILE...    the given files only (no self-test)
//
// Prints each offender as `path:line name N lines` and ends with
// `size: N passed, N failed` (one verdict per file checked, one per fixture of
// the self-test). A function's lines run from the first token of its
// declaration to its closing brace, blank and comment lines included (nested
// functions count in their enclosing function too). JS is parsed by
// TypeScript's parser; C by the brace/comment/string-aware scanner below
// (docs/decisions.md: why a scanner is enough for C here).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const MAX_FUNCTION_LINES = 120;
export const MAX_FILE_LINES = 600;
const SOURCE = /\.(c|h|js|mjs)$/;
const EXCLUDED = /^(tests|node_modules|build)\//;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = 'tests/size';

let ts = null;
try {
  ts = (await import('typescript')).default;
} catch {
  ts = null; // reported per JS file: a refusal, not a silent pass
}

// ---- JS: every function, method, accessor, constructor and arrow function

const JS_FUNCTION_KINDS = () => new Set([
  ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.FunctionExpression, ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration, ts.SyntaxKind.Constructor, ts.SyntaxKind.GetAccessor, ts.SyntaxKind.SetAccessor,
]);

/** A readable name for a function node: its own, or what it is bound to. */
function jsName(node, sf) {
  const cls = node.parent && ts.isClassLike(node.parent) ? `${node.parent.name?.getText(sf) ?? '(class)'}.` : '';
  if (node.kind === ts.SyntaxKind.Constructor) return `${cls}constructor`;
  if (node.name) return cls + node.name.getText(sf);
  const p = node.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name) return p.name.getText(sf);
  if (p && ts.isBinaryExpression(p) && p.right === node) return p.left.getText(sf);
  if (p && ts.isCallExpression(p)) return `(callback of ${p.expression.getText(sf).slice(0, 40)})`;
  return '(anonymous)';
}

/** [{ name, line, lines }] of every function in a JS/ESM source, or throws. */
export function jsFunctions(file, text) {
  if (!ts) throw new Error('cannot parse JS: the typescript package is not installed (npm ci)');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const diags = sf.parseDiagnostics ?? [];
  if (diags.length) {
    const d = diags[0];
    const at = sf.getLineAndCharacterOfPosition(d.start ?? 0).line + 1;
    throw new Error(`does not parse (line ${at}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')})`);
  }
  const kinds = JS_FUNCTION_KINDS();
  const found = [];
  const visit = (node) => {
    if (kinds.has(node.kind) && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.end).line;
      found.push({ name: jsName(node, sf), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

// ---- C: a tokenizer that knows comments, strings, characters and directives

const isIdStart = (c) => /[A-Za-z_]/.test(c);
const isId = (c) => /[A-Za-z0-9_]/.test(c);

/** Skips a "..." or '...' literal from `i` (the quote); returns the index after it. */
function skipQuoted(text, i) {
  const q = text[i];
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === q) return j + 1;
    else if (text[j] === '\n') throw new Error(`unterminated ${q === '"' ? 'string' : 'character'} literal`);
  }
  throw new Error('unterminated literal at end of file');
}

/** Skips a preprocessor directive from `i` (the '#'): to the first newline not continued by '\'. */
function skipDirective(text, i) {
  let j = i;
  while (j < text.length && text[j] !== '\n') {
    if (text.startsWith('/*', j)) {
      const e = text.indexOf('*/', j + 2);
      if (e < 0) throw new Error('unterminated comment');
      j = e + 2;
    } else if (text[j] === '\\' && text[j + 1] === '\n') j += 2;
    else if (text[j] === '\\' && text[j + 1] === '\r' && text[j + 2] === '\n') j += 3;
    else j++;
  }
  return j;
}

/**
 * C tokens without comments and directives: { t, line } (strings as t = '"'),
 * and the #define directives: { name, line, lines } (a macro's body is not
 * scanned for functions, so a long one is counted as a whole).
 */
export function cTokens(text) {
  const toks = [], macros = [];
  let line = 1, lineStart = true;
  const count = (from, to) => { for (let k = from; k < to; k++) if (text[k] === '\n') line++; };
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === '\n') { line++; lineStart = true; i++; continue; }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') { i++; continue; }
    let j;
    if (text.startsWith('//', i)) {
      j = i;
      while (j < text.length && text[j] !== '\n') j += text[j] === '\\' && text[j + 1] === '\n' ? 2 : 1;
    } else if (text.startsWith('/*', i)) {
      const e = text.indexOf('*/', i + 2);
      if (e < 0) throw new Error(`unterminated comment (line ${line})`);
      j = e + 2;
    } else if (c === '#' && lineStart) {
      j = skipDirective(text, i);
      const def = /^#\s*define\s+([A-Za-z_]\w*)/.exec(text.slice(i, Math.min(j, i + 200)));
      if (def) {
        let n = 1;
        for (let k = i; k < j; k++) if (text[k] === '\n') n++;
        macros.push({ name: `${def[1]} (macro)`, line, lines: n });
      }
    } else {
      lineStart = false;
      if (c === '"' || c === '\'') {
        try { j = skipQuoted(text, i); } catch (e) { throw new Error(`${e.message} (line ${line})`); }
        toks.push({ t: '"', line });
      } else if (isIdStart(c)) {
        j = i + 1;
        while (j < text.length && isId(text[j])) j++;
        toks.push({ t: text.slice(i, j), line });
      } else {
        j = i + 1;
        toks.push({ t: c, line });
      }
    }
    count(i, j);
    i = j;
  }
  return { toks, macros };
}

const ATTRIBUTE = new Set(['__attribute__', '__attribute', '__declspec', '__asm__', '__asm', 'asm']);

/** Index of the '(' matching the ')' at `close`, or -1. */
function matchingOpen(toks, close) {
  let depth = 0;
  for (let k = close; k >= 0; k--) {
    if (toks[k].t === ')') depth++;
    else if (toks[k].t === '(' && --depth === 0) return k;
  }
  return -1;
}

/**
 * If the top-level '{' at `brace` opens a function body, its name; else null.
 * A body follows a parameter list's ')' (after any __attribute__((...))), in a
 * statement with no '=' outside parentheses (that is an initializer, e.g. a
 * compound literal).
 */
function cFunctionName(toks, stmt, brace) {
  let p = brace - 1;
  for (;;) {
    if (p < stmt || toks[p].t !== ')') return null;
    const q = matchingOpen(toks, p);
    if (q < stmt + 1) return null;
    const before = toks[q - 1].t;
    if (!ATTRIBUTE.has(before)) {
      let depth = 0;
      for (let k = stmt; k < brace; k++) {
        const t = toks[k].t;
        if (t === '(' || t === '[') depth++;
        else if (t === ')' || t === ']') depth--;
        else if (t === '=' && depth === 0) return null;
      }
      return isIdStart(before) ? before : '(unnamed)';
    }
    p = q - 2;
  }
}

/** Index of the ')' matching the '(' at `open`, or -1. */
function matchingClose(toks, open) {
  let depth = 0;
  for (let k = open; k < toks.length; k++) {
    if (toks[k].t === '(') depth++;
    else if (toks[k].t === ')' && --depth === 0) return k;
  }
  return -1;
}

/**
 * The first token of a function's declaration: the statement's, less the
 * macro invocations on lines of their own before it (`TILE8_FN(4)` expands
 * to definitions and takes no ';', so it joins the next statement).
 */
function declarationStart(toks, stmt, brace) {
  let s = stmt;
  while (/^[A-Z_][A-Z0-9_]*$/.test(toks[s].t) && toks[s + 1]?.t === '(') {
    const c = matchingClose(toks, s + 1);
    if (c < 0 || c + 1 >= brace || toks[c + 1].line === toks[c].line) break;
    s = c + 1;
  }
  return s;
}

/** [{ name, line, lines }] of every C function definition, or throws. */
export function cFunctions(text) {
  const { toks, macros } = cTokens(text);
  const found = [...macros];
  const stack = []; // open braces: { kind: 'extern' | 'function' | 'other', name, line }
  const topLevel = () => stack.every((b) => b.kind === 'extern');
  let stmt = 0; // first token of the current top-level statement
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i].t;
    if (t === '{') {
      if (!topLevel()) { stack.push({ kind: 'other' }); continue; }
      if (i >= 2 && toks[i - 1].t === '"' && toks[i - 2].t === 'extern') {
        stack.push({ kind: 'extern' });
        stmt = i + 1;
        continue;
      }
      const name = cFunctionName(toks, stmt, i);
      stack.push(name ? { kind: 'function', name, line: toks[declarationStart(toks, stmt, i)].line } : { kind: 'top' });
    } else if (t === '}') {
      const b = stack.pop();
      if (!b) throw new Error(`unbalanced braces: '}' without '{' at line ${toks[i].line} (braces split across #if branches?)`);
      if (b.kind === 'function') found.push({ name: b.name, line: b.line, lines: toks[i].line - b.line + 1 });
      if (b.kind === 'function' || b.kind === 'extern') stmt = i + 1;
    } else if (t === ';' && topLevel()) {
      stmt = i + 1;
    }
  }
  if (stack.length) throw new Error(`unbalanced braces: ${stack.length} '{' never closed (braces split across #if branches?)`);
  return found.sort((a, b) => a.line - b.line);
}

// ---- one file's verdict

/** { file, offenders: [string], error?: string } for one source file. */
export function checkFile(root, rel) {
  if (!SOURCE.test(rel)) return { file: rel, offenders: [], error: `${rel}: cannot check: not a .c, .h, .js or .mjs file` };
  const text = readFileSync(path.join(root, rel), 'utf8');
  const offenders = [];
  const lines = text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_FILE_LINES) offenders.push(`${rel}:1 (file) ${lines} lines (limit ${MAX_FILE_LINES})`);
  let fns;
  try {
    fns = /\.(c|h)$/.test(rel) ? cFunctions(text) : jsFunctions(rel, text);
  } catch (e) {
    return { file: rel, offenders, error: `${rel}: cannot check: ${e.message}` };
  }
  for (const f of fns)
    if (f.lines > MAX_FUNCTION_LINES) offenders.push(`${rel}:${f.line} ${f.name} ${f.lines} lines (limit ${MAX_FUNCTION_LINES})`);
  return { file: rel, offenders };
}

/** Source files of the tree: tracked or new, not ignored, outside tests/, node_modules/ and build/. */
export function treeFiles(root) {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  const seen = new Set();
  for (const f of out.split('\0')) if (f && SOURCE.test(f) && !EXCLUDED.test(f)) seen.add(f);
  return [...seen].sort().filter((f) => { try { readFileSync(path.join(root, f)); return true; } catch { return false; } });
}

// ---- the self-test: the check must flag exactly what tests/size/expected.txt lists

/**
 * Runs the check over tests/size/ and compares its offenders with
 * expected.txt: a fixture is one verdict, passed when its offenders are
 * exactly the expected ones (so the check must flag the 121-line function and
 * the 601-line file, and must not flag the 120-line and 600-line ones).
 */
export function selfTest(root) {
  const dir = path.join(root, FIXTURES);
  const expected = readFileSync(path.join(dir, 'expected.txt'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  const files = readdirSources(dir).map((f) => `${FIXTURES}/${f}`);
  const verdicts = [];
  for (const rel of files) {
    const r = checkFile(root, rel);
    const got = r.error ? [r.error] : r.offenders;
    const want = expected.filter((l) => l.startsWith(`${rel}:`));
    const missing = want.filter((l) => !got.includes(l));
    const extra = got.filter((l) => !want.includes(l));
    verdicts.push({ file: rel, ok: missing.length === 0 && extra.length === 0, missing, extra });
  }
  const orphan = expected.filter((l) => !files.some((f) => l.startsWith(`${f}:`)));
  if (orphan.length) verdicts.push({ file: `${FIXTURES}/expected.txt`, ok: false, missing: orphan, extra: [] });
  if (!expected.length) verdicts.push({ file: `${FIXTURES}/expected.txt`, ok: false, missing: ['(no expectations: the self-test could not fail)'], extra: [] });
  return verdicts;
}

function readdirSources(dir) {
  return readdirSync(dir).filter((f) => SOURCE.test(f)).sort();
}

function main(argv) {
  let pass = 0, fail = 0;
  if (argv.length === 0) {
    for (const v of selfTest(ROOT)) {
      if (v.ok) { pass++; continue; }
      fail++;
      console.log(`self-test ${v.file}: FAILED`);
      for (const l of v.missing) console.log(`  not flagged, expected: ${l}`);
      for (const l of v.extra) console.log(`  flagged, not expected: ${l}`);
    }
  }
  const files = argv.length ? argv.map((f) => path.relative(ROOT, path.resolve(f))) : treeFiles(ROOT);
  for (const rel of files) {
    const r = checkFile(ROOT, rel);
    for (const l of r.offenders) console.log(l);
    if (r.error) console.log(r.error);
    if (r.error || r.offenders.length) fail++;
    else pass++;
  }
  console.log(`size: ${pass} passed, ${fail} failed`);
  return fail === 0 ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
