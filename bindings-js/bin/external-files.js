// The side files of an ONNX model with external data, for `holo convert`:
// a convert() externalData function reading each tensor's byte range from
// the file beside the model (pread: fs.readSync at the offset, never the
// whole file, so a 3 GiB weights file costs its tensors, not itself twice).
//
//   const ext = externalFiles(modelDir); convert(bytes, { externalData: ext.read }); ext.close();
//
// The converter has already refused absolute and `..` locations
// (compiler/onnx-external.js); here a symbolic link leading out of the model's
// directory is refused too, since the real path is what gets read.
import fs from 'node:fs';
import path from 'node:path';

const CHUNK = 1 << 30; // readSync reads at most 2^31-1 bytes at once

/** A file-system error as the CLI words it (holo.js uses it for every file it touches). */
export function ioCause(e) {
  switch (e && e.code) {
    case 'ENOENT': return 'no such file or directory';
    case 'EISDIR': return 'is a directory, not a file';
    case 'ENOTDIR': return 'a component of the path is not a directory';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'ELOOP': return 'too many symbolic links';
    case 'ENOSPC': return 'no space left on device';
    default: return (e && e.message) || String(e);
  }
}

/** Opens `location` under `dir` (real path inside dir's real path) -> { fd, size }. */
function openInside(dir, location) {
  let real;
  try {
    real = fs.realpathSync(path.join(dir, location));
  } catch (e) {
    throw new Error(`cannot open the side file ${path.join(dir, location)}: ${ioCause(e)}`);
  }
  const root = fs.realpathSync(dir);
  if (!real.startsWith(root.endsWith(path.sep) ? root : root + path.sep))
    throw new Error(`the side file ${path.join(dir, location)} resolves to ${real}, outside the model's directory ${root}: refused`);
  let fd;
  try {
    fd = fs.openSync(real, 'r');
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error('not a regular file'), { code: st.isDirectory() ? 'EISDIR' : undefined });
    return { fd, size: st.size };
  } catch (e) {
    if (fd !== undefined) fs.closeSync(fd);
    throw new Error(`cannot read the side file ${path.join(dir, location)}: ${ioCause(e)}`);
  }
}

/** { read(location, offset, length) -> Uint8Array, close(), bytesRead } for the model directory `dir`. */
export function externalFiles(dir) {
  const open = new Map(); // location -> { fd, size }
  const self = {
    bytesRead: 0,
    read(location, offset, length) {
      if (!open.has(location)) open.set(location, openInside(dir, location));
      const { fd, size } = open.get(location);
      if (offset + length > size) throw new Error(`bytes ${offset}..${offset + length} lie past the end of the file (${size} bytes)`);
      const out = new Uint8Array(length);
      for (let done = 0; done < length; ) {
        const n = fs.readSync(fd, out, done, Math.min(CHUNK, length - done), offset + done);
        if (n === 0) throw new Error(`the file ended at byte ${offset + done} while reading bytes ${offset}..${offset + length}`);
        done += n;
      }
      self.bytesRead += length;
      return out;
    },
    close() {
      for (const { fd } of open.values()) fs.closeSync(fd);
      open.clear();
    },
  };
  return self;
}
