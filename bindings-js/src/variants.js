// The core module variants: which this engine runs (feature probes), where
// each is shipped (dist/), and obtaining a compiled WebAssembly.Module from a
// shipped file or from what the caller gives.
import { HologramError } from './errors.js';
import { isBuffer } from './args.js';
import { builtin, isNode } from './builtin.js';

/** The core module variants, best first, and the dist/ file of each. */
export const VARIANTS = Object.freeze(['relaxed', 'simd128', 'scalar']);
export const FILES = { relaxed: 'hologram-relaxed.wasm', simd128: 'hologram-simd128.wasm', scalar: 'hologram-scalar.wasm', 'simd128-threads': 'hologram-simd128-threads.wasm' };
/** The opt-in threaded module (feature `parallel`): same kernels and bytes as simd128, plus a worker pool on shared memory. */
export const THREADED_VARIANT = 'simd128-threads';
// (func (result v128) i32.const 0 i8x16.splat) and the same + i8x16.relaxed_swizzle.
const PROBE_SIMD = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11];
const PROBE_RELAXED = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 15, 1, 13, 0, 65, 1, 253, 15, 65, 2, 253, 15, 253, 128, 2, 11];
// Where each shipped file is: one literal `new URL('../dist/<file>',
// import.meta.url)` per file, the pattern bundlers (Vite, webpack, Parcel,
// Rollup's import-meta-assets) find and emit; a computed path they cannot
// follow. Thunks: workerd's import.meta.url is no URL base, so each is
// resolved only when that file is wanted.
const SHIPPED_URL = {
  relaxed: () => new URL('../dist/hologram-relaxed.wasm', import.meta.url),
  simd128: () => new URL('../dist/hologram-simd128.wasm', import.meta.url),
  scalar: () => new URL('../dist/hologram-scalar.wasm', import.meta.url),
  'simd128-threads': () => new URL('../dist/hologram-simd128-threads.wasm', import.meta.url),
};

// Vite 6 and 7's dev servers pre-bundle this module into
// node_modules/.vite/deps/ without dist/ (vitejs/vite#8427), where a path
// relative to import.meta.url finds nothing; the package's own files are
// still served from node_modules/hologram-exec/ (Vite 8 rewrites to the
// same place). Built from a copy of import.meta.url, not the literal
// pattern, so that no bundler takes it for an asset of its own.
const HERE = import.meta.url;
const VITE_DEPS = /\/node_modules\/\.vite\/deps(_temp_[0-9a-z]+)?\/[^/]+$/;
/** The URL of the package file `rel` when this module runs from Vite's dependency cache, else null. */
export function movedByVite(rel) {
  try {
    return VITE_DEPS.test(new URL(HERE).pathname) ? new URL(`../../hologram-exec/${rel}`, HERE) : null;
  } catch {
    return null; // workerd: import.meta.url is no URL
  }
}

/** What this engine supports, by WebAssembly.validate on tiny probe modules. */
export function features() {
  return { simd: WebAssembly.validate(new Uint8Array(PROBE_SIMD)), relaxedSimd: WebAssembly.validate(new Uint8Array(PROBE_RELAXED)) };
}

export function supported(variant, f = features()) {
  return variant === 'scalar' || (variant === 'simd128' && f.simd) || (variant === 'relaxed' && f.relaxedSimd);
}

const compiled = new Map(); // variant -> Promise<WebAssembly.Module | null> (null: not shipped)

// The bytes at `url`, or null when there is no such file (not shipped).
async function readBytes(url) {
  if (url.protocol === 'file:') {
    const { readFile } = await builtin('node:fs/promises');
    try {
      return await readFile(url);
    } catch (e) {
      if (e && e.code === 'ENOENT') return null;
      throw e;
    }
  }
  const r = await fetch(url);
  if (!r.ok) return null;
  return responseBytes(r, String(url));
}

