// The committed char-level LMs (models/charlm/) convert with the converter and
// run step by step through hologram-exec with logits within 1e-4 of PyTorch's
// and the same greedy continuation (check.mjs exits non-zero otherwise).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';

for (const which of ['draft', 'main']) {
  test(`charlm ${which}: converts and matches the PyTorch reference step by step`, () => {
    const args = ['models/charlm/check.mjs', ...(which === 'draft' ? ['draft'] : [])];
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120000 });
    assert.is(r.status, 0, `check.mjs ${which} failed:\n${r.stdout}\n${r.stderr}`);
  });
}
test.run();
