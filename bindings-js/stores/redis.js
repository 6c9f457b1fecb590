// A WarmStore over Redis, shared by every process that opens the same
// server and prefix. The npm `redis` client is an optional peer dependency,
// imported only when this module opens a connection itself.
//
// Execution is synchronous, Redis is not: get() answers from a bounded memory
// cache filled by preload(labels) (see preloadExecution in preload.js: the
// memo record of an execute and the outputs it names); put() stores in memory
// at once and writes through (await flush()). The records in Redis are
// bounded (maxBytes, maxEntries) by Lua scripts that put and evict atomically,
// least recently used first by a server-side use clock, so several processes
// enforce one cap between them.
import { checkBytes, checkLabel, isLabel } from './label.js';
import { DEFAULT_MAX_ENTRIES, readBounds } from './bounds.js';
import { MemoryWarmStore } from './memory.js';

export const DEFAULT_REDIS_MAX_BYTES = 1024 * 1024 * 1024;
export const DEFAULT_REDIS_MEMORY_BYTES = 64 * 1024 * 1024;

// KEYS: lru (zset label -> use), len (hash label -> bytes), bytes, clock.
const EVICT = `
local function drop(v)
  local m = redis.call('HGET', KEYS[2], v)
  redis.call('DEL', ARGV[1] .. v)
  redis.call('HDEL', KEYS[2], v)
  redis.call('ZREM', KEYS[1], v)
  if m then redis.call('DECRBY', KEYS[3], m) end
end`;
const PUT = `${EVICT}
local old = redis.call('HGET', KEYS[2], ARGV[2])
if old then redis.call('DECRBY', KEYS[3], old) end
local n = string.len(ARGV[3])
redis.call('SET', ARGV[1] .. ARGV[2], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[2], n)
redis.call('INCRBY', KEYS[3], n)
redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[4]), ARGV[2])
local evicted, maxb, maxe = 0, tonumber(ARGV[4]), tonumber(ARGV[5])
while tonumber(redis.call('GET', KEYS[3]) or '0') > maxb or redis.call('ZCARD', KEYS[1]) > maxe do
  local v = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
  if not v then break end
  drop(v)
  evicted = evicted + 1
end
return {evicted, redis.call('ZCARD', KEYS[1]), tonumber(redis.call('GET', KEYS[3]) or '0')}`;
const DELETE = `${EVICT}
local had = redis.call('ZSCORE', KEYS[1], ARGV[2])
drop(ARGV[2])
return {had and 1 or 0, redis.call('ZCARD', KEYS[1]), tonumber(redis.call('GET', KEYS[3]) or '0')}`;
// A read touches the record's use (ZADD XX: only a record the index holds).
const FETCH = `
local out = {}
for i = 2, #ARGV do
  local v = redis.call('GET', ARGV[1] .. ARGV[i])
  if v then
    redis.call('ZADD', KEYS[1], 'XX', redis.call('INCR', KEYS[4]), ARGV[i])
    out[i - 1] = v
  else
    out[i - 1] = false
  end
end
return out`;
const STAT = `return {redis.call('ZCARD', KEYS[1]), tonumber(redis.call('GET', KEYS[3]) or '0')}`;

const toBytes = (v) => (v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : null);

