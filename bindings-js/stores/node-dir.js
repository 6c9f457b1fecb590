// A WarmStore over a directory, in the same layout as the C FileWarmStore
// (wasi/std-file-store.c): DIR/sha256-<64 hex>.hws, each record written to a
// temporary name in DIR and renamed into place, so readers never see half a
// record and the native `holo --warm-store DIR` shares the files. Node only.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkBytes, checkLabel, fileName, isLabel } from './label.js';

let seq = 0;

export class NodeDirWarmStore {
  /** @param {string} dir created (recursively) when missing */
  constructor(dir) {
    if (typeof dir !== 'string' || dir === '') throw new TypeError('NodeDirWarmStore: dir must be a non-empty path');
    let st = null;
    try { st = statSync(dir); } catch (e) { if (e.code !== 'ENOENT') throw e; }
    if (!st) mkdirSync(dir, { recursive: true });
    else if (!st.isDirectory()) throw new Error(`NodeDirWarmStore: ${dir} is not a directory`);
    this.dir = dir;
  }
  /** The file a label is stored in. Throws on anything but a strict label. */
  pathOf(label) {
    checkLabel(label);
    return join(this.dir, fileName(label));
  }
  get(label) {
    if (!isLabel(label)) return undefined;
    try {
      return new Uint8Array(readFileSync(join(this.dir, fileName(label))));
    } catch (e) {
      if (e.code === 'ENOENT' || e.code === 'EISDIR') return undefined;
      throw e;
    }
  }
  put(label, bytes) {
    const path = this.pathOf(label);
    checkBytes(bytes);
    const tmp = join(this.dir, `.tmp-${label.slice(7)}-${process.pid}-${seq++}`);
    try {
      writeFileSync(tmp, bytes);
      renameSync(tmp, path);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
  }
  /** The labels present (files of the record pattern). */
  labels() {
    return readdirSync(this.dir)
      .map((f) => /^sha256-([0-9a-f]{64})\.hws$/.exec(f))
      .filter(Boolean)
      .map((m) => `sha256:${m[1]}`);
  }
}

export function nodeDirStore(dir) {
  return new NodeDirWarmStore(dir);
}
