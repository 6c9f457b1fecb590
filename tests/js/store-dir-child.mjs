// A writer the store-dir test kills mid-put: puts records of `size` bytes
// whose content is derived from their index, and prints each label after its
// put returned (committed). Not a test file (run by store-dir.test.mjs).
import { createHash } from 'node:crypto';
import { NodeDirWarmStore } from '../../bindings-js/stores/node-dir.js';

const [dir, size] = [process.argv[2], Number(process.argv[3])];
const store = new NodeDirWarmStore(dir);
for (let i = 0; i < 40; i++) { // bounded, in case the parent never kills it
  const label = 'sha256:' + createHash('sha256').update(`rec${i}`).digest('hex');
  const bytes = new Uint8Array(size).fill(i & 0xff);
  store.put(label, bytes);
  process.stdout.write(`${i} ${label}\n`);
}