export class RedisWarmStore {
  #client; #keys; #rec; #memory; #pending = new Set(); #quit; #shas = new Map();
  /**
   * @param client a connected node-redis client whose bulk strings are Buffers
   *   (openRedisStore makes one)
   * @param quit called by close() (the connection openRedisStore opened)
   */
  constructor(client, options = {}, quit = null) {
    this.#client = client;
    this.#quit = quit;
    const prefix = options.prefix ?? 'holo:';
    if (typeof prefix !== 'string') throw new TypeError('RedisWarmStore: prefix must be a string');
    this.prefix = prefix;
    this.#keys = ['lru', 'len', 'bytes', 'clock'].map((k) => prefix + k);
    this.#rec = prefix + 'rec:';
    const b = readBounds(options, DEFAULT_REDIS_MAX_BYTES);
    this.maxBytes = b.maxBytes;
    this.maxEntries = b.maxEntries;
    const memoryBytes = readBounds({ maxBytes: options.memoryBytes }, Math.min(b.maxBytes, DEFAULT_REDIS_MEMORY_BYTES)).maxBytes;
    this.#memory = new MemoryWarmStore(new Map(), { maxBytes: memoryBytes, maxEntries: options.maxEntries ?? DEFAULT_MAX_ENTRIES });
    this.onError = options.onError ?? null;
    this.lastError = null;
    this.evicted = 0;
    this.size = 0; // as of the last operation that reported it (refresh() asks)
    this.bytes = 0;
  }
  // Scripts go by SHA1 (EVALSHA), loaded on first use and again when the
  // server forgot them (NOSCRIPT: a restart or SCRIPT FLUSH).
  async #eval(script, args) {
    const opts = { keys: this.#keys, arguments: [this.#rec, ...args] };
    let sha = this.#shas.get(script);
    if (!sha) this.#shas.set(script, (sha = String(await this.#client.scriptLoad(script))));
    try {
      return await this.#client.evalSha(sha, opts);
    } catch (e) {
      if (!/NOSCRIPT/.test(String(e && e.message))) throw e;
      this.#shas.delete(script);
      return this.#client.eval(script, opts);
    }
  }
  #track(p, label) {
    const q = p.then((r) => {
      if (Array.isArray(r) && r.length === 3) { this.evicted += Number(r[0]) || 0; this.size = Number(r[1]); this.bytes = Number(r[2]); }
    }, (e) => { this.lastError = e; if (this.onError) this.onError(e, label); });
    this.#pending.add(q);
    q.finally(() => this.#pending.delete(q));
  }
  get memoryBytes() { return this.#memory.maxBytes; }
  /** Records held in memory, answerable by get(). */
  get cached() { return this.#memory.size; }
  get(label) { return this.#memory.get(label); }
  has(label) { return this.#memory.has(label); }
  put(label, bytes) {
    checkLabel(label);
    checkBytes(bytes);
    if (bytes.length > this.maxBytes) return; // a record larger than the cap is not kept
    this.#memory.put(label, bytes);
    this.#track(this.#eval(PUT, [label, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), String(this.maxBytes), String(this.maxEntries)]), label);
  }
  delete(label) {
    if (!isLabel(label)) return false;
    const had = this.#memory.delete(label);
    this.#track(this.#eval(DELETE, [label]), label);
    return had;
  }
  /** Loads these labels from Redis into memory; resolves to how many were found. */
  async preload(labels) {
    labels.forEach(checkLabel);
    if (labels.length === 0) return 0;
    const vals = await this.#eval(FETCH, labels);
    let found = 0;
    labels.forEach((l, i) => {
      const b = toBytes(vals[i]);
      if (b) { this.#memory.put(l, new Uint8Array(b)); found++; }
    });
    return found;
  }
  /** Re-reads size and bytes from Redis. */
  async refresh() {
    const [n, bytes] = await this.#eval(STAT, []);
    this.size = Number(n);
    this.bytes = Number(bytes);
    return { size: this.size, bytes: this.bytes };
  }
  /** Resolves when every write so far has landed (or failed: lastError). */
  async flush() {
    while (this.#pending.size) await Promise.all([...this.#pending]);
  }
  async close() {
    await this.flush();
    if (this.#quit) await this.#quit();
  }
}

/**
 * Opens a Redis warm store. options: { url (redis://host:port) or client
 * (connected; it is used through withTypeMapping, so bulk strings come back
 * as bytes), prefix = 'holo:', maxBytes (default 1 GiB), maxEntries
 * (default 100,000), memoryBytes (default 64 MiB), onError(err, label) }.
 */
export async function openRedisStore(options = {}) {
  let redis;
  try {
    redis = await import('redis');
  } catch (e) {
    throw new Error(`openRedisStore: the npm package 'redis' is not installed (npm install redis): ${e.message}`);
  }
  const map = { [redis.RESP_TYPES.BLOB_STRING]: Buffer };
  let client = options.client, quit = null, store = null;
  if (!client) {
    // A server that is down fails the open (after ~1 s of retries), not hangs it.
    client = redis.createClient({ url: options.url, socket: { connectTimeout: 5000, reconnectStrategy: (n) => (n > 5 ? new Error(`redis at ${options.url}: unreachable`) : 50 * 2 ** n) } });
    client.on('error', (e) => { if (store) store.lastError = e; });
    await client.connect();
    quit = () => client.quit();
  }
  store = new RedisWarmStore(client.withTypeMapping(map), options, quit);
  await store.refresh();
  return store;
}
