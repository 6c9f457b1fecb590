// The content label of docs/holo-format.md §5 (flat up to one 64 KiB chunk,
// the tree form above), computed here with node:crypto straight from the
// spec's text, independently of compiler/holo-writer.js and the core.
import { createHash } from 'node:crypto';

export const CHUNK = 65536;
const LEAF = Buffer.alloc(64);
LEAF.write('holo/content-leaf/v1', 'latin1');

export function contentLabel(dtype, shape, data) {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const tree = bytes.length > CHUNK;
  const dims = Buffer.alloc(8 + 8 * shape.length + (tree ? 8 : 0));
  dims.writeUInt32LE(dtype, 0);
  dims.writeUInt32LE(shape.length, 4);
  shape.forEach((d, i) => dims.writeBigInt64LE(BigInt(d), 8 + 8 * i));
  if (!tree) return 'sha256:' + createHash('sha256').update('holo/content/v1\0', 'latin1').update(dims).update(bytes).digest('hex');
  dims.writeBigUInt64LE(BigInt(bytes.length), 8 + 8 * shape.length);
  const root = createHash('sha256').update('holo/content-tree/v1\0', 'latin1').update(dims);
  for (let at = 0; at < bytes.length; at += CHUNK) root.update(createHash('sha256').update(LEAF).update(bytes.subarray(at, at + CHUNK)).digest());
  return 'sha256:' + root.digest('hex');
}
