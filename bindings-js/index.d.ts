// Type declarations for hologram-exec (hand-written; checked by tests/js/types.test.mjs).

export type DType =
  | 'float32' | 'float64' | 'float16' | 'bfloat16'
  | 'int8' | 'int16' | 'int32' | 'int64'
  | 'uint8' | 'uint16' | 'uint32' | 'uint64'
  | 'bool';

export type TypedArray =
  | Float32Array | Float64Array
  | Int8Array | Int16Array | Int32Array | BigInt64Array
  | Uint8Array | Uint8ClampedArray | Uint16Array | Uint32Array | BigUint64Array;

/** Bytes (Uint8Array, ArrayBuffer, DataView: raw little-endian, any port), a typed
 * array of the port's dtype, or a plain array converted to the port's dtype. */
export type TensorData = TypedArray | ArrayBufferLike | DataView | ReadonlyArray<number | bigint>;

export interface TensorInput {
  data: TensorData;
  /** Required where the port has symbolic dims; otherwise the port's shape. */
  shape?: ReadonlyArray<number | bigint>;
  /** ONNX Runtime's name for shape. */
  dims?: ReadonlyArray<number | bigint>;
  /** If given, must equal the port's dtype. */
  dtype?: DType;
}

/** One tensor of a sequence or optional input: typed data, its shape (default: 1-D), its dtype
 * (default: the typed array's; a Uint8Array is uint8, give dtype 'bool' for bool). */
export interface ItemInput {
  data: TypedArray;
  shape?: ReadonlyArray<number | bigint>;
  dims?: ReadonlyArray<number | bigint>;
  dtype?: DType;
}

/** A sequence port (dtype 'sequence') takes an array of tensors of one dtype; an optional port
 * (dtype 'optional') takes null (empty), a tensor, or an array (an optional sequence). */
export type ListInput = ReadonlyArray<ItemInput> | ItemInput | null;

export type Input = TensorData | TensorInput | ListInput;

/** One tensor of a sequence or optional output (an owned copy; the whole value has one label). */
export interface ItemTensor {
  data: TypedArray;
  dtype: DType;
  shape: number[];
}

/** A sequence output: its tensors in order, its κ-label as a non-enumerable property. */
export type SequenceOutput = ItemTensor[] & { readonly label: string };

/** What an output port gives: a tensor; for a 'sequence' port a SequenceOutput; for an 'optional'
 * port null (empty), or its element (an ItemTensor with a label, or a SequenceOutput). execute,
 * run and executeAddressed return Tensor by default; an archive with sequence or optional
 * outputs asks for `execute<Output>(...)` and narrows. */
export type Output = Tensor | SequenceOutput | (ItemTensor & { readonly label: string }) | null;

/** An output. From execute/run the data is an owned copy; from executeAddressed a view. */
export interface Tensor {
  /** Float32Array for float32, BigInt64Array for int64, Uint8Array for bool, ...; float16 and
   * bfloat16 as their bit patterns in a Uint16Array (an input of float16 may also be a
   * Float16Array where the host has one). */
  data: TypedArray;
  dtype: DType;
  shape: number[];
  /** The κ-label of the content: `sha256:<64 hex>`. */
  label: string;
}

export interface PortInfo {
  readonly name: string;
  /** 'sequence' and 'optional' ports take and give lists (ListInput, Output). */
  readonly dtype: DType | 'sequence' | 'optional';
  readonly dtypeCode: number;
  /** Numbers, symbol names for symbolic dims; null when unknown (outputs). */
  readonly shape: ReadonlyArray<number | string> | null;
}

export interface Counters {
  executions: number;
  dispatches: number;
  elided: number;
  memoHits: number;
  storeHits: number;
  storeMisses: number;
  storeCorrupt: number;
  storePuts: number;
  bytesHashed: number;
  evictions: number;
  peakLiveBytes: number;
  peakResidentBytes: number;
  /** Constants read by range (weightBudget): reads, evictions (packed forms too), bytes read, peak resident constant + packed bytes, time reading and verifying (ns). */
  weightFetches: number;
  weightEvictions: number;
  weightBytesFetched: number;
  weightPeakBytes: number;
  weightStallNs: number;
  /** tiered-exec (spillBudget): values written to the warmStore as the pool evicted them, and read back from it by label. */
  spills: number;
  promotions: number;
}

