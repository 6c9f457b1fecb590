// What JS attaches to a generator's draws (docs/generation.md, "Logit bias and
// allowed masks", "Log-probabilities"): the sampler's logit bias table, the
// allowed-token mask each draw asks sampler.allowed(generated) for, and the
// log-probabilities of each draw as the C inspector recorded them.
import { HologramError } from './errors.js';
import { TokenDomain } from './token-domain.js';
import { isToken } from './args.js';
import { Struct } from './layout.js';

const LP = new Struct('wasm_gen_logprobs', ['status', 'token', 'n_top', 'prob', 'logprob', 'raw_logprob', 'top_token', 'top_logprob', 'top_raw']);
/** Most top tokens a draw reports (HOLO_LOGPROBS_MAX_TOP). */
export const MAX_TOP_LOGPROBS = LP.extent('top_token').count;

// sampler.logitBias ({ token: bias } or a Map) as a vocab-long Float32Array.
function biasTable(lb, vocab) {
  if (typeof lb !== 'object' || lb === null || Array.isArray(lb)) throw new HologramError('ARG', 'sampler.logitBias must be an object { token: bias } or a Map');
  const table = new Float32Array(vocab);
  for (const [k, v] of lb instanceof Map ? lb : Object.entries(lb)) {
    const t = Number(k);
    if (!isToken(t) || t >= vocab) throw new HologramError('ARG', `sampler.logitBias: token ${k} is outside the vocabulary (${vocab})`);
    if (typeof v !== 'number' || Number.isNaN(v) || v === Infinity) throw new HologramError('ARG', `sampler.logitBias: the bias of token ${t} must be a finite number or -Infinity`);
    table[t] = v;
  }
  return table;
}

/** Logprobs option: undefined/false off, true = no top tokens, k = k top tokens. */
export function topCount(v, what) {
  if (v === undefined || v === false || v === null) return -1;
  const k = v === true ? 0 : v;
  if (!Number.isInteger(k) || k < 0 || k > MAX_TOP_LOGPROBS) throw new HologramError('ARG', `${what} must be an integer from 0 to ${MAX_TOP_LOGPROBS}`);
  return k;
}

/**
 * The draw hooks of generator g (rt: its runtime, err: its error record):
 * { before(generated) (writes the allowed mask), logprobs() (the last draw's),
 * constrained (a bias or a mask is on) }.
 */
export function drawHooks(rt, err, g, sm, topK) {
  const x = rt.x, V = x.holo_wasm_gen_vocab(g);
  const need = (name) => { if (typeof x[name] !== 'function') throw new HologramError('UNSUPPORTED', `${name} is not in this core module (rebuild)`); };
  if (sm.logitBias !== undefined && sm.logitBias !== null) {
    need('holo_wasm_gen_set_bias');
    const table = biasTable(sm.logitBias, V);
    const p = rt.alloc(V * 4);
    try {
      new Float32Array(rt.mem, p, V).set(table);
      const st = x.holo_wasm_gen_set_bias(g, p, err);
      if (st !== 0) throw rt.error(err, st);
    } finally { if (!rt.poisoned) x.holo_free(p); }
  }
  const allowed = sm.allowed;
  if (allowed !== undefined && allowed !== null && typeof allowed !== 'function') throw new HologramError('ARG', 'sampler.allowed must be a function (generated) => mask');
  const regex = sm.regex ?? null;
  if (regex !== null) {
    if (allowed) throw new HologramError('ARG', 'sampler.regex and sampler.allowed: give one of them (each is the whole mask)');
    setRegex(rt, err, g, V, regex);
  }
  let maskPtr = 0, lpPtr = 0;
  if (allowed) {
    need('holo_wasm_gen_mask');
    if (!(maskPtr = x.holo_wasm_gen_mask(g, 1))) throw new HologramError('MEMORY', 'sampler.allowed: out of memory for the mask');
  }
  if (topK >= 0) {
    need('holo_wasm_gen_logprobs');
    if (!(lpPtr = x.holo_wasm_gen_logprobs(g, topK))) throw new HologramError('ARG', `logprobs: at most ${MAX_TOP_LOGPROBS} top tokens`);
  }
  return {
    constrained: Boolean(allowed) || regex !== null || (sm.logitBias !== undefined && sm.logitBias !== null),
    before(generated) { if (allowed) writeMask(rt, maskPtr, V, allowed(generated)); },
    logprobs() {
      if (!lpPtr) throw new HologramError('STATE', 'logprobs: the generator was made without the logprobs option');
      return readLogprobs(rt, lpPtr);
    },
  };
}

