// The step API of generation (docs/generation.md): a generator over a
// session with its own sampler, driven one synchronous step per call.
import { HologramError } from './errors.js';
import { halves, isToken, toU64 } from './args.js';
import { CONST, Struct, regions } from './layout.js';
import { live, withStore } from './handle.js';
import { setPromptCache } from './prompt-cache.js';
import { drawHooks, topCount } from './generator-draws.js';

const ARGS = new Struct('wasm_gen_args', ['token_input', 'position_input', 'logits_output', 'kind', 'temperature', 'top_k', 'top_p', 'min_p', 'repetition', 'frequency', 'presence', 'window', 'tau', 'eta', 'seed_lo', 'seed_hi', 'vocab']);
const STATS = new Struct('wasm_gen_stats', ['steps', 'dispatches', 'memo_hits', 'elided', 'tokens']);
const SPEC = new Struct('wasm_spec_report', ['proposed', 'accepted', 'rounds', 'target_steps', 'draft_steps']);
const KINDS = { greedy: CONST.HOLO_SAMPLER_GREEDY, default: CONST.HOLO_SAMPLER_DEFAULT, mirostat: CONST.HOLO_SAMPLER_MIROSTAT_V2 };
const TOKEN = Uint32Array.BYTES_PER_ELEMENT;
const MAX_SPEC_TOKENS = 1 << 24;
// generator object -> { rt, ptr() } (speculate finds its draft's handle).
const GENS = new WeakMap();

/** The prompt as token ids, checked (what: the calling API, for messages). */
export function promptTokens(h, prompt, what) {
  live(h);
  if (!Array.isArray(prompt) && !ArrayBuffer.isView(prompt)) throw new HologramError('ARG', `${what}: prompt must be an array of token ids`);
  const toks = Array.from(prompt, Number);
  if (!toks.length) throw new HologramError('ARG', `${what}: the prompt needs at least one token`);
  for (const t of toks) if (!isToken(t)) throw new HologramError('ARG', `${what}: bad token ${t}`);
  return toks;
}

// A model port given by index or name.
function portIndex(v, def, list, what) {
  if (v === undefined) return def;
  if (typeof v === 'string') {
    const i = list.findIndex((p) => p.name === v);
    if (i < 0) throw new HologramError('ARG', `generate: no ${what} named ${JSON.stringify(v)}`);
    return i;
  }
  return v;
}

/** model.vocab: the vocabulary when the logits' shape is not static (0: from the archive). */
function vocabOf(v) {
  if (v === undefined || v === null) return 0;
  if (!Number.isInteger(v) || v < 1 || v > 0x7fffffff) throw new HologramError('ARG', `generate: model.vocab must be a positive integer, got ${String(v)}`);
  return v;
}

function writeArgs(dv, p, { md, sm, kind, seed, inputs, outputs }) {
  const [seedLo, seedHi] = halves(seed);
  const fields = {
    token_input: portIndex(md.tokenInput, 0, inputs, 'input'),
    position_input: md.positionInput === undefined || md.positionInput === null ? -1 : portIndex(md.positionInput, -1, inputs, 'input'),
    logits_output: portIndex(md.logitsOutput, 0, outputs, 'output'),
    kind: KINDS[kind], temperature: sm.temperature ?? 1, top_k: sm.topK ?? 0, top_p: sm.topP ?? 1, min_p: sm.minP ?? 0,
    repetition: sm.repetitionPenalty ?? 1, frequency: sm.frequencyPenalty ?? 0, presence: sm.presencePenalty ?? 0,
    window: sm.penaltyWindow ?? 64, tau: sm.tau ?? 5, eta: sm.eta ?? 0.1, seed_lo: seedLo, seed_hi: seedHi,
    vocab: vocabOf(md.vocab),
  };
  for (const [k, v] of Object.entries(fields)) ARGS.set(dv, p, k, v);
}

