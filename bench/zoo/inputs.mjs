// Seeded inputs for a zoo model's ports (bench/zoo/build.py's manifest): the
// same bytes for hologram, onnxruntime-node and onnxruntime-web. Floats are
// uniform in [-1, 1); integer inputs (token ids, masks) uniform in their
// manifest `range` [lo, hi). A Feeder with a seed gives the check's fixed
// inputs; next() gives a fresh set for every timed run (the memo can never
// answer).
const INT = { int64: BigInt64Array, int32: Int32Array, int8: Int8Array, uint8: Uint8Array, bool: Uint8Array };

export const numel = (shape) => shape.reduce((a, b) => a * b, 1);

export class Feeder {
  constructor(ports, seed) {
    this.ports = ports;
    this.s = (seed >>> 0) || 0x9e3779b9;
  }

  u32() { let s = this.s; s ^= s << 13; s ^= s >>> 17; s ^= s << 5; this.s = s >>> 0; return this.s; }

  tensor(p) {
    const n = numel(p.shape);
    if (p.dtype === 'float32' || p.dtype === 'float64') {
      const d = p.dtype === 'float32' ? new Float32Array(n) : new Float64Array(n);
      for (let i = 0; i < n; i++) d[i] = this.u32() / 2 ** 31 - 1;
      return d;
    }
    const T = INT[p.dtype];
    if (!T) throw new Error(`zoo inputs: no generator for ${p.dtype} input '${p.name}'`);
    const [lo, hi] = p.range ?? (p.dtype === 'bool' ? [0, 2] : [0, 16]);
    const d = new T(n);
    for (let i = 0; i < n; i++) { const v = lo + (this.u32() % (hi - lo)); d[i] = T === BigInt64Array ? BigInt(v) : v; }
    return d;
  }

  /** [{ name, dtype, shape, data }] in port order. */
  next() { return this.ports.map((p) => ({ name: p.name, dtype: p.dtype, shape: p.shape, data: this.tensor(p) })); }
}
