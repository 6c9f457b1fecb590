// Compiled by tests/js/types.test.mjs with `tsc --noEmit` against the package's
// exports map (node_modules/hologram-exec -> bindings-js). Each line after an
// expect-error directive must fail to type-check.
import { load, init, features, HologramError, VARIANTS, THREADED_VARIANT, type Session, type Tensor, type Output, type SequenceOutput, type RefineReport, type WarmStore, type Counters, type SessionLimits, type Environment } from 'hologram-exec';
import { MemoryWarmStore, memoryStore } from 'hologram-exec/stores/memory';
import { NodeDirWarmStore } from 'hologram-exec/stores/node-dir';
import { openBrowserStore, type BrowserWarmStore } from 'hologram-exec/stores/browser';
import { openRedisStore, type RedisWarmStore } from 'hologram-exec/stores/redis';
import { preloadExecution } from 'hologram-exec/stores/preload';
import { openKVStore, type KVNamespaceLike, type KVWarmStore } from 'hologram-exec/stores/cloudflare-kv';
import { openR2Store, type R2BucketLike, type R2WarmStore } from 'hologram-exec/stores/cloudflare-r2';

async function main(bytes: Uint8Array): Promise<void> {
  const store: WarmStore = new MemoryWarmStore();
  const dir = new NodeDirWarmStore('/tmp/store');
  const s: Session = await load(bytes, { warmStore: store, memoryBudget: 1 << 20, variant: 'simd128', trustStore: false, verifyConstants: true });
  await load(bytes.buffer, { warmStore: dir, memoryBudget: 10n });
  const outs: Tensor[] = s.execute([new Float32Array(4), { data: new Float32Array(8), shape: [2, 4] }, new Uint8Array(16)]);
  // sequence and optional ports: arrays of tensors and null in, Output out
  const lists: Output[] = s.execute<Output>([[{ data: new Float32Array(2), shape: [2] }], null, { data: new Int32Array(1), dtype: 'int32' }]);
  const seq = lists[0];
  if (Array.isArray(seq)) console.log((seq as SequenceOutput).label, seq.length && seq[0].shape);
  // @ts-expect-error a sequence item needs typed data
  s.execute<Output>([[{ data: 'x' }]]);
  const y: Float32Array | undefined = outs[0].data instanceof Float32Array ? outs[0].data : undefined;
  const named: Record<string, Tensor> = s.run({ x: { data: [1, 2, 3], dims: [3] } });
  const views = s.executeAddressed({ x: new Float32Array(3) });
  const label: string = views[0].label;
  const r: RefineReport = s.refine({ passBudget: 4, validators: ['stableLabels', 'stableBytes'], repair: { retryPass: 2 }, contract: { inputs: ['x'], outputs: [0] } }, [new Float32Array(3)]);
  if (r.status === 'converged' || r.status === 'repaired') console.log(r.passes, r.stateLabels[0], r.outputs.length);
  const c: Counters = s.counters;
  const n: number = s.inputCount + s.outputCount + s.kernelCount + s.residentBytes + s.residentCount + s.contentStoreLen + c.memoHits;
  console.log(y, named, label, n, s.backend, s.inputs[0].shape, features().relaxedSimd, VARIANTS[0]);
  s.memoryBudget = 1024;
  const lim: SessionLimits = s.limits;
  const ceil: number | null = lim.ceilingBytes;
  const env: Environment = lim.environment;
  await load(bytes, { environment: 'workerd', retainBytes: 8 << 20, memoRecords: 4096 });
  s.setMemoRecords(1024);
  console.log(ceil, env, s.memoRecords, s.memoryBytes, lim.retainBytes + lim.memoryBudget + lim.memoRecords);
  // @ts-expect-error limits are read-only
  lim.retainBytes = 1;
  // @ts-expect-error not an environment
  await load(bytes, { environment: 'mars' });
  s.dispose();
  const rt = await init(undefined, { variant: 'scalar' });
  rt.load(bytes, { warmStore: memoryStore() }).dispose();
  const heapFree: number = rt.heapStats.free + rt.memoryBytes;
  console.log(heapFree);
  const rtT = await init(undefined, { threads: 2 });
  const nt: number = rtT.threads;
  console.log(nt, rtT.threadsUnavailable, rtT.poolStats?.workerTasks, THREADED_VARIANT);
  rtT.dispose();
  (await load(bytes, { threads: 4, variant: 'simd128-threads' })).dispose();
  await init(new WebAssembly.Module(new Uint8Array(8)), { variant: 'relaxed' });
  const b: BrowserWarmStore = await openBrowserStore({ backend: 'cache', preload: ['sha256:00'] });
  await b.flush();
  const rs: RedisWarmStore = await openRedisStore({ url: 'redis://127.0.0.1:6379', maxEntries: 10 });
  const m = await load(bytes, { warmStore: rs, persistMemo: true });
  const key: string = m.memoKey([new Float32Array(4)]);
  const pre = await preloadExecution(rs, m, [new Float32Array(4)]);
  console.log(key, pre.ready, pre.outputs?.length, rs.size, b.delete(key), dir.size);
  const kvb = {} as KVNamespaceLike, r2b = {} as R2BucketLike;
  const kvs: KVWarmStore = await openKVStore(kvb, { prefix: 'holo/', maxEntries: 100, memoryBytes: 1 << 20 });
  const r2s: R2WarmStore = await openR2Store(r2b, { maxBytes: 1 << 30 });
  const kvm = await load(bytes, { warmStore: kvs, persistMemo: true });
  const kvPre = await preloadExecution(kvs, kvm, [new Float32Array(4)]);
  const fresh: { size: number; bytes: number } = await r2s.refresh();
  console.log(kvPre.ready, kvs.size, kvs.evicted, r2s.delete(key), fresh.size);
  await r2s.flush();
  try { s.execute([]); } catch (e) { if (e instanceof HologramError && e.code === 'DISPOSED') console.log(e.message); }

  // @ts-expect-error unknown variant
  await load(bytes, { variant: 'avx512' });
  // @ts-expect-error a refine plan needs a pass budget
  s.refine({ validators: ['stableLabels'] }, []);
  // @ts-expect-error validators are named
  s.refine({ passBudget: 1, validators: ['stable'] }, []);
  // @ts-expect-error execute takes inputs, not a string
  s.execute('x');
  // @ts-expect-error counters are read-only numbers
  const bad: string = s.counters.dispatches;
  // @ts-expect-error error codes are a closed set
  const code: HologramError['code'] = 'NOPE';
  console.log(bad, code);
}
void main;

// generator(): the step API
async function stepApi(s: Session): Promise<number> {
  const g = s.generator({ seed: 1, sampler: { kind: 'greedy' } });
  g.feed(65);
  const t: number = g.sample();
  const steps: number = g.stats.steps;
  g.free();
  return t + steps + g.vocab;
}
void stepApi;
