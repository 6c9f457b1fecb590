// A soak worker (tests/js/workerd.test.mjs): a session per model kept in
// the isolate (module scope) with workerd's default memory settings, fed
// distinct inputs request after request; each answer reports the module's
// linear memory, so a test can watch it across thousands of executions.
//   GET /digits?from=K&n=N  N executions of the digit model (inputs K..K+N-1)
//   GET /repeat             three fixed digit inputs, twice: memo hits
//   GET /zoo?from=K&n=N     the same for the zoo model, in its own instance
// Config: config.capnp with this file as worker.mjs and the data modules
// digits.holo and zoo.holo (the test writes it).
import { init } from './index.js';
import core from './hologram-simd128.wasm';
import digits from './digits.holo';
import zoo from './zoo.holo';

const sessions = new Map(); // name -> { rt, s }

async function session(name, bytes) {
  if (!sessions.has(name)) {
    const rt = await init(core, { variant: 'simd128' });
    sessions.set(name, { rt, s: rt.load(new Uint8Array(bytes)) });
  }
  return sessions.get(name);
}

// A distinct input per index: each port's elements from a hash of (index, element).
function inputsOf(s, i) {
  return s.inputs.map((p) => {
    const shape = p.shape.map((d) => (typeof d === 'number' ? d : 1));
    const data = new Float32Array(shape.reduce((a, b) => a * b, 1));
    for (let k = 0; k < data.length; k++) data[k] = (Math.imul(i + 1, 2654435761) ^ Math.imul(k + 1, 40503)) / 2 ** 32;
    return { data, shape };
  });
}

function report({ rt, s }, extra) {
  const c = s.counters;
  return Response.json({
    ...extra, environment: s.limits.environment, limits: s.limits, memoryBytes: rt.memoryBytes, heap: rt.heapStats,
    residentBytes: s.residentBytes, executions: c.executions, memoHits: c.memoHits, evictions: c.evictions,
  });
}

async function run(name, bytes, url) {
  const e = await session(name, bytes);
  const from = Number(url.searchParams.get('from') ?? 0), n = Number(url.searchParams.get('n') ?? 1);
  let maxMemory = 0;
  for (let i = from; i < from + n; i++) {
    e.s.execute(inputsOf(e.s, i));
    if (e.rt.memoryBytes > maxMemory) maxMemory = e.rt.memoryBytes;
  }
  return report(e, { maxMemory });
}

export default {
  async fetch(request) {
    try {
      const url = new URL(request.url);
      if (url.pathname === '/digits') return await run('digits', digits, url);
      if (url.pathname === '/zoo') return await run('zoo', zoo, url);
      if (url.pathname === '/repeat') {
        const e = await session('digits', digits);
        const hits = e.s.counters.memoHits;
        for (let r = 0; r < 2; r++) for (const i of [-1, -2, -3]) e.s.execute(inputsOf(e.s, i));
        return report(e, { repeatHits: e.s.counters.memoHits - hits });
      }
      return Response.json({ error: 'NOT_FOUND', message: url.pathname }, { status: 404 });
    } catch (e) {
      return Response.json({ error: e.code ?? e.name, message: e.message }, { status: 500 });
    }
  },
};
