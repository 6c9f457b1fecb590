// Copies Jazzer's -merge output into the committed corpus, within the size
// budget (at most 200 files, 2 MB). libFuzzer's merge keeps an input only for
// features no earlier input had; to cut that set further without losing the
// code paths it reaches, the smallest input of each distinct outcome (the
// refusal message with its numbers and names blanked, or 'archive' with the
// ops it emits) is taken first, then the smallest of the rest.
//   node tests/fuzz/convert/pick-corpus.mjs <merged dir> <corpus dir>
import { readdirSync, readFileSync, copyFileSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { convert } from '../../../compiler/convert.js';

const [from, to] = process.argv.slice(2);
const MAX_FILES = 200, MAX_BYTES = 2e6;
const outcome = (bytes) => {
  try {
    const { report } = convert(bytes);
    return `archive ${Object.keys(report.opsOut).sort().join(',')}`;
  } catch (e) {
    return `refused ${String(e?.message).replace(/'[^']*'/g, "''").replace(/-?\d+(\.\d+)?(e[-+]?\d+)?/g, 'N')}`;
  }
};
const files = readdirSync(from).map((f) => ({ f, bytes: readFileSync(join(from, f)) })).sort((a, b) => a.bytes.length - b.bytes.length || (a.f < b.f ? -1 : 1));
const seen = new Set(), first = [], rest = [];
for (const x of files) {
  const k = outcome(x.bytes);
  (seen.has(k) ? rest : first).push(x);
  seen.add(k);
}
rmSync(to, { recursive: true, force: true });
mkdirSync(to, { recursive: true });
let n = 0, total = 0;
for (const { f, bytes } of [...first, ...rest]) {
  if (n === MAX_FILES || total + bytes.length > MAX_BYTES) continue;
  copyFileSync(join(from, f), join(to, f));
  n++; total += bytes.length;
}
console.log(`pick-corpus: ${n} of ${files.length} merged inputs (${first.length} distinct outcomes; ${total} bytes) -> ${to}`);
