// Every documented make target exists and can be planned from this tree
// (issue 41: `make bench-peers` failed on a fresh clone after `make setup`,
// because it did not depend on the layout table that `make build` writes).
// The documented targets are `make help`'s list plus every `make TARGET` a
// README or docs/*.md names; each must succeed under `make -n` (make plans the
// whole prerequisite chain without running a recipe, so a target that names a
// missing rule, a file nothing makes, or an unknown target fails here). The
// cheap ones are also run for real: help, check-core-size, wasm-tests-list.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';

const make = (args) => spawnSync('make', ['--no-print-directory', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120000 });

const helpTargets = () => {
  const r = make(['-s', 'help']);
  assert.is(r.status, 0, r.stderr);
  return r.stdout.replace(/^make\s+/, '').split('|').map((s) => s.trim()).filter(Boolean);
};

const docTargets = () => {
  const docs = ['README.md', 'bindings-js/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const found = new Set();
  for (const d of docs) {
    let text;
    try { text = readFileSync(join(ROOT, d), 'utf8'); } catch { continue; }
    for (const m of text.matchAll(/`make ([a-z][a-z0-9-]*)/g)) found.add(m[1]);
  }
  return [...found];
};

test('make help lists the main targets', () => {
  const t = helpTargets();
  for (const want of ['setup', 'build', 'run', 'check', 'test', 'bench-peers', 'zoo']) assert.ok(t.includes(want), `make help lacks ${want}: ${t.join(' ')}`);
});

test('every documented target plans under make -n', () => {
  const targets = [...new Set([...helpTargets(), ...docTargets()])].sort();
  assert.ok(targets.length >= 20, `only ${targets.length} targets found`);
  // All at once first (-k: every goal is planned even after one fails): a
  // parse of the Makefile costs ~1 s, and there are ~40 targets. Only when
  // that fails is each planned alone, to name the ones that fail.
  if (make(['-k', '-n', ...targets]).status === 0) return;
  const bad = [];
  for (const t of targets) {
    const r = make(['-n', t]);
    if (r.status !== 0) bad.push(`${t}: ${(r.stderr || r.stdout).trim().split('\n').slice(-2).join(' / ')}`);
  }
  assert.ok(bad.length > 0, 'make -k -n over all targets failed, but every target plans alone');
  assert.equal(bad, [], bad.join('\n'));
});

test('bench targets depend on the package JS that make build writes', () => {
  // The fresh-clone failure: bench-peers ran node on bindings-js/index.js
  // before bindings-js/dist/layout.js existed. make -p prints the rule.
  // (-q: nothing runs; it exits 1 because help is phony, so only stdout counts)
  const db = spawnSync('make', ['-pnq', 'help'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 }).stdout;
  for (const t of ['bench', 'bench-peers', 'bench-peers-browser', 'bench-gemm', 'bench-generate', 'zoo']) {
    const line = db.split('\n').find((l) => l.startsWith(`${t}:`));
    assert.ok(line, `no rule for ${t}`);
    assert.ok(line.includes('pkg-layout') && line.includes('pkg-compiler'), `${t} lacks pkg-layout/pkg-compiler: ${line}`);
  }
});

test('the cheap targets run', () => {
  for (const t of ['help', 'wasm-tests-list', 'check-core-size']) {
    const r = make(['-s', t]);
    assert.is(r.status, 0, `make ${t}: ${r.stdout.slice(-400)}${r.stderr.slice(-400)}`);
  }
});

test.run();
