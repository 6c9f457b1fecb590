// A WarmStore over a directory, in the same layout as the C FileWarmStore
// (wasi/std-file-store.c): DIR/sha256-<64 hex>.hws, each record written to a
// temporary name in DIR and renamed into place, so readers never see half a
// record and the native `holo --warm-store DIR` shares the files. Node only.
//
// Bounded (maxBytes, maxEntries): the index of sizes is built from one
// directory listing at open (file sizes, oldest modification first), and a
// full store evicts its least recently used records. A get touches the file's
// mtime, so recency survives a restart and is seen by the next process that
// opens the directory. Several processes may share a directory; each enforces
// the caps against its own view (refreshed at open, by refresh(), and when it
// meets a record another process wrote), so the directory can exceed the cap by
// what the others wrote since.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { checkBytes, checkLabel, fileName, isLabel } from './label.js';
import { DEFAULT_DIR_MAX_BYTES, SizeIndex, readBounds } from './bounds.js';

const RECORD_RE = /^sha256-([0-9a-f]{64})\.hws$/;
const TMP_RE = /^\.tmp-[0-9a-f]{64}-(\d+)-\d+$/;
let seq = 0;

function alive(pid) {
  if (pid === process.pid) return true;
  try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
}

function writeAll(path, bytes, durable) {
  const fd = openSync(path, 'wx');
  try {
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export class NodeDirWarmStore {
  #index;
  /**
   * @param {string} dir created (recursively) when missing
   * @param {{maxBytes?: number, maxEntries?: number, durable?: boolean}} [options]
   */
  constructor(dir, options = {}) {
    if (typeof dir !== 'string' || dir === '') throw new TypeError('NodeDirWarmStore: dir must be a non-empty path');
    let st = null;
    try { st = statSync(dir); } catch (e) { if (e.code !== 'ENOENT') throw e; }
    if (!st) mkdirSync(dir, { recursive: true });
    else if (!st.isDirectory()) throw new Error(`NodeDirWarmStore: ${dir} is not a directory`);
    this.dir = dir;
    // durable: fsync each record before the rename, so a power loss (not
    // only a killed process) keeps every committed record. Off by default: a
    // killed process already cannot leave half a record, and fsync costs ms.
    this.durable = options.durable === true;
    this.evicted = 0;
    this.#index = new SizeIndex(readBounds(options, DEFAULT_DIR_MAX_BYTES));
    this.refresh();
  }
  get maxBytes() { return this.#index.maxBytes; }
  get maxEntries() { return this.#index.maxEntries; }
  /** Number of records (this process's view). */
  get size() { return this.#index.entries; }
  /** Total bytes of the records (this process's view). */
  get bytes() { return this.#index.bytes; }

  /**
   * Re-reads the directory: sizes and recency (mtime) of every record, and
   * removes temporary files left by processes that died mid-write. Then
   * evicts down to the caps.
   */
  refresh() {
    const found = [];
    for (const f of readdirSync(this.dir)) {
      const m = RECORD_RE.exec(f);
      if (m) {
        try {
          const st = statSync(join(this.dir, f));
          if (st.isFile()) found.push([`sha256:${m[1]}`, st.size, st.mtimeMs]);
        } catch (e) { if (e.code !== 'ENOENT') throw e; }
        continue;
      }
      const t = TMP_RE.exec(f);
      if (t && !alive(Number(t[1]))) rmSync(join(this.dir, f), { force: true });
    }
    found.sort((a, b) => a[2] - b[2]);
    this.#index = new SizeIndex(this.#index);
    for (const [label, n] of found) this.#index.set(label, n);
    this.#shrink(0, 0);
  }

  /** The file a label is stored in. Throws on anything but a strict label. */
  pathOf(label) {
    checkLabel(label);
    return join(this.dir, fileName(label));
  }
  get(label) {
    if (!isLabel(label)) return undefined;
    const path = join(this.dir, fileName(label));
    let bytes;
    try {
      bytes = new Uint8Array(readFileSync(path));
    } catch (e) {
      if (e.code === 'ENOENT' || e.code === 'EISDIR') {
        this.#index.remove(label); // evicted by another process
        return undefined;
      }
      throw e;
    }
    if (this.#index.has(label)) this.#index.touch(label);
    else this.#index.set(label, bytes.length);
    try { const now = new Date(); utimesSync(path, now, now); } catch { /* recency is a hint */ }
    return bytes;
  }
  has(label) { return isLabel(label) && this.#index.has(label); }
  put(label, bytes) {
    const path = this.pathOf(label);
    checkBytes(bytes);
    if (bytes.length > this.#index.maxBytes) return; // a record larger than the cap is not kept
    this.#index.remove(label);
    this.#shrink(bytes.length);
    const tmp = join(this.dir, `.tmp-${label.slice(7)}-${process.pid}-${seq++}`);
    try {
      writeAll(tmp, bytes, this.durable);
      renameSync(tmp, path);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
    this.#index.set(label, bytes.length);
  }
  delete(label) {
    if (!isLabel(label)) return false;
    this.#index.remove(label);
    try {
      unlinkSync(join(this.dir, fileName(label)));
      return true;
    } catch (e) {
      if (e.code === 'ENOENT') return false;
      throw e;
    }
  }
  clear() {
    for (const label of this.labels()) this.delete(label);
  }
  #shrink(incoming, records = 1) {
    for (const victim of this.#index.victims(incoming, records)) {
      this.#index.remove(victim);
      try { unlinkSync(join(this.dir, fileName(victim))); } catch (e) { if (e.code !== 'ENOENT') throw e; }
      this.evicted += 1;
    }
  }
  /** The labels present on disk (files of the record pattern). */
  labels() {
    return readdirSync(this.dir)
      .map((f) => RECORD_RE.exec(f))
      .filter(Boolean)
      .map((m) => `sha256:${m[1]}`);
  }
}

export function nodeDirStore(dir, options) {
  return new NodeDirWarmStore(dir, options);
}
