// Archive sources for load(source, { weightBudget }) (docs/decisions.md 60):
// the core reads constants by byte range as nodes need them, verifying each
// against its label, so the archive need not sit in wasm memory. A source is
// { size, read(dst: Uint8Array, offset) } filling dst from byte `offset`;
// bytes become one that copies from them, and in Node { fd } one that
// preads the open file (the caller keeps it open until dispose()).
import { HologramError } from './errors.js';
import { isBuffer } from './args.js';
import { builtin } from './builtin.js';

const isSource = (s) => s !== null && typeof s === 'object' && typeof s.read === 'function' && Number.isSafeInteger(s.size) && s.size >= 0;

/** The bytes of an archive given as bytes, or null for anything else. */
export function bytesOf(b) {
  if (b instanceof Uint8Array) return b;
  if (isBuffer(b)) return new Uint8Array(b);
  if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  return null;
}

/** A source over archive bytes: reads copy from them (they stay the caller's). */
export function bytesSource(bytes) {
  return { size: bytes.byteLength, read(dst, offset) { dst.set(bytes.subarray(offset, offset + dst.byteLength)); } };
}

/** A source over an open file descriptor (Node): fstat for the size, readSync at each offset. */
export async function fdSource(fd) {
  const fs = await builtin('node:fs');
  if (!fs || typeof fs.readSync !== 'function') throw new HologramError('UNSUPPORTED', 'load({ fd }): this host has no node:fs');
  const size = fs.fstatSync(fd).size;
  return {
    size,
    read(dst, offset) {
      for (let done = 0; done < dst.byteLength;) {
        const n = fs.readSync(fd, dst, done, dst.byteLength - done, offset + done);
        if (n <= 0) throw new HologramError('IO', `the archive file ended at ${offset + done} of ${size} bytes`);
        done += n;
      }
    },
  };
}

/** The source load() reads through, or null when the archive is loaded as bytes (pinned). */
export async function sourceOf(archive, options) {
  const bytes = bytesOf(archive);
  if (bytes) return options.weightBudget == null ? null : bytesSource(bytes);
  if (archive !== null && typeof archive === 'object' && Number.isInteger(archive.fd)) return fdSource(archive.fd);
  if (isSource(archive)) return archive;
  throw new HologramError('ARG', 'load: the archive must be bytes (Uint8Array, ArrayBuffer or a typed array), { fd } or a source { size, read(dst, offset) }');
}

/** A source that is already one (Runtime#load's synchronous path). */
export const asSource = (archive, options) => {
  const bytes = bytesOf(archive);
  if (bytes) return options.weightBudget == null ? null : bytesSource(bytes);
  if (isSource(archive)) return archive;
  throw new HologramError('ARG', 'load: the archive must be bytes or a source { size, read(dst, offset) } ({ fd }: use load())');
};
