// A Cloudflare Worker (workerd) running .holo archives with hologram-exec.
// The core module arrives as a wasm binding (a compiled WebAssembly.Module:
// workers may not compile wasm at run time), the archives as data modules.
import { load } from './index.js';
import { MemoryWarmStore } from './stores/memory.js';
import core from './hologram-simd128.wasm';
import mlp from './mlp.holo';
import cone from './cone.holo';

const store = new MemoryWarmStore(); // lives as long as the isolate

export default {
  async fetch(request) {
    try {
      const opts = { wasm: core, variant: 'simd128' };
      const s = await load(new Uint8Array(mlp), opts);
      const x = Float32Array.from({ length: 64 }, (_, i) => Math.sin(i * 0.37));
      const [y] = s.execute([x]);
      const memo = s.execute([x])[0].label === y.label ? s.counters.memoHits : -1;
      s.dispose();
      const a = await load(new Uint8Array(cone), { ...opts, warmStore: store });
      const b = await load(new Uint8Array(cone), { ...opts, warmStore: store });
      return Response.json({
        backend: 'workerd', variant: s.backend, label: y.label, shape: y.shape, y: Array.from(y.data), memoHits: memo,
        cold: a.counters, warm: b.counters,
      });
    } catch (e) {
      return Response.json({ error: e.code ?? e.name, message: e.message }, { status: 500 });
    }
  },
};
