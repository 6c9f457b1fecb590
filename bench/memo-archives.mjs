// Archives for `make bench-memo`: Relu chains of N nodes over a 4 KiB input,
// and y = Relu(x) for an x of 1 KiB and of 64 MiB (label cost).
// usage: node bench/memo-archives.mjs OUTDIR
import fs from 'node:fs';
import { GraphBuilder, DT } from '../compiler/graph.js';
import { writeHolo } from '../compiler/holo-writer.js';

const out = process.argv[2] ?? 'build/bench';
fs.mkdirSync(out, { recursive: true });
for (const n of [10, 1000, 10000]) {
  const g = new GraphBuilder();
  let v = g.input('x', DT.f32, [1024]);
  for (let i = 0; i < n; i++) [v] = g.node('Relu', [v], { name: `r${i}` });
  g.output(v);
  fs.writeFileSync(`${out}/chain-${n}.holo`, writeHolo(g.toJSON()));
}
for (const [name, elems] of [['1KiB', 256], ['64MiB', 16 << 20]]) {
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, [elems]);
  const [y] = g.node('Relu', [x], { name: 'relu' });
  g.output(y);
  fs.writeFileSync(`${out}/label-${name}.holo`, writeHolo(g.toJSON()));
}