// holo_wasm_gen_new plus the model flags; returns the generator pointer.
function newGen(h, rt, args, md) {
  const x = rt.x;
  let g = 0;
  try {
    g = x.holo_wasm_gen_new(h.w, args, h.err);
    if (!g) throw rt.failure(h.err);
    if (md.maskedState) {
      if (typeof x.holo_wasm_gen_set_masked !== 'function') throw new HologramError('UNSUPPORTED', 'maskedState needs a newer core module');
      x.holo_wasm_gen_set_masked(g, 1);
    }
    if (md.contentState) {
      if (typeof x.holo_wasm_gen_set_content !== 'function') throw new HologramError('UNSUPPORTED', 'contentState needs a newer core module');
      x.holo_wasm_gen_set_content(g, 1);
    }
    return g;
  } catch (e) {
    if (g && !rt.poisoned) x.holo_wasm_gen_free(g);
    throw e;
  }
}

/**
 * A generator over the session of handle h (opts: seed, sampler, model as
 * for generate; logprobs: k records each draw's log-probabilities with k top
 * tokens): { feed, sample, logprobs, mark, vocab, seq, position, stats,
 * prefill, rewind, speculate, free }.
 */
export function createGenerator(h, opts = {}) {
  const rt = live(h);
  const x = rt.x;
  if (typeof x.holo_wasm_gen_new !== 'function') throw new HologramError('UNSUPPORTED', 'generation is not compiled into this core module');
  const sm = opts.sampler ?? {};
  const kind = sm.kind ?? (sm.tau !== undefined ? 'mirostat' : 'default');
  if (!(kind in KINDS)) throw new HologramError('ARG', `generate: unknown sampler kind '${kind}' (greedy, default, mirostat)`);
  const md = opts.model ?? {};
  const seed = toU64(opts.seed ?? 0, 'seed');
  const topK = topCount(opts.logprobs, 'logprobs');
  const args = rt.alloc(ARGS.sizeof);
  const outp = rt.alloc(Math.max(STATS.sizeof, TOKEN)); // stats, or a sampled token
  const freeBufs = () => { if (!rt.poisoned) { x.holo_free(args); x.holo_free(outp); } };
  let g = 0, hooks;
  try {
    writeArgs(rt.dv(), args, { md, sm, kind, seed, inputs: h.session.inputs, outputs: h.session.outputs });
    g = newGen(h, rt, args, md);
    hooks = drawHooks(rt, h.err, g, sm, topK);
  } catch (e) {
    if (g && !rt.poisoned) x.holo_wasm_gen_free(g);
    freeBufs();
    throw e;
  }
  // generated: the tokens fed since the last mark (prefill marks), which
  // sampler.allowed is given.
  const state = { g, freeBufs, hooks, generated: [] };
  const api = stepApi(h, rt, state, outp);
  GENS.set(api, { rt, ptr: () => (h.w ? state.g : 0) });
  return api;
}