/** A host key-value store, synchronous, keyed by κ-label. Records are opaque bytes. */
export interface WarmStore {
  get(label: string): Uint8Array | undefined | null;
  put(label: string, bytes: Uint8Array): void;
}

/** What every store in bindings-js/stores/ adds: caps, size and delete. */
export interface BoundedWarmStore extends WarmStore {
  readonly maxBytes: number;
  readonly maxEntries: number;
  /** Number of records and their total bytes. */
  readonly size: number;
  readonly bytes: number;
  /** Records evicted so far to stay within the caps. */
  readonly evicted: number;
  delete(label: string): boolean;
}

export type Variant = 'relaxed' | 'simd128' | 'scalar' | 'simd128-threads';

/** Where the package runs; each has its memory defaults (README "Memory"). */
export type Environment = 'node' | 'browser' | 'workerd' | 'isolate';

/**
 * The memory settings of a session (session.limits), chosen by environment
 * unless the load options gave them:
 *
 * | environment | retainBytes | memoryBudget | memoRecords | ceilingBytes |
 * |---|--:|--:|--:|---|
 * | node    | 64 MiB | 0 (none) | 16384 | null (none) |
 * | browser | 32 MiB | 256 MiB  | 16384 | base + Σ(load + 1.25 × budget + 16 MiB) |
 * | workerd, isolate | 8 MiB | 16 MiB | 4096 | base + Σ(load + 1.25 × budget + 16 MiB) |
 *
 * base: the module's memory below its heap (about 1 MiB); load: the heap
 * bytes a session's load took (archive copy, tables, packed weights, memo);
 * the sum runs over the instance's sessions. The heap refuses to grow past
 * the ceiling: cached dead values are evicted first, then the call fails
 * with MEMORY (the session stays usable); a value beyond the budget fails
 * with BUDGET. Raise them with the load options memoryBudget, retainBytes,
 * memoRecords (or the session's setters); memoryBudget 0 lifts the ceiling.
 * retainBytes is a cap the cache grows to as reuse earns it: past
 * executions' values are held to 4 MiB (or twice the peak live bytes) at
 * first, doubling each time a memo record finds its outputs evicted
 * (docs/memory.md).
 */
export interface SessionLimits {
  readonly environment: Environment;
  readonly retainBytes: number;
  readonly memoryBudget: number;
  readonly memoRecords: number;
  /** The most linear memory the module instance may grow to with its current sessions; null: no ceiling. */
  readonly ceilingBytes: number | null;
}

export interface LoadOptions {
  warmStore?: WarmStore | null;
  /**
   * Bound on transient bytes (0: unbounded). Absent: the environment's
   * default (SessionLimits: 0 in Node, 256 MiB in browsers, 16 MiB in workerd
   * and other isolates).
   */
  memoryBudget?: number | bigint;
  /**
   * Read constants by range as nodes need them, verified against their
   * labels, at most this many bytes of them (and their packed forms)
   * resident, least recently used evicted (0: never evicted). Absent with
   * bytes: every constant pinned in wasm memory. Always so for a source.
   */
  weightBudget?: number | bigint;
  /** Bytes of dead values kept as a cache (absent: the environment's default; Infinity: all the budget allows). */
  retainBytes?: number | bigint;
  /** The graph memo's records (rounded down to a power of two, 8 to 16384; 0 or absent: the environment's default). */
  memoRecords?: number;
  /** Use another environment's defaults (e.g. 'workerd' to size a worker while testing in Node). */
  environment?: Environment;
  /** Force a shipped variant instead of the best supported one. */
  variant?: Variant;
  /**
   * Threads for one dispatch (1-64, default 1). More than 1 selects the
   * 'simd128-threads' module with a worker pool on shared memory where the
   * engine allows it (Node; browsers only when cross-origin isolated), else
   * falls back to one thread (Runtime.threadsUnavailable says why). Same bytes
   * and labels for any thread count.
   */
  threads?: number;
  /** Trust warm-store bytes without re-hashing (default: verify). */
  trustStore?: boolean;
  /**
   * Persist each execution's memo record (memo key -> output labels) and its
   * outputs in the warmStore, and answer an execution whose record is there
   * from the store, verified, with 0 dispatches (docs/warm-store.md "Memo records").
   */
  persistMemo?: boolean;
  /**
   * tiered-exec: evicted outputs and generator/refinement state (not
   * intermediates) go to the warmStore, up to this many bytes over the
   * session's life, and come back by label, verified, when an execution
   * needs them (docs/warm-store.md "Tiered execution"). Needs warmStore. Default 0 (off).
   */
  spillBudget?: number | bigint;
  /** Re-hash every constant at load. */
  verifyConstants?: boolean;
  /** false: do not compute the constant-only cone at load. Default true. */
  warmCone?: boolean;
  /** A core module to use instead of the shipped ones (workerd: the wasm binding; with `threads`: the threaded build). */
  wasm?: WasmSource;
  /**
   * false: the core computes every input label with its own SHA-256. Default:
   * where the host has a synchronous SHA-256 (node:crypto in Node, Deno, Bun),
   * it hashes inputs of 2 KiB and more. Labels are identical either way.
   */
  hostHash?: boolean;
}

