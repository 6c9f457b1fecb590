// Every path a doc or a C comment names exists, so a rename or a deleted file
// cannot leave a dangling reference behind (issue 16: mem.h named
// runtime/freestanding.c, cli-dump.c named docs/graph-json.md; neither
// existed). Scope: docs/*.md, every README/top-level .md, every tracked .c
// and .h. A reference `dir/name.ext` resolves if it exists from the repo
// root, from the referring file's directory, from an include directory
// (hologram/x.h), or as the tail of a tracked path (`operators/conv2d.c` in
// docs/kernels.md names kernels-wasm-simd/operators/conv2d.c). System headers
// in #include <...> and URLs are not references.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './helpers.mjs';

const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n').filter((f) => f && !f.startsWith('node_modules/'));
// A generated output (gitignored: build/, reports) exists only after a run.
// One `git check-ignore --stdin` per file, not a process per reference: the
// spawns were 27 of this test's 28 s.
const ignoredCache = new Map();
function checkIgnored(refs) {
  const todo = [...new Set(refs)].filter((r) => !ignoredCache.has(r));
  if (!todo.length) return;
  let out;
  try {
    out = execFileSync('git', ['check-ignore', '--stdin'], { cwd: ROOT, input: todo.join('\n') + '\n', encoding: 'utf8' });
  } catch (e) {
    if (e.status !== 1) { // not "none ignored": a path git refuses (outside the tree); ask one by one
      for (const r of todo) {
        try { execFileSync('git', ['check-ignore', '-q', r], { cwd: ROOT, stdio: 'ignore' }); ignoredCache.set(r, true); } catch { ignoredCache.set(r, false); }
      }
      return;
    }
    out = e.stdout ?? '';
  }
  const hit = new Set(out.split('\n').filter(Boolean));
  for (const r of todo) ignoredCache.set(r, hit.has(r));
}
const INCLUDE = ['runtime/include', 'kernels-wasm-simd/include', 'generation/include'];
const REF = /(?<![A-Za-z0-9_./@:<-])((?:[A-Za-z0-9_.-]+\/)*[a-z0-9_-]+\/[A-Za-z0-9_.-]*[A-Za-z0-9_-]\.(?:c|h|js|mjs|md|mk|sh|json|py|ts))(?![A-Za-z0-9_/-])/g;

/** The path-like references in `text` (of the file `from`) that resolve to no file. */
export function danglingRefs(text, from) {
  const body = text.replace(/https?:\/\/\S+/g, '').replace(/^\s*#\s*include\s*<[^>]*>/gm, '');
  const out = new Set();
  for (const [, ref] of body.matchAll(REF)) {
    const cands = [ref, join(dirname(from), ref), ...INCLUDE.map((d) => join(d, ref))];
    if (cands.some((c) => existsSync(join(ROOT, c)))) continue;
    if (tracked.some((t) => t.endsWith('/' + ref))) continue;
    out.add(ref);
  }
  checkIgnored([...out]);
  return [...out].filter((ref) => !ignoredCache.get(ref));
}

const scope = tracked.filter((f) => /\.(c|h)$/.test(f) || /^docs\/[^/]+\.md$/.test(f) || /^[^/]+\.md$/.test(f) || /(^|\/)README\.md$/.test(f));

test('the checker finds a dangling reference and accepts the real forms', () => {
  const t = 'see runtime/freestanding.c and docs/graph-json.md; runtime/memo.c, operators/conv2d.c, hologram/mem.h, '
    + 'https://example.org/a/b.c\n#include <sys/stat.h>\n';
  assert.equal(danglingRefs(t, 'runtime/include/hologram/mem.h').sort(), ['docs/graph-json.md', 'runtime/freestanding.c']);
});

test('scope: the docs, the headers and the C sources are all read', () => {
  for (const f of ['docs/holo-format.md', 'docs/architecture.md', 'runtime/include/hologram/mem.h', 'runtime/memo.c', 'wasi/cli-dump.c'])
    assert.ok(scope.includes(f), f);
  assert.ok(scope.length > 100, `${scope.length} files`);
});

test('every path named in docs/*.md, README files, *.c and *.h exists', () => {
  const bad = scope.flatMap((f) => danglingRefs(readFileSync(join(ROOT, f), 'utf8'), f).map((r) => `${f}: ${r}`));
  assert.equal(bad, [], `dangling references:\n  ${bad.join('\n  ')}`);
});

test.run();
