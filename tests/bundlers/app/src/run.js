// What a user's code does: import the package, fetch an archive, run one
// input, report the output's bytes and label (and, with threads, the pool).
import { init } from 'hologram-exec';
import { inputFor } from './input.js';

// wasm: a URL string the page names (the { wasm } option), or none: the shipped modules.
export async function run({ archive, threads, wasm, variant }) {
  const rt = await init(wasm || undefined, { ...(threads > 1 ? { threads } : {}), ...(variant ? { variant } : {}) });
  const res = await fetch(new URL(`/${archive}`, location.href));
  if (!res.ok) throw new Error(`${archive}: HTTP ${res.status}`);
  const s = rt.load(new Uint8Array(await res.arrayBuffer()));
  const shape = s.inputs[0].shape;
  const x = inputFor(shape);
  const [y] = s.execute([{ data: x, shape }]);
  const out = {
    ok: true,
    inWorker: typeof document === 'undefined',
    isolated: globalThis.crossOriginIsolated === true,
    backend: s.backend,
    threads: rt.threads,
    why: rt.threadsUnavailable ?? null,
    archiveLabel: s.archiveLabel,
    label: y.label,
    shape: y.shape,
    bytes: Array.from(new Uint8Array(y.data.buffer, y.data.byteOffset, y.data.byteLength)),
  };
  // The workers really take tasks: more runs until one did (a fast main
  // thread can take them all on a small machine).
  for (let i = 0; threads > 1 && i < 40 && rt.poolStats && rt.poolStats.workerTasks === 0; i++) s.execute([{ data: x.map((v) => v + i + 1), shape }]);
  out.pool = rt.poolStats ? { started: rt.poolStats.started, workerTasks: rt.poolStats.workerTasks } : null;
  s.dispose();
  rt.dispose();
  return out;
}