/** Archive or module bytes: any typed array or DataView, or an (Shared)ArrayBuffer. */
export type Bytes = ArrayBufferView | ArrayBufferLike;
/** An archive read by range (load with weightBudget): read fills dst with the bytes from offset, or throws. */
export interface ArchiveSource {
  size: number;
  read(dst: Uint8Array, offset: number): void;
}

export type WasmSource = WebAssembly.Module | Bytes | URL | string | Response;

export type Validator = 'stableLabels' | 'stableBytes';

export interface RefinePlan {
  /** Passes to run at most before repair (>= 1). */
  passBudget: number;
  /** Default ['stableLabels']. */
  validators?: Validator[];
  /** Default 'none'. */
  repair?: 'none' | { retryPass: number };
  /** State inputs and the outputs that feed them, by index or name. Default: input i <- output i. */
  contract?: { inputs: Array<number | string>; outputs: Array<number | string> };
}

export type RefineStatus = 'converged' | 'budgetExhausted' | 'repaired' | 'failed';

export interface RefineReport {
  status: RefineStatus;
  /** status is 'converged' or 'repaired'. */
  converged: boolean;
  passes: number;
  extraPassesUsed: number;
  /** Labels of the final state, in contract order. */
  stateLabels: string[];
  dispatches: number;
  elided: number;
  memoHits: number;
  bytesCompared: number;
  residentBytes: number;
  residentCount: number;
  /** The last pass's outputs (owned copies). */
  outputs: Tensor[];
}

export type ErrorCode =
  | 'ARG' | 'FORMAT' | 'UNSUPPORTED' | 'INPUT' | 'MEMORY' | 'BUDGET' | 'STORE' | 'KERNEL' | 'STATE' | 'LIMIT' | 'IO'
  | 'DISPOSED' | 'TRAP' | 'ABI' | 'UNKNOWN'
  /** A thread pool worker died inside a task during the call (threaded module): its task was re-run
   * by the calling thread, the call's results are not returned, the session stays usable. */
  | 'THREADS';

export declare class HologramError extends Error {
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown });
  readonly name: 'HologramError';
  readonly code: ErrorCode;
  /** The core's numeric status, for errors that came from it. */
  readonly status?: number;
}

export declare const VARIANTS: readonly Variant[];
/** The opt-in threaded variant (not in VARIANTS: never picked without `threads`). */
export declare const THREADED_VARIANT: 'simd128-threads';

export declare function features(): { simd: boolean; relaxedSimd: boolean };

export declare class Session {
  private constructor();
  /** The input ports, without the entropy port (entropyInput). */
  readonly inputs: ReadonlyArray<PortInfo>;
  readonly outputs: ReadonlyArray<PortInfo>;
  /**
   * The entropy input `holo.entropy` (uint32 [4], the last port) of an archive
   * with unseeded random ops, or null. execute, run, refine and memoKey fill it
   * with fresh random bytes unless it is given (a named feed 'holo.entropy', or
   * one more array element): docs/decisions.md 99.
   */
  readonly entropyInput: PortInfo | null;
  /** The core module variant this session runs on ('custom' for a module given as `wasm` without `variant`). */
  readonly backend: Variant | 'custom';
  /** The backend identity string that enters computed labels. */
  readonly backendIdentity: string;
  readonly archiveLabel: string;

