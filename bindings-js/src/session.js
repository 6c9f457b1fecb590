// A loaded archive: execution (in port order, by name, zero-copy),
// refinement, counters and budgets, and the doors to generation and the
// prompt cache. Its internals live in a handle (handle.js) that only the
// package's own modules see.
import { HologramError, statusCode } from './errors.js';
import { halves, toU64 } from './args.js';
import { CONST, Struct } from './layout.js';
import { live, withStore } from './handle.js';
import { entropyPort, marshalInputs, orderedWithEntropy, readPorts, readTensors, viewsBytes } from './tensors.js';
import { parsePlan, readReport, SCRATCH, writeArgs } from './refine.js';
import { createGenerator } from './generator.js';
import { generate } from './generate.js';
import { dropPromptCache, promptCacheStats, setPromptCache } from './prompt-cache.js';
import { ceilingOf, rebudget, release } from './ceiling.js';

const COUNTERS = new Struct('holo_counters', ['executions', 'dispatches', 'elided', 'memo_hits', 'store_hits', 'store_misses', 'store_corrupt', 'store_puts', 'bytes_hashed', 'evictions', 'peak_live_bytes', 'peak_resident_bytes', 'weight_fetches', 'weight_evictions', 'weight_bytes_fetched', 'weight_peak_bytes', 'weight_stall_ns', 'spills', 'promotions']);
const COUNTER_NAMES = { executions: 'executions', dispatches: 'dispatches', elided: 'elided', memoHits: 'memo_hits', storeHits: 'store_hits', storeMisses: 'store_misses', storeCorrupt: 'store_corrupt', storePuts: 'store_puts', bytesHashed: 'bytes_hashed', evictions: 'evictions', peakLiveBytes: 'peak_live_bytes', peakResidentBytes: 'peak_resident_bytes', weightFetches: 'weight_fetches', weightEvictions: 'weight_evictions', weightBytesFetched: 'weight_bytes_fetched', weightPeakBytes: 'weight_peak_bytes', weightStallNs: 'weight_stall_ns', spills: 'spills', promotions: 'promotions' };
const DEFAULT_RETAIN = 64 * 1024 * 1024;
const ALL_BYTES = (1n << 64n) - 1n;
const isSession = (v) => v instanceof Session;

/** Runs `call(inArr, nIn, views, nOut, extra)` with the warm store attached; frees its scratch. */
function call(h, inputs, what, fn, { extraBytes = 0, copy = true, after = null } = {}) {
  const rt = live(h), x = rt.x, outputs = h.session.outputs;
  const nOut = outputs.length;
  const [inArr, owned, views] = marshalInputs(rt, h.ports, inputs, what, viewsBytes(nOut));
  try {
    const extra = extraBytes ? rt.alloc(extraBytes, 16) : 0; if (extra) owned.push(extra);
    const st = withStore(h, () => fn(inArr, inputs.length, views, nOut, extra));
    const died = rt.threadsFault(); // a pool worker that died during the call fails it (THREADS)
    if (died) throw died;
    if (st !== 0) throw rt.error(h.err, st);
    if (after) after(extra);
    return readTensors(rt, views, nOut, copy);
  } finally {
    if (!rt.poisoned) for (const p of owned) x.holo_free(p);
  }
}

/** A loaded archive. Not constructed directly: see load(). */
export class Session {
  #h;
  constructor(rt, w, arch, err, store, budget, owned, environment = 'node', sourceId = 0) {
    const h = { rt, w, arch, err, store, budget, owned, s: rt.x.holo_wasm_session(w), retain: DEFAULT_RETAIN, pcache: 0, spill: 0n, session: this, environment, sourceId };
    this.#h = h;
    // every input port; `inputs` leaves out the entropy port (docs/decisions.md 99), which
    // execute, run, refine and memoKey fill with fresh random bytes unless it is given
    h.ports = Object.freeze(readPorts(rt, h.s, true));
    const entropy = entropyPort(h.ports);
    this.inputs = entropy ? Object.freeze(h.ports.slice(0, -1)) : h.ports;
    /** The entropy input port { name: 'holo.entropy', dtype: 'uint32', shape: [4] } of an archive with unseeded random ops, or null. */
    this.entropyInput = entropy;
    this.outputs = Object.freeze(readPorts(rt, h.s, false));
    this.backend = rt.variant;
    this.backendIdentity = rt.cstr(rt.x.holo_wasm_backend_identity(w));
    this.archiveLabel = rt.cstr(rt.x.holo_session_archive_label(h.s), CONST.HOLO_LABEL_LEN);
  }