// The generator object over state.g (0 once freed); outp: a scratch for stats and samples.
function stepApi(h, rt, state, outp) {
  const x = rt.x, err = h.err;
  const alive = () => { live(h); if (!state.g) throw new HologramError('DISPOSED', 'generator was freed'); return state.g; };
  const check = (st) => { if (st !== 0) throw rt.error(err, st); };
  return {
    feed(t) {
      const g = alive();
      if (!isToken(t)) throw new HologramError('ARG', `generate: bad token ${t}`);
      check(x.holo_wasm_gen_feed(g, t, err));
      state.generated.push(t);
    },
    /** Samples the next token (not fed): sampler.allowed is asked for this draw's mask first. */
    sample() {
      const g = alive();
      state.hooks.before(state.generated.slice());
      check(x.holo_wasm_gen_sample(g, outp, err));
      return rt.dv().getUint32(outp, true);
    },
    /**
     * The last draw's log-probabilities (generator option logprobs: k):
     * { token, prob, logprob, rawLogprob, topk: [{ token, logprob, rawLogprob }] }.
     */
    logprobs() { alive(); return state.hooks.logprobs(); },
    mark() { x.holo_wasm_gen_mark(alive()); state.generated = []; },
    get vocab() { return x.holo_wasm_gen_vocab(alive()); },
    /** Tokens per execution (K for a K-token sequence model, else 1). */
    get seq() { const g = alive(); return typeof x.holo_wasm_gen_seq === 'function' ? x.holo_wasm_gen_seq(g) : 1; },
    /** Tokens fed so far (the next token's position). */
    get position() { return x.holo_wasm_gen_pos(alive()); },
    get stats() {
      const g = alive();
      const two = typeof x.holo_wasm_gen_stats2 === 'function';
      (two ? x.holo_wasm_gen_stats2 : x.holo_wasm_gen_stats)(g, outp);
      const dv = rt.dv(), u = (k) => STATS.num(dv, outp, k);
      const r = { steps: u('steps'), dispatches: u('dispatches'), memoHits: u('memo_hits'), elided: u('elided') };
      if (two) r.tokens = u('tokens');
      return r;
    },
    /**
     * Feeds the prompt (K tokens per execution for a sequence model) and marks
     * where generation starts. { promptCache: true | { maxBytes, maxEntries } }
     * restores the longest cached prefix first (the session's prompt cache,
     * created on first use) and records the prompt; checkpoints: [n, ...]
     * also records the prefixes of those lengths (implies promptCache).
     * Returns { reused, computed } (tokens restored / fed through the model).
     */
    prefill(tokens, o = {}) { const r = prefill(h, rt, this, alive(), tokens, o); state.generated = []; return r; },
    /** Forgets the last n fed tokens, keeping the state (sequence models, or model.maskedState). */
    rewind(n) {
      const g = alive();
      if (!Number.isInteger(n) || n < 0) throw new HologramError('ARG', 'rewind: n must be a non-negative integer');
      check(x.holo_wasm_gen_rewind(g, n, err));
      state.generated.length = Math.max(0, state.generated.length - n);
    },
    /**
     * Speculative decoding with `draft` (a generator of a session in the
     * same module instance, prefilled with the same prompt): up to k proposals
     * per round; a sequence-model target verifies them in one execution.
     * Under this generator's sampler: greedy gives greedy's output, any
     * other accepts by rejection sampling (target-only sampling's law).
     * Returns { tokens, proposed, accepted, acceptance, rounds, targetSteps, draftSteps }.
     */
    speculate(draft, o = {}) {
      const g = alive();
      if (state.hooks.constrained) throw new HologramError('UNSUPPORTED', 'speculate: sampler.logitBias, sampler.allowed and sampler.regex are not applied by speculative decoding (decode without a draft)');
      return speculate(h, rt, g, draft, o);
    },
    free() {
      if (!state.g) return;
      if (h.w && !rt.poisoned) x.holo_wasm_gen_free(state.g);
      state.freeBufs();
      state.g = 0;
    },
  };
}

// checkpoints: prefix lengths (1..prompt length) to record besides the whole
// prompt, as an ascending Uint32Array; [] when none.
function checkpointList(cps, n) {
  if (cps === undefined || cps === null) return [];
  if (!Array.isArray(cps) && !ArrayBuffer.isView(cps)) throw new HologramError('ARG', 'prefill: checkpoints must be an array of prefix lengths');
  const v = [...new Set(Array.from(cps, Number))].sort((a, b) => a - b);
  for (const c of v) if (!Number.isInteger(c) || c < 1 || c > n) throw new HologramError('ARG', `prefill: checkpoint ${c} is not a prefix length in 1..${n}`);
  return v;
}