  /** Inputs in port order (or named feeds); owned outputs in port order. */
  execute<O extends Output = Tensor>(inputs: ReadonlyArray<Input> | Record<string, Input>): O[];
  /** Named feeds, as in ONNX Runtime: { inputName: tensor } -> { outputName: Tensor }. */
  run<O extends Output = Tensor>(feeds: Record<string, Input> | Map<string, Input>): Record<string, O>;
  /**
   * Labels and zero-copy views into wasm memory. A view is valid until the next
   * call into this session's module instance; copy it to keep it.
   */
  executeAddressed<O extends Output = Tensor>(inputs: ReadonlyArray<Input> | Record<string, Input>): O[];
  /**
   * The memo key label an execute with these inputs looks up (validated as by
   * execute): with persistMemo, the store label of its memo record, which
   * names the output labels (stores/preload.js preloadExecution).
   */
  memoKey(inputs: ReadonlyArray<Input> | Record<string, Input>): string;
  /** Iterates to a fixed point; `state` holds every input, state inputs carrying the initial state. */
  refine(plan: RefinePlan, state: ReadonlyArray<Input> | Record<string, Input>): RefineReport;
  /** Autoregressive generation over a causal step graph (docs/generation.md). */
  generate(prompt: ReadonlyArray<number> | Uint32Array, options?: GenerateOptions): GenerateResult;
  /** One synchronous step at a time (e.g. one per event-loop tick); free() when done. */
  generator(options?: Omit<GenerateOptions, 'maxTokens' | 'stopToken' | 'onToken' | 'topLogprobs' | 'promptCache' | 'speculative'> & { logprobs?: boolean | number }): Generator;
  /**
   * The session's prompt cache: prompt prefix -> state + logits, bounded by
   * bytes (LRU), written through the session's warmStore. null drops it.
   */
  setPromptCache(options?: PromptCacheOptions | null): void;
  /** Prompt-cache counters, or null when there is none. */
  readonly promptCache: PromptCacheStats | null;

  readonly inputCount: number;
  readonly outputCount: number;
  readonly kernelCount: number;
  readonly residentBytes: number;
  readonly residentCount: number;
  readonly contentStoreLen: number;
  readonly counters: Counters;
  /** The last exception the warm store threw during a call (treated as a miss or a failed put). */
  readonly storeError: unknown;
  memoryBudget: number;
  setMemoryBudget(bytes: number | bigint): void;
  /** tiered-exec's spill budget in bytes (0: off); see LoadOptions.spillBudget. */
  spillBudget: number;
  setSpillBudget(bytes: number | bigint): void;
  /** Bytes of dead values kept as a cache (default by environment, see SessionLimits; Infinity: all the budget allows; 0: none). */
  retainBytes: number;
  setRetainBytes(bytes: number | bigint): void;
  /** The graph memo's record count (0: no memo). */
  memoRecords: number;
  /** A new, empty memo of n records (rounded down to a power of two, 8 to 16384; 0: the default). */
  setMemoRecords(n: number): void;
  /** The memory settings in force and the instance's ceiling (a frozen object). */
  readonly limits: SessionLimits;
  /** The linear memory of this session's module instance, in bytes. */
  readonly memoryBytes: number;
  /** Re-hashes every constant against its stored label; throws FORMAT on a mismatch. */
  verify(): true;
  readonly disposed: boolean;
  /** Frees the session (idempotent); later calls throw DISPOSED. */
  dispose(): void;
}

