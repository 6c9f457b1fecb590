// The core module variants: which this engine runs (feature probes), where
// each is shipped (dist/), and obtaining a compiled WebAssembly.Module from a
// shipped file or from what the caller gives.
import { HologramError } from './errors.js';
import { isBuffer } from './args.js';

/** The core module variants, best first, and the dist/ file of each. */
export const VARIANTS = Object.freeze(['relaxed', 'simd128', 'scalar']);
export const FILES = { relaxed: 'hologram-relaxed.wasm', simd128: 'hologram-simd128.wasm', scalar: 'hologram-scalar.wasm', 'simd128-threads': 'hologram-simd128-threads.wasm' };
/** The opt-in threaded module (feature `parallel`): same kernels and bytes as simd128, plus a worker pool on shared memory. */
export const THREADED_VARIANT = 'simd128-threads';
// (func (result v128) i32.const 0 i8x16.splat) and the same + i8x16.relaxed_swizzle.
const PROBE_SIMD = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11];
const PROBE_RELAXED = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 15, 1, 13, 0, 65, 1, 253, 15, 65, 2, 253, 15, 253, 128, 2, 11];
// The package root: where dist/ is, and what a relative wasm URL is relative
// to. Resolved when needed: workerd's import.meta.url is no URL base.
const root = () => new URL('../', import.meta.url);

/** What this engine supports, by WebAssembly.validate on tiny probe modules. */
export function features() {
  return { simd: WebAssembly.validate(new Uint8Array(PROBE_SIMD)), relaxedSimd: WebAssembly.validate(new Uint8Array(PROBE_RELAXED)) };
}

export function supported(variant, f = features()) {
  return variant === 'scalar' || (variant === 'simd128' && f.simd) || (variant === 'relaxed' && f.relaxedSimd);
}

const compiled = new Map(); // variant -> Promise<WebAssembly.Module | null> (null: not shipped)

async function readBytes(url) {
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    try {
      return await readFile(url);
    } catch (e) {
      if (e && e.code === 'ENOENT') return null;
      throw e;
    }
  }
  const r = await fetch(url);
  if (!r.ok) return null;
  return new Uint8Array(await r.arrayBuffer());
}

async function compile(bytes, what) {
  try {
    return await WebAssembly.compile(bytes);
  } catch (e) {
    throw new HologramError('UNSUPPORTED', `cannot compile ${what}: ${e && e.message}`, { cause: e });
  }
}

/** The compiled shipped module of `variant`, or null when dist/ lacks it (compiled once). */
export function shipped(variant) {
  if (!compiled.has(variant)) {
    const p = (async () => {
      const bytes = await readBytes(new URL(`dist/${FILES[variant]}`, root()));
      return bytes ? compile(bytes, `dist/${FILES[variant]}`) : null;
    })();
    p.catch(() => compiled.delete(variant)); // a failed fetch may be retried
    compiled.set(variant, p);
  }
  return compiled.get(variant);
}

/** A WebAssembly.Module from a module, bytes, a URL (or string) or a Response. */
export async function toModule(wasm) {
  if (wasm instanceof WebAssembly.Module) return wasm;
  if (typeof Response !== 'undefined' && wasm instanceof Response) return compile(new Uint8Array(await wasm.arrayBuffer()), wasm.url || 'response');
  if (wasm instanceof URL || typeof wasm === 'string') {
    const bytes = await readBytes(new URL(wasm, root()));
    if (!bytes) throw new HologramError('ARG', `core module not found: ${wasm}`);
    return compile(bytes, String(wasm));
  }
  if (isBuffer(wasm) || ArrayBuffer.isView(wasm)) return compile(wasm, 'the given bytes');
  throw new HologramError('ARG', 'init: wasm must be a WebAssembly.Module, bytes, a URL or a Response');
}