function prefill(h, rt, api, g, tokens, o) {
  const x = rt.x;
  const toks = promptTokens(h, tokens, 'prefill');
  const cps = checkpointList(o.checkpoints, toks.length);
  if (cps.length && o.promptCache === false) throw new HologramError('ARG', 'prefill: checkpoints are recorded in the prompt cache (promptCache: false contradicts them)');
  const pc = o.promptCache ?? cps.length > 0;
  if (cps.length && typeof x.holo_wasm_gen_prefill_checkpointed !== 'function') throw new HologramError('UNSUPPORTED', 'prompt-cache checkpoints need a newer core module');
  if (pc && !h.pcache) setPromptCache(h, pc === true ? {} : pc);
  if (typeof x.holo_wasm_gen_prefill !== 'function') {
    if (pc) throw new HologramError('UNSUPPORTED', 'the prompt cache is not compiled into this core module');
    for (const t of toks) api.feed(t);
    api.mark();
    return { reused: 0, computed: toks.length };
  }
  const { at, size } = regions([['tokens', TOKEN * toks.length, TOKEN], ['cps', TOKEN * Math.max(1, cps.length), TOKEN], ['reused', TOKEN, TOKEN]]);
  const p = rt.alloc(size);
  try {
    new Uint32Array(rt.mem, p + at.tokens, toks.length).set(toks);
    new Uint32Array(rt.mem, p + at.cps, cps.length).set(cps);
    const rp = p + at.reused;
    rt.dv().setUint32(rp, 0, true);
    const cached = () => (cps.length
      ? x.holo_wasm_gen_prefill_checkpointed(g, h.pcache, p + at.tokens, toks.length, p + at.cps, cps.length, rp, h.err)
      : x.holo_wasm_gen_prefill_cached(g, h.pcache, p + at.tokens, toks.length, rp, h.err));
    const st = pc ? withStore(h, cached) : x.holo_wasm_gen_prefill(g, p + at.tokens, toks.length, h.err);
    if (st !== 0) throw rt.error(h.err, st);
    const reused = rt.dv().getUint32(rp, true);
    return { reused, computed: toks.length - reused };
  } finally {
    if (!rt.poisoned) x.holo_free(p);
  }
}

function speculate(h, rt, g, draft, o) {
  const dp = GENS.get(draft);
  if (!dp || dp.rt !== rt) throw new HologramError('ARG', 'speculate: the draft must be a live generator of a session in the same module instance (load both with one init())');
  const dg = dp.ptr();
  if (!dg) throw new HologramError('DISPOSED', 'the draft generator was freed');
  const k = o.k ?? 4, maxTokens = o.maxTokens ?? 16, stop = o.stopToken ?? -1;
  if (!Number.isInteger(k) || k < 1 || k > 64) throw new HologramError('ARG', 'speculate: k must be an integer from 1 to 64');
  if (!Number.isInteger(maxTokens) || maxTokens < 0 || maxTokens > MAX_SPEC_TOKENS) throw new HologramError('ARG', 'speculate: maxTokens must be a non-negative integer');
  if (!Number.isInteger(stop) || stop < -1 || stop > 0x7fffffff) throw new HologramError('ARG', 'speculate: stopToken must be a token id or -1');
  const { at, size } = regions([['n', TOKEN, TOKEN], ['report', SPEC.sizeof, SPEC.alignof], ['out', TOKEN * maxTokens, TOKEN]]);
  const buf = rt.alloc(size, SPEC.alignof);
  try {
    const st = rt.x.holo_wasm_gen_speculative(g, dg, k, maxTokens, stop, buf + at.out, maxTokens, buf + at.n, buf + at.report, h.err);
    if (st !== 0) throw rt.error(h.err, st);
    const dv = rt.dv(), rep = buf + at.report;
    const n = Math.min(dv.getUint32(buf + at.n, true), maxTokens);
    const u = (f) => SPEC.num(dv, rep, f);
    const proposed = u('proposed'), accepted = u('accepted');
    return { tokens: Array.from(new Uint32Array(rt.mem, buf + at.out, n)), proposed, accepted, acceptance: proposed ? accepted / proposed : 0, rounds: u('rounds'), targetSteps: u('target_steps'), draftSteps: u('draft_steps') };
  } finally {
    if (!rt.poisoned) rt.x.holo_free(buf);
  }
}
