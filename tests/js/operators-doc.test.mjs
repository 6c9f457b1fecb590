// docs/operators.md is what tools/gen-operators.mjs writes from the onnx
// schemas (tools/onnx-schemas.json) and the converter's tables: regenerated
// here, so a converter change that does not regenerate the page fails.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers.mjs';
import { operatorsDoc } from '../../tools/gen-operators.mjs';
import { OPS } from '../../compiler/onnx-ops.js';

test('docs/operators.md is the generator\'s output (run: node tools/gen-operators.mjs)', () => {
  const want = operatorsDoc(), have = readFileSync(join(ROOT, 'docs/operators.md'), 'utf8');
  if (want === have) return;
  const a = have.split('\n'), b = want.split('\n');
  const i = a.findIndex((l, k) => l !== b[k]);
  assert.unreachable(`docs/operators.md differs from the generator's output at line ${i + 1}:\n  checked in: ${a[i]}\n  generated:  ${b[i]}\nrun node tools/gen-operators.mjs`);
});

test('the page follows the converter: a refusal and a newly taken op change it', () => {
  const base = operatorsDoc();
  assert.match(base, /\| Col2Im \| \(not in these schemas\) \| converts \| lowered onto other ops \|/);
  assert.match(base, /\| StringNormalizer \| 10 \| refused: not implemented by hologram-exec \|/);
  assert.match(base, /\| Abs \| 1, 6, 13 \| converts \| kernel Abs \(/);
  const saved = OPS.Col2Im;
  try {
    OPS.Col2Im = { attrs: [], refuse: 'a test refusal' };
    assert.match(operatorsDoc(), /\| Col2Im \| \(not in these schemas\) \| refused: a test refusal \|/);
    delete OPS.Col2Im;
    assert.ok(!/\| Col2Im \|/.test(operatorsDoc()), 'an op neither in the schemas nor the tables is not listed');
  } finally { OPS.Col2Im = saved; }
  assert.is(operatorsDoc(), base);
});

test.run();