// A page where the module should be: a server that answers unknown paths
// with its index.html (dev servers, SPA hosts) - say so, not "bad magic".
const HTML_HELP = 'the server does not serve the wasm file at that URL (a dev server or SPA host answering an unknown path with its index.html); ' +
  'serve node_modules/hologram-exec/dist/*.wasm there, or pass { wasm } (a URL that is served, a Response, bytes or a WebAssembly.Module): see "Using with a bundler" in the hologram-exec README';

const SKIP = new Set([0x09, 0x0a, 0x0d, 0x20, 0xef, 0xbb, 0xbf]); // whitespace, a UTF-8 BOM
/** Whether the bytes start like markup ('<' after whitespace): wasm starts with \0asm. */
function looksLikeHtml(bytes) {
  const b = new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, Math.min(bytes.byteLength, 64));
  let i = 0;
  while (i < b.length && SKIP.has(b[i])) i++;
  return b[i] === 0x3c;
}

async function responseBytes(r, what) {
  const type = r.headers?.get?.('content-type') ?? '';
  const bytes = new Uint8Array(await r.arrayBuffer());
  if (/\btext\/html\b/i.test(type) || looksLikeHtml(bytes)) {
    throw new HologramError('UNSUPPORTED', `core module ${what}: got an HTML page${type ? ` (content-type ${type})` : ''}, not WebAssembly: ${HTML_HELP}`);
  }
  return bytes;
}

async function compile(bytes, what) {
  if (looksLikeHtml(bytes)) throw new HologramError('UNSUPPORTED', `cannot compile ${what}: it is an HTML page, not WebAssembly: ${HTML_HELP}`);
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
      const url = movedByVite(`dist/${FILES[variant]}`) ?? SHIPPED_URL[variant]();
      const bytes = await readBytes(url);
      return bytes ? compile(bytes, String(url)) : null;
    })();
    p.catch(() => compiled.delete(variant)); // a failed fetch may be retried
    compiled.set(variant, p);
  }
  return compiled.get(variant);
}

// A string names a URL (an absolute one, or relative to the page or worker
// script: what fetch() takes) or, in Node, a file path (relative to the
// working directory). Never relative to this package: bundlers move it.
async function urlOf(s) {
  if (/^[a-z][a-z0-9+.-]+:/i.test(s)) return new URL(s); // a scheme (not a Windows drive letter)
  if (isNode) return (await builtin('node:url')).pathToFileURL(s);
  const base = globalThis.location?.href;
  if (!base) throw new HologramError('ARG', `core module ${s}: a relative URL needs a page or worker location; pass an absolute URL, a Response, bytes or a WebAssembly.Module`);
  return new URL(s, base);
}

/** A WebAssembly.Module from a module, bytes, a URL (or string) or a Response. */
export async function toModule(wasm) {
  if (wasm instanceof WebAssembly.Module) return wasm;
  if (typeof Response !== 'undefined' && wasm instanceof Response) {
    const what = wasm.url || 'the given Response';
    if (!wasm.ok) throw new HologramError('ARG', `core module ${what}: HTTP ${wasm.status}`);
    return compile(await responseBytes(wasm, what), what);
  }
  if (wasm instanceof URL || typeof wasm === 'string') {
    const url = wasm instanceof URL ? wasm : await urlOf(wasm);
    const bytes = await readBytes(url);
    if (!bytes) throw new HologramError('ARG', `core module not found: ${wasm}`);
    return compile(bytes, String(wasm));
  }
  if (isBuffer(wasm) || ArrayBuffer.isView(wasm)) return compile(wasm, 'the given bytes');
  throw new HologramError('ARG', 'init: wasm must be a WebAssembly.Module, bytes, a URL or a Response');
}

/** Whether `m` is a threaded build: it imports its (shared) memory. */
export const importsMemory = (m) => WebAssembly.Module.imports(m).some((i) => i.kind === 'memory');