// sampler.regex: a pattern string, or { pattern, tokens | tokenBytes, eos }:
// tokens a TokenDomain (or the array it is made from: token i stands for its
// bytes, several per token); or token i stands for byte tokenBytes[i] (a
// Uint8Array or a string of one-byte characters, vocab long; default token
// i = byte i, for a vocabulary of at most 256); eos a token allowed only
// where the text matches in full.
function setRegex(rt, err, g, V, regex) {
  const spec = typeof regex === 'string' ? { pattern: regex } : regex;
  if (!spec || typeof spec !== 'object' || typeof spec.pattern !== 'string') throw new HologramError('ARG', 'sampler.regex must be a pattern string or { pattern, tokens?, tokenBytes?, eos? }');
  const eos = spec.eos ?? -1;
  if (!Number.isInteger(eos) || eos < -1 || eos >= V) throw new HologramError('ARG', `sampler.regex: eos must be a token below ${V} (or -1)`);
  const pat = new TextEncoder().encode(spec.pattern);
  if (pat.includes(0)) throw new HologramError('ARG', 'sampler.regex: the pattern contains a NUL byte');
  if (spec.tokens !== undefined && spec.tokens !== null) {
    if (spec.tokenBytes !== undefined && spec.tokenBytes !== null) throw new HologramError('ARG', 'sampler.regex: give tokens or tokenBytes, not both');
    const dom = spec.tokens instanceof TokenDomain ? spec.tokens : new TokenDomain(spec.tokens);
    if (dom.vocab !== V) throw new HologramError('ARG', `sampler.regex: the token domain has ${dom.vocab} tokens, the model ${V}`);
    return setDomain(rt, err, g, pat, dom.offsets, dom.bytes, eos);
  }
  // one byte per token: the domain whose token t is bytes [t, t + 1)
  return setDomain(rt, err, g, pat, Uint32Array.from({ length: V + 1 }, (_, i) => i), tokenBytes(spec.tokenBytes, V), eos);
}

function setDomain(rt, err, g, pat, offsets, bytes, eos) {
  return callSet(rt, err, [pat, new Uint8Array([0])], [new Uint8Array(offsets.buffer, offsets.byteOffset, offsets.byteLength), bytes], (p, q) => rt.x.holo_wasm_gen_set_regex_domain(g, p, q[0], q[1], bytes.length, eos, err), 'holo_wasm_gen_set_regex_domain');
}

function tokenBytes(tb, V) {
  if (tb === undefined || tb === null) {
    if (V > 256) throw new HologramError('ARG', `sampler.regex: a vocabulary of ${V} tokens needs regex.tokens (a TokenDomain) or regex.tokenBytes (token -> byte)`);
    return Uint8Array.from({ length: V }, (_, i) => i);
  }
  if (typeof tb === 'string') {
    if ([...tb].some((c) => c.charCodeAt(0) > 255)) throw new HologramError('ARG', 'sampler.regex: tokenBytes characters must be single bytes (multi-byte tokens: regex.tokens)');
    tb = Uint8Array.from(tb, (c) => c.charCodeAt(0));
  }
  if (!(tb instanceof Uint8Array) || tb.length !== V) throw new HologramError('ARG', `sampler.regex: tokenBytes must hold ${V} bytes (one per token), got ${tb?.length}`);
  return tb;
}

// Copies the pattern (NUL-terminated) and the tables into one scratch
// block (tables 4-aligned), calls set(patternPtr, tablePtrs), frees it.
function callSet(rt, err, head, tables, set, name) {
  if (typeof rt.x[name] !== 'function') throw new HologramError('UNSUPPORTED', `${name} is not in this core module (rebuild)`);
  const hl = head.reduce((a, b) => a + b.length, 0);
  let o = (hl + 3) & ~3;
  const at = tables.map((t) => { const a = o; o = (o + t.length + 3) & ~3; return a; });
  const p = rt.alloc(Math.max(o, 1));
  try {
    const m = new Uint8Array(rt.mem, p, o);
    let h = 0;
    for (const b of head) { m.set(b, h); h += b.length; }
    tables.forEach((t, i) => m.set(t, at[i]));
    const st = set(p, at.map((a) => p + a));
    if (st !== 0) throw rt.error(err, st);
  } finally { if (!rt.poisoned) rt.x.holo_free(p); }
}

// The callback's answer: vocab entries, truthy = allowed (the C sampler
// refuses an all-false mask with a STATE error).
function writeMask(rt, p, V, m) {
  if (!m || typeof m !== 'object' || m.length !== V) throw new HologramError('ARG', `sampler.allowed must return a mask of ${V} entries (the vocabulary), got ${m && typeof m === 'object' ? `${m.length} entries` : String(m)}`);
  const buf = new Uint8Array(rt.mem, p, V);
  if (m instanceof Uint8Array) buf.set(m);
  else for (let i = 0; i < V; i++) buf[i] = m[i] ? 1 : 0;
}

function readLogprobs(rt, p) {
  const dv = rt.dv(), g = (f, i) => LP.get(dv, p, f, i);
  const st = g('status');
  if (st !== 0) throw new HologramError('STATE', 'logprobs: no draw recorded (sample first)');
  const topk = [];
  for (let j = 0; j < g('n_top'); j++) topk.push({ token: g('top_token', j), logprob: g('top_logprob', j), rawLogprob: g('top_raw', j) });
  return { token: g('token'), prob: g('prob'), logprob: g('logprob'), rawLogprob: g('raw_logprob'), topk };
}
