// Copies Jazzer's -merge output into the committed corpus, within the size
// budget (at most 200 files, 2 MB): libFuzzer's merge keeps an input only for
// the features no smaller input had, so the smallest are taken first.
//   node tests/fuzz/convert/pick-corpus.mjs <merged dir> <corpus dir>
import { readdirSync, statSync, copyFileSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const [from, to] = process.argv.slice(2);
const MAX_FILES = 200, MAX_BYTES = 2e6;
const files = readdirSync(from).map((f) => ({ f, size: statSync(join(from, f)).size })).sort((a, b) => a.size - b.size || (a.f < b.f ? -1 : 1));
rmSync(to, { recursive: true, force: true });
mkdirSync(to, { recursive: true });
let n = 0, bytes = 0;
for (const { f, size } of files) {
  if (n === MAX_FILES || bytes + size > MAX_BYTES) break;
  copyFileSync(join(from, f), join(to, f));
  n++; bytes += size;
}
console.log(`pick-corpus: ${n} of ${files.length} merged inputs (${bytes} bytes) -> ${to}`);