/** One instance of the core module (one linear memory), shareable by several sessions. */
export declare class Runtime {
  private constructor();
  readonly variant: Variant | 'custom';
  readonly hasRefine: boolean;
  /** null, or why the instance is unusable (a trap). */
  readonly poisoned: string | null;
  /** true: the host's SHA-256 labels large inputs (see LoadOptions.hostHash). */
  readonly hostHash: boolean;
  /** Threads one dispatch may use (1 for the single-thread modules); drops when a pool worker dies. */
  readonly threads: number;
  /** Why a requested thread count could not be had, if it could not. */
  readonly threadsUnavailable?: string;
  /** The threaded module's pool: workers parked, tasks they ran, parallel jobs, workers that died,
   * tasks the calling thread re-ran for them, why workers did not start or died (null elsewhere). */
  readonly poolStats: { started: number; workerTasks: number; jobs: number; dead: number; rerun: number; errors: string[]; deaths: string[] } | null;
  /** Stops the worker pool (idempotent); sessions keep working on one thread. */
  dispose(): void;
  /** The instance's linear memory in bytes (memory.buffer.byteLength; it never shrinks). */
  readonly memoryBytes: number;
  /** The heap in bytes: in allocated blocks, their peak, taken from memory.grow, in free lists, and the growth limit (0: none). */
  readonly heapStats: { used: number; peak: number; grown: number; free: number; limit: number };
  load(holoBytes: Bytes | ArchiveSource, options?: Omit<LoadOptions, 'wasm' | 'variant' | 'hostHash'>): Session;
}

export declare function init(wasm?: WasmSource | null, options?: { variant?: Variant; threads?: number; hostHash?: boolean }): Promise<Runtime>;

/** Instantiates a fresh module instance and loads the archive into it. */
export declare function load(holoBytes: Bytes | ArchiveSource | { fd: number }, options?: LoadOptions): Promise<Session>;

export interface SamplerOptions {
  kind?: 'greedy' | 'default' | 'mirostat';
  temperature?: number;
  topK?: number;
  topP?: number;
  minP?: number;
  repetitionPenalty?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  penaltyWindow?: number;
  tau?: number;
  eta?: number;
  /** Added to the logits after the penalties, before the mask and the temperature ({ token: bias } or a Map);
   * each finite or -Infinity (bans the token). Not applied by speculative decoding (refused there). */
  logitBias?: Record<number, number> | Map<number, number>;
  /** Asked before every draw: the tokens generated so far -> a mask of vocab entries (truthy = allowed).
   * Disallowed tokens are never drawn; an all-false mask is a STATE error. Refused by speculative decoding. */
  allowed?: (generated: number[]) => ArrayLike<number | boolean>;
  /** Constrain the generated text to a regex (matched in full; literals, escapes, `.`, classes, groups, `|`, `*` `+` `?`):
   * token i stands for its bytes in `tokens` (a TokenDomain or the array it is made from: multi-byte tokens, which may
   * cross atoms; a token of no bytes is never allowed), or for byte tokenBytes[i] (default: byte i, vocabularies of at
   * most 256); a token is allowed only if some continuation of tokens can still complete the match; eos is allowed
   * only on a full match. Not together with allowed. */
  regex?: string | { pattern: string; tokens?: TokenDomain | Array<string | Uint8Array>; tokenBytes?: Uint8Array | string; eos?: number };
}
/** One token's log-probabilities: logprob under the distribution the sampler drew from (penalties, bias,
 * mask, temperature, top-k/top-p/min-p, renormalised; 0 for a greedy draw; -Infinity if it excluded the
 * token), rawLogprob under the model's own softmax of the logits. */
