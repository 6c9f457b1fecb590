// worker.js
import { load } from 'hologram-exec';
import core from 'hologram-exec/dist/hologram-simd128.wasm'; // a WebAssembly.Module
import model from './model.holo';                             // an ArrayBuffer (the Data rule)

export default {
  async fetch(request) {
    const s = await load(new Uint8Array(model), { wasm: core, variant: 'simd128' });
    const [y] = s.execute([new Float32Array(s.inputs[0].shape.reduce((a, b) => a * b, 1))]);
    s.dispose();
    return Response.json({ label: y.label, y: Array.from(y.data) });
  },
};