  #execute(inputs, what, copy) {
    const h = this.#h;
    return call(h, orderedWithEntropy(h.ports, this.inputs, inputs, what), what, (i, n, v, m) => h.rt.x.holo_wasm_execute(h.w, i, n, v, m, h.err), { copy });
  }

  /** Executes with inputs in port order; returns owned outputs { data, dtype, shape, label }. */
  execute(inputs) { return this.#execute(inputs, 'execute', true); }

  /**
   * Executes and returns labels with zero-copy views into wasm memory. A view
   * is valid until the next call into this session's module instance (any
   * execute, run, refine, load or dispose on it, which may reuse the buffer or
   * grow memory, detaching the view); copy it to keep it.
   */
  executeAddressed(inputs) { return this.#execute(inputs, 'executeAddressed', false); }

  /**
   * The memo key label of an execute with these inputs: with persistMemo, the
   * warm-store label of its memo record (memo key -> output labels), so a host
   * with an asynchronous store can fetch exactly what execute will ask for.
   */
  memoKey(inputs) {
    const h = this.#h, rt = live(h);
    if (typeof rt.x.holo_session_memo_key !== 'function') throw new HologramError('UNSUPPORTED', 'this core module has no memo key export (rebuild it)');
    const ins = orderedWithEntropy(h.ports, this.inputs, inputs, 'memoKey');
    const [inArr, owned] = marshalInputs(rt, h.ports, ins, 'memoKey');
    try {
      const p = rt.alloc(CONST.HOLO_LABEL_LEN + 1); owned.push(p);
      const st = rt.x.holo_session_memo_key(h.s, inArr, ins.length, p, h.err);
      if (st !== 0) throw rt.error(h.err, st);
      return rt.cstr(p, CONST.HOLO_LABEL_LEN);
    } finally {
      if (!rt.poisoned) for (const q of owned) rt.x.holo_free(q);
    }
  }

  /** Named feeds, as in ONNX Runtime: run({ x: { data, shape } }) -> { y: { data, dtype, shape, label } }. */
  run(feeds) {
    live(this.#h);
    if (feeds === null || typeof feeds !== 'object' || Array.isArray(feeds)) throw new HologramError('INPUT', 'run: feeds must be an object { inputName: tensor }');
    const outs = this.#execute(feeds, 'run', true);
    return Object.fromEntries(this.outputs.map((p, i) => [p.name, outs[i]]));
  }

  /**
   * Iterates the archive to a fixed point: each pass's state outputs become
   * the next pass's state inputs. `state` holds every input (port order or
   * named), state inputs carrying the initial state. Returns the report.
   */
  refine(plan, state) {
    const h = this.#h, rt = live(h);
    if (!rt.hasRefine) throw new HologramError('UNSUPPORTED', 'refinement is not compiled into this core module');
    const a = parsePlan(plan, this.inputs, this.outputs);
    let report;
    const outs = call(h, orderedWithEntropy(h.ports, this.inputs, state, 'refine'), 'refine', (i, n, v, m, extra) => {
      writeArgs(rt, extra + SCRATCH.at.args, a);
      return rt.x.holo_wasm_refine(h.w, extra + SCRATCH.at.args, i, n, extra + SCRATCH.at.report, v, m, h.err);
    }, { extraBytes: SCRATCH.size, after: (extra) => { report = readReport(rt, extra + SCRATCH.at.report); } });
    report.outputs = outs;
    return report;
  }

  get inputCount() { live(this.#h); return this.inputs.length; }
  get outputCount() { live(this.#h); return this.outputs.length; }
  get kernelCount() { return live(this.#h).x.holo_session_kernel_count(this.#h.s); }
  get residentBytes() { return Number(live(this.#h).x.holo_session_resident_bytes(this.#h.s)); }
  get residentCount() { return live(this.#h).x.holo_session_resident_count(this.#h.s); }
  get contentStoreLen() { return live(this.#h).x.holo_session_content_store_len(this.#h.s); }
  /** The last exception the warm store threw during a call (treated as a miss / failed put), or null. */
  get storeError() { return live(this.#h).storeError; }
  get counters() {
    const rt = live(this.#h);
    const p = rt.alloc(COUNTERS.sizeof, COUNTERS.alignof);
    try {
      rt.x.holo_session_counters(this.#h.s, p);
      const dv = rt.dv();
      return Object.fromEntries(Object.entries(COUNTER_NAMES).map(([k, f]) => [k, COUNTERS.num(dv, p, f)]));
    } finally {
      if (!rt.poisoned) rt.x.holo_free(p);
    }
  }

  /** The bound on transient bytes (0: unbounded). */
  get memoryBudget() { live(this.#h); return Number(this.#h.budget); }
  set memoryBudget(bytes) { this.setMemoryBudget(bytes); }
  setMemoryBudget(bytes) {
    const h = this.#h, rt = live(h);
    const b = toU64(bytes, 'memoryBudget');
    const st = rt.x.holo_wasm_set_memory_budget(h.w, ...halves(b));
    if (st !== 0) throw new HologramError(statusCode(st), `setMemoryBudget(${b}) failed`);
    h.budget = b;
    rebudget(rt, this, Number(b));
  }

  /**
   * tiered-exec: bytes of evicted values (outputs, generator state; not
   * intermediates) written to the warmStore over the session's life, read
   * back by label, verified, when an execution needs them (0: off).
   */
  get spillBudget() { live(this.#h); return Number(this.#h.spill); }
  set spillBudget(bytes) { this.setSpillBudget(bytes); }
  setSpillBudget(bytes) {
    const h = this.#h, rt = live(h);
    const b = toU64(bytes, 'spillBudget');
    if (b && !h.store) throw new HologramError('ARG', 'setSpillBudget: the session has no warmStore to spill to (load it with one)');
    const st = rt.x.holo_wasm_set_spill_budget(h.w, ...halves(b));
    if (st !== 0) throw new HologramError(statusCode(st), `setSpillBudget(${b}) failed`);
    h.spill = b;
  }

  /** The graph memo's record count (0: this session has no memo). */
  get memoRecords() {
    const rt = live(this.#h);
    return typeof rt.x.holo_wasm_memo_records === 'function' ? rt.x.holo_wasm_memo_records(this.#h.w) : 0;
  }
  set memoRecords(n) { this.setMemoRecords(n); }
  /**
   * Replaces the graph memo by an empty one of n records (rounded down to a
   * power of two, 8 to 16384; 0: the core's default). Its records are
   * dropped: a cache, so only hit rates change.
   */
  setMemoRecords(n) {
    const h = this.#h, rt = live(h);
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new HologramError('ARG', `memoRecords must be an integer from 0 to 2^32-1, got ${String(n)}`);
    if (typeof rt.x.holo_wasm_set_memo_records !== 'function') throw new HologramError('UNSUPPORTED', 'this core module cannot resize the memo (rebuild it)');
    const st = rt.x.holo_wasm_set_memo_records(h.w, n, h.err);
    if (st !== 0) throw rt.error(h.err, st);
  }

  /**
   * The memory settings in force (README "Memory"): the environment they
   * were chosen for, retainBytes, memoryBudget, memoRecords, and
   * ceilingBytes, the most linear memory the module instance may grow to
   * with its current sessions (null: no ceiling; Node by default). Raise
   * them with the load options memoryBudget, retainBytes and memoRecords
   * (or the setters); memoryBudget: 0 removes the ceiling.
   */
  get limits() {
    const h = this.#h, rt = live(h);
    return Object.freeze({
      environment: h.environment, retainBytes: h.retain, memoryBudget: Number(h.budget), memoRecords: this.memoRecords,
      ceilingBytes: ceilingOf(rt),
    });
  }

  /** The linear memory of this session's module instance, in bytes (rt.memoryBytes). */
  get memoryBytes() { return live(this.#h).memoryBytes; }

  /**
   * Bytes of dead values kept resident as a cache for elision and memo hits
   * (least recently used evicted first). Default by environment (64 MiB in
   * Node, 32 MiB in browsers, 8 MiB in workerd and other isolates: limits);
   * Infinity keeps all the memory budget allows; 0 keeps none (repeats then
   * recompute).
   */
  get retainBytes() { live(this.#h); return this.#h.retain; }
  set retainBytes(bytes) { this.setRetainBytes(bytes); }
  setRetainBytes(bytes) {
    const h = this.#h, rt = live(h);
    if (typeof rt.x.holo_wasm_set_retain_bytes !== 'function') throw new HologramError('UNSUPPORTED', 'this core module cannot change the retained bytes (rebuild it)');
    const b = bytes === Infinity ? ALL_BYTES : toU64(bytes, 'retainBytes');
    const st = rt.x.holo_wasm_set_retain_bytes(h.w, ...halves(b));
    if (st !== 0) throw new HologramError(statusCode(st), `setRetainBytes(${b}) failed`);
    h.retain = bytes === Infinity ? Infinity : Number(b);
  }

  /** Re-hashes every constant against its stored label; FORMAT error on a mismatch. */
  verify() {
    const h = this.#h, rt = live(h);
    const st = rt.x.holo_session_verify_constants(h.s, h.err);
    if (st !== 0) throw rt.error(h.err, st);
    return true;
  }

  /**
   * Autoregressive generation over a causal step graph (docs/generation.md):
   * the prompt is prefilled (K tokens per execution for a K-token sequence
   * model), then up to maxTokens are sampled.
   * opts: { maxTokens, stopToken, seed, sampler: { kind: 'greedy'|'default'|'mirostat',
   * temperature, topK, topP, minP, repetitionPenalty, frequencyPenalty, presencePenalty,
   * penaltyWindow, tau, eta, logitBias: { token: bias }, allowed: (generated) => mask }, model: { tokenInput, positionInput, logitsOutput, maskedState,
   * contentState }, (maskedState: the state's rows past the position are masked, so the
   * generator may rewind; contentState: label each state by a SHA-256 of its bytes),
   * onToken, topLogprobs, promptCache, speculative }.
   * onToken(token, index, { prob, logprob, rawLogprob, topk }) returning false stops
   * (logprob: the sampled distribution's, rawLogprob: the model's softmax; topk:
   * the topLogprobs most likely tokens; docs/generation.md, "Log-probabilities"). promptCache: true (or
   * { maxBytes, maxEntries } for the first use) restores the longest cached
   * prefix of the prompt from this session's prompt cache (setPromptCache) and
   * records the prompt. speculative: { draft: Session (same module instance,
   * see init()), k, model } — speculative decoding under `sampler`: greedy
   * output identical to greedy decoding, sampled output distributed as
   * target-only sampling (rejection sampling); onToken is then called after
   * the run. Returns { tokens, stats
   * (+ prefillTokens, prefillReused, prefillComputed), speculative? }.
   */
  generate(prompt, opts = {}) { return generate(this.#h, this, prompt, opts, isSession); }

  /**
   * The session's prompt cache (docs/generation.md, "Prompt cache"): prompt
   * prefix -> state labels + logits, held in this session (immune to the
   * retain cache's eviction), bounded by maxBytes (state + logits bytes; least
   * recently used prefixes evicted first) and maxEntries, and written through
   * the session's warmStore (if any) so that a new process starts warm.
   * null drops it. Defaults: maxBytes 64 MiB, maxEntries 64.
   */
  setPromptCache(opts = {}) { setPromptCache(this.#h, opts); }

  /**
   * Prompt-cache counters ({ lookups, hits, misses, tokensReused, inserts, evictions, storeHits, storePuts,
   * storeCorrupt, bytes, entries, maxBytes }) or null. storeCorrupt: prefixes found in the warm store and
   * refused (a manifest with a bad digest or structure, or a state record it names missing or not what it
   * names); each is also a miss, recomputed.
   */
  get promptCache() { return promptCacheStats(this.#h); }

  /**
   * The step API under generate(): a generator over this session with its own
   * sampler (opts: seed, sampler, model as for generate). Returns
   * { feed(token), sample() -> token (not fed), mark(), stats, vocab, free() };
   * one synchronous step per call, so a page can drive it from its event loop.
   * free() it (generate() does); a freed or disposed-session generator throws.
   */
  generator(opts = {}) { return createGenerator(this.#h, opts); }

  get disposed() { return !this.#h.w; }

  /** Frees the session (idempotent). Later calls throw DISPOSED. */
  dispose() {
    const h = this.#h;
    if (!h.w) return;
    const rt = h.rt;
    dropPromptCache(h); // its entries hold values in the session
    if (!rt.poisoned) {
      rt.x.holo_wasm_free_session(h.w);
      if (h.arch) rt.x.holo_free(h.arch);
      rt.x.holo_free(h.err);
    }
    if (h.sourceId) rt.sources.delete(h.sourceId);
    release(rt, this);
    h.w = 0;
    h.store = null;
    if (h.owned) rt.dispose(); // load()'s own instance: stop its workers
  }
}
if (typeof Symbol.dispose === 'symbol') Session.prototype[Symbol.dispose] = Session.prototype.dispose;