export interface TokenLogprob { token: number; logprob: number; rawLogprob: number }
export interface TokenInfo {
  /** exp(logprob): the chosen token's probability in the sampled distribution. */
  prob: number;
  logprob: number;
  rawLogprob: number;
  /** The topLogprobs most likely tokens: by the sampled distribution, then (tokens it excludes) by raw logit. */
  topk: TokenLogprob[];
}
export interface GenerateOptions {
  maxTokens?: number;
  stopToken?: number;
  seed?: number | bigint;
  sampler?: SamplerOptions;
  /** Ports (index or name); default token = input 0, no position, logits = output 0; state from the archive. */
  model?: ModelOptions;
  /** Called per generated token; return false to stop. info: its log-probabilities (absent for speculative runs). */
  onToken?: (token: number, index: number, info?: TokenInfo) => boolean | void;
  /** How many most likely tokens onToken's info.topk lists (0..64, default 0). */
  topLogprobs?: number;
  /** Restore the longest cached prefix of the prompt (the session's prompt cache; options for its creation). */
  promptCache?: boolean | PromptCacheOptions;
  /** Prefix lengths (1..prompt length) also recorded in the prompt cache (implies promptCache): e.g. the end of
   * a system prompt, so later prompts that share only it restore it instead of prefilling it again. */
  checkpoints?: ReadonlyArray<number>;
  /** Speculative decoding with a draft session loaded in the same module instance (one init()): greedy
   * samplers give target-only greedy output; any other sampler accepts draft proposals by rejection
   * sampling (min(1, p/q), residual resample), so tokens follow target-only sampling's distribution
   * (Mirostat is refused). */
  speculative?: { draft: Session; k?: number; model?: ModelOptions };
}
export interface ModelOptions {
  tokenInput?: number | string;
  positionInput?: number | string | null;
  logitsOutput?: number | string;
  /** The state's rows past the position are masked (a KV cache): the generator may rewind. */
  maskedState?: boolean;
  /** Label every state value by a SHA-256 of its bytes (default: the executor's computed labels). */
  contentState?: boolean;
  /** The vocabulary, when the archive's logits shape is not static (a dynamic export). */
  vocab?: number;
}
export interface PromptCacheOptions {
  /** Bound on state + logits bytes held (default 64 MiB). */
  maxBytes?: number | bigint;
  /** Bound on prefixes held (default 64). */
  maxEntries?: number;
}
export interface PromptCacheStats {
  lookups: number; hits: number; misses: number; tokensReused: number; inserts: number; evictions: number;
  storeHits: number; storePuts: number;
  /** Prefixes found in the warm store and refused (bad manifest digest or structure, a state record missing or
   * not what it names); each is also a miss, and the prefix is recomputed. */
  storeCorrupt: number;
  bytes: number; entries: number; maxBytes: number;
}
export interface SpeculativeReport {
  proposed: number; accepted: number; acceptance: number; rounds: number;
  /** Executions of the target (one per round for a sequence model) and of the draft. */
  targetSteps: number; draftSteps: number;
}
export interface Generator {
  /** Runs one step with this token (prefill or the last sampled token). */
  feed(token: number): void;
  /** Samples the next token from the last step's logits (sampler.allowed is asked for its mask first). */
  sample(): number;
  /** The last draw's log-probabilities (generator option logprobs: k top tokens; STATE error otherwise). */
  logprobs(): TokenInfo & { token: number };
  /** Marks the current state (for speculative rollback in the C API). */
  mark(): void;
  /** Feeds a prompt (K tokens per execution for a K-token model), optionally through the prompt cache. */
  prefill(tokens: ReadonlyArray<number> | Uint32Array, options?: { promptCache?: boolean | PromptCacheOptions; checkpoints?: ReadonlyArray<number> }): { reused: number; computed: number };
  /** Forgets the last n fed tokens, keeping the state (sequence models or model.maskedState). */
  rewind(n: number): void;
  /** Speculative decoding with a draft generator of the same module instance, under this generator's
   * sampler (greedy: identical to greedy decoding; otherwise rejection sampling, same distribution). */
  speculate(draft: Generator, options?: { k?: number; maxTokens?: number; stopToken?: number }): SpeculativeReport & { tokens: number[] };
  readonly vocab: number;
  /** Tokens per execution (K for a K-token sequence model). */
  readonly seq: number;
  /** Tokens fed so far. */
  readonly position: number;
  readonly stats: GenerateResult['stats'];
  free(): void;
}
export interface GenerateResult {
  tokens: number[];
  stats: {
    steps: number; dispatches: number; memoHits: number; elided: number; tokens?: number;
    prefillTokens?: number; prefillReused?: number; prefillComputed?: number;
  };
  speculative?: SpeculativeReport;
}

/** What each token of a vocabulary stands for as bytes (the string-tensor encoding: vocab + 1 offsets, then bytes). */
export declare class TokenDomain {
  /** One entry per token id: a string (UTF-8 encoded) or its bytes; "" is a special token (never a character). */
  constructor(tokens: Array<string | Uint8Array>);
  readonly offsets: Uint32Array;
  readonly bytes: Uint8Array;
  readonly vocab: number;
  bytesOf(token: number): Uint8Array;
  /** The UTF-8 text of a token sequence. */
  decode(tokens: number[]): string;
}
